# `import --format skypilot` refusals: a file without a required column, or
# with a non-numeric number on a row it would use, is rejected with
# FILE:LINE:COLUMN and exit 3, the catalog unchanged; usage errors exit 2.
. tests/cli/catalog-lib.sh
SKY=tests/data/import/skypilot
mkdir -p "$T/aws"
cf list --format csv; cp "$T/out" "$T/before.csv"
# No Price column.
sed '1s/,Price,/,Cost,/' "$SKY/lambda/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv"; expect_rc 3
expect_err "$T/aws/vms.csv:1: missing required column: Price"
# A non-numeric price on a used row (line 16, p5.48xlarge in us-east-1;
# Price is the 7th column).
sed '16s/,98\.32,/,98.32USD,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv"; expect_rc 3
expect_err "$T/aws/vms.csv:16:7: Price: expected a non-negative price in USD, or an empty cell, got \"98.32USD\""
# A bad AcceleratorCount; a bad SpotPrice.
sed '7s/,A100,8\.0,/,A100,eight,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv"; expect_rc 3
expect_err "vms.csv:7:3: AcceleratorCount: expected a positive number of accelerators, got \"eight\""
sed '9s/,6\.791500,/,n\/a,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv"; expect_rc 3
expect_err "vms.csv:9:8: SpotPrice: expected a non-negative price in USD, or an empty cell, got \"n/a\""
# A bad price on a row it does not use (a CPU row) is not an error.
sed '2s/,0\.051,/,free,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv" --as-of 2026-11-30; expect_rc 0
cf import --reset; expect_rc 0
expect_out "removed 1 offering you imported"
expect_out "removed the imported prices of 4 offerings (their shipped prices show again)"
cf list --format csv; cmp -s "$T/before.csv" "$T/out" || fail "the catalog changed after the reset"
# Every refusal above left the catalog as it was: check after one more.
cp "$T/before.csv" "$T/before2.csv"
sed '1s/^InstanceType,/Type,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv"; expect_rc 3; expect_err "missing required column: InstanceType"
cf list --format csv; cmp -s "$T/before2.csv" "$T/out" || fail "a rejected price import changed the catalog"
# Usage errors.
cf import --format skypilot "$SKY/aws/vms.csv" --as-of 2026-12-03; expect_rc 2
expect_err "--as-of: expected a date no later than today (2026-12-02), got \"2026-12-03\""
cf import --format skypilot "$SKY/aws/vms.csv" --as-of 2026-11; expect_rc 2; expect_err "--as-of: expected a date YYYY-MM-DD"
cf import --format yaml "$SKY/aws/vms.csv"; expect_rc 2; expect_err "--format: expected skypilot or gcp-catalog, got \"yaml\""
cf import --as-of 2026-11-01 "$SKY/aws/vms.csv"; expect_rc 2; expect_err "--as-of goes with --format skypilot"
cp "$SKY/aws/vms.csv" "$T/vms.csv"
cf import --format skypilot vms.csv; expect_rc 2; expect_err "cannot tell the SkyPilot cloud"
cf import --format skypilot "$T/missing/vms.csv"; expect_rc 3
