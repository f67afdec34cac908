# Sort orders of `list` on the test rows (ties by id), and unknown values
# last over the whole catalog.
. tests/cli/catalog-lib.sh
import_small
# Grouped by currency (EUR before USD), cheapest first by the listed price
# (on-demand, else reserved), unknown price last.
expect_ids --sort price -- testa-a100-ib-eur testd-mi300x-roce testc-l40s-tcp testd-h100-pcie-single testa-h100-ib testb-h200-roce testb-h100-efa testc-h100-unknown
expect_json_true '[.[] | (.price_on_demand_gpu_hr // .price_reserved_gpu_hr) == null] | . == sort'
expect_ids --sort gbps -- testa-h100-ib testb-h100-efa testb-h200-roce testd-mi300x-roce testa-a100-ib-eur testc-l40s-tcp testd-h100-pcie-single testc-h100-unknown
expect_json_true '[.[] | .network_gbps_per_node == null] | . == sort'
expect_json_true '[.[] | .network_gbps_per_node | select(. != null)] | . == (sort | reverse)'
expect_ids --sort gpus -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testc-h100-unknown testd-mi300x-roce testc-l40s-tcp testd-h100-pcie-single
expect_ids --sort max-cluster -- testb-h100-efa testa-h100-ib testb-h200-roce testa-a100-ib-eur testd-mi300x-roce testd-h100-pcie-single testc-h100-unknown testc-l40s-tcp
expect_json_true '[.[] | .max_cluster_gpus == null] | . == sort'
expect_ids --sort as-of -- testd-mi300x-roce testd-h100-pcie-single testc-l40s-tcp testa-a100-ib-eur testc-h100-unknown testa-h100-ib testb-h200-roce testb-h100-efa
expect_ids --sort provider -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-h100-pcie-single testd-mi300x-roce testc-h100-unknown testc-l40s-tcp
cf list --sort cost; expect_rc 2; expect_err "--sort: expected one of price, gbps, gpus, max-cluster, provider, as-of"
