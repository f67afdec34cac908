# `import --remove ID...` and `import --reset`: the user's rows go, all or
# nothing; a shipped row with the same id shows again.
. tests/cli/catalog-lib.sh
import_small
# Override a shipped offering (data/offerings.csv has aws-p5-48xlarge).
cf show aws-p5-48xlarge --format json; expect_json .origin shipped
shipped_price=$(jq -r .price_on_demand_gpu_hr "$T/out")
printf 'id,provider,offering,gpu,source_url,as_of,price_on_demand_gpu_hr,currency\naws-p5-48xlarge,AWS,My p5 quote,H100-SXM,https://example.com/quote,2026-11,1.11,USD\n' > "$T/quote.csv"
cf import "$T/quote.csv"; expect_rc 0
cf show aws-p5-48xlarge --format json; expect_json .origin user; expect_json .price_on_demand_gpu_hr 1.11
# An id never imported (and a shipped id) is exit 2, named, nothing removed.
cf import --remove testa-h100-ib no-such-id lambda-1cc-h100; expect_rc 2
expect_err "\"no-such-id\""; expect_err "nothing was removed"
cf list --format json; expect_json '[.[] | select(.origin == "user")] | length' 9
# Two of the small catalog's rows, then the override.
cf import --remove testa-h100-ib testb-h200-roce; expect_rc 0
expect_out "removed 2 offerings you imported: testa-h100-ib testb-h200-roce"
cf list --format json; expect_json '[.[] | select(.provider | startswith("Test"))] | length' 6
expect_json '[.[] | select(.id == "testa-h100-ib")] | length' 0
cf import --remove aws-p5-48xlarge; expect_rc 0
expect_out "aws-p5-48xlarge: the shipped offering with this id shows again"
cf show aws-p5-48xlarge --format json; expect_json .origin shipped; expect_json .price_on_demand_gpu_hr "$shipped_price"
cf import --remove aws-p5-48xlarge; expect_rc 2
expect_err "(a shipped offering: only rows you imported can be removed)"
# --reset removes the 6 left, and then none.
cf import --reset; expect_rc 0; expect_out "removed 6 offerings you imported"
cf list --format json; expect_json '[.[] | select(.origin == "user")] | length' 0
cf import --reset; expect_rc 0; expect_out "removed 0 offerings you imported"
# Usage.
cf import --remove; expect_rc 2; expect_err "--remove needs the ids"
cf import --reset extra; expect_rc 2
cf import --remove a --reset; expect_rc 2; expect_err "exclude each other"
cf import --help; expect_rc 0; expect_out "--remove ID"; expect_out "--reset"
