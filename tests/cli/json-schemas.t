# Every JSON document the tool writes conforms to its schema under
# docs/schema/ (issue 23 item 8), checked on real outputs: the whole shipped
# catalog, offerings of every network family, and a user's import. The
# validator is python3-jsonschema (tools/check-json.py); the last cases show
# that the check can fail.
schema() {  # NAME: $OUT against docs/schema/NAME.schema.json
    printf '%s' "$OUT" | python3 tools/check-json.py "$1" > "$T/schema.out" 2>&1 ||
        fail "$1: $(head -c 800 "$T/schema.out")"
}
python3 -c 'import jsonschema' 2> /dev/null || fail "python3-jsonschema is missing (tools/deps.sh installs it)"
cf list --format json; expect_rc 0; schema list
cf list --multinode yes --network ib --format json; expect_rc 0; schema list
cf providers --format json; expect_rc 0; schema providers
for id in aws-p5-48xlarge azure-nd96isr-h100-v5 gcp-a3-megagpu-8g oci-bm-gpu-h100-8 coreweave-hgx-h100 lambda-1cc-h100; do
    cf show "$id" --format json; expect_rc 0; schema show
done
cf import tests/data/plan-stale-price.csv; expect_rc 0
cf show testy-h100-oldprice --format json; expect_rc 0; schema show
cf list --provider TestYpsilon --format json; expect_rc 0; schema list
for s in slurm kubernetes skypilot dstack; do
    cf recipe aws-p5-48xlarge --nodes 4 --scheduler "$s" --format json; expect_rc 0; schema recipe
done
# The check can fail: a price of the wrong type, an unknown network, a
# recipe with a key no schema names.
cf show aws-p5-48xlarge --format json
printf '%s' "$OUT" | jq '.price_on_demand_gpu_hr = "6.88"' > "$T/bad.json"
! python3 tools/check-json.py show "$T/bad.json" 2> "$T/e" || fail "a string price passed"
grep -q 'price_on_demand_gpu_hr' "$T/e" || fail "the violation is not named: $(cat "$T/e")"
printf '%s' "$OUT" | jq '.network = "infiniband"' > "$T/bad.json"
! python3 tools/check-json.py show "$T/bad.json" 2> /dev/null || fail "an unknown network passed"
cf recipe aws-p5-48xlarge --nodes 2 --format json
printf '%s' "$OUT" | jq '.extra = 1' > "$T/bad.json"
! python3 tools/check-json.py recipe "$T/bad.json" 2> /dev/null || fail "an unnamed key passed"
