# `show`: every field, sources, and the age relative to CLUSTERFIT_NOW
# (2026-12-02 in the test runner): 2026-08 is read as 2026-08-01, 123 days
# before (31 + 30 + 31 + 30 + 1), about 4 months.
. tests/cli/catalog-lib.sh
import_small
cf show testa-h100-ib; expect_rc 0
expect_out "as_of                    2026-08 (4 months old)"
expect_out "price_on_demand_gpu_hr   2.49 USD per GPU-hour"
expect_out "network_gbps_per_node    3200 Gbit/s"
expect_out "orchestration            slurm, kubernetes"
expect_out "origin                   user (clusterfit import)"
expect_out "Sources (facts as of 2026-08, 4 months old):"
expect_out "  https://example.com/alpha/h100"
cf show testa-h100-ib --format json; expect_rc 0
expect_json '.age_days' 123
expect_json '.id' testa-h100-ib
expect_json '.price_reserved_gpu_hr' 1.99
cf show testb-h100-efa --format json; expect_json '.age_days' 367
cf show testd-mi300x-roce --format json; expect_json '.age_days' 12
cf show testd-mi300x-roce; expect_out "2026-11-20 (12 days old)"; expect_out "gpudirect_rdma           unknown"
cf show testa-a100-ib-eur; expect_out "  https://example.com/alpha/a100"; expect_out "  https://example.com/alpha/pricing"
expect_out "price_on_demand_gpu_hr   1.8 EUR per GPU-hour"
cf show no-such-offering; expect_rc 2; expect_err "no offering with id 'no-such-offering'"
cf show; expect_rc 2
CLUSTERFIT_NOW=2026-13-01 "$CF" show testa-h100-ib > "$T/out" 2> "$T/err"; RC=$?
expect_rc 2; expect_err "CLUSTERFIT_NOW: expected a date YYYY-MM-DD"
