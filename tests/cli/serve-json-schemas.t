# The serving documents conform to their schemas (docs/schema/serve-plan and
# serve-fabrics, checked by tools/check-json.py as tests/cli/json-schemas.t
# checks the others): plans of every serve preset, with targets, a traffic,
# a filter nothing passes; fabrics at several sizes, and a GPU nothing fits.
# The new-user trial saw fabrics' flags printed as [null]: the schema
# refuses that, and a key no schema names.
schema() {  # NAME: $OUT against docs/schema/NAME.schema.json
    printf '%s' "$OUT" | python3 tools/check-json.py "$1" > "$T/schema.out" 2>&1 ||
        fail "$1: $(head -c 800 "$T/schema.out")"
}
python3 -c 'import jsonschema' 2> /dev/null || fail "python3-jsonschema is missing (tools/deps.sh installs it)"
for wl in deepseek-v3-serve llama3-70b-serve llama3-405b-serve qwen3-235b-serve; do
    cf plan --workload "$wl" --format json; expect_rc 0; schema serve-plan
    for n in 2 4 12; do
        cf fabrics --workload "$wl" --gpu H100-SXM --nodes "$n" --format json; expect_rc 0; schema serve-fabrics
    done
done
cf plan --workload deepseek-v3-serve --tpot-ms 20 --ttft-s 1 --format json; expect_rc 0; schema serve-plan
cf plan --workload deepseek-v3-serve --gpu A100-SXM-80 --format json; expect_rc 0; schema serve-plan
cf plan --workload deepseek-v3-serve --provider nobody-sells-this --format json; expect_rc 1; schema serve-plan
sed 's/"traffic": "max"/"traffic": 2000/; s/"name": "deepseek-v3-serve"/"name": "ds-rate"/' \
    "$ROOT/data/workloads/deepseek-v3-serve.json" > "$T/rate.json"
cf plan --workload "$T/rate.json" --format json; expect_rc 0; schema serve-plan
cf fabrics --workload deepseek-v3-serve --gpu L40S --nodes 2 --nics 2 --nic-gbps 100 --format json
expect_rc 0; schema serve-fabrics
expect_json_true 'all(.fabrics[]; .flags == ["does_not_fit"] and (.why | length > 0))'
# flags is a list of words: [] when the deployment fits, never [null]
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 4 --format json; expect_rc 0
expect_json_true 'all(.fabrics[]; .flags == [])'
printf '%s' "$OUT" | jq '.fabrics[0].flags = [null]' > "$T/bad.json"
! python3 tools/check-json.py serve-fabrics "$T/bad.json" 2> /dev/null || fail "flags [null] passed"
printf '%s' "$OUT" | jq '.fabrics[0].step_time_s = 1' > "$T/bad.json"
! python3 tools/check-json.py serve-fabrics "$T/bad.json" 2> /dev/null || fail "an unnamed key passed"
cf plan --workload llama3-70b-serve --top 2 --format json; expect_rc 0
printf '%s' "$OUT" | jq '.ranked[0].decode.layout = "EP16 (DP attention) on 2 no"' > "$T/bad.json"
! python3 tools/check-json.py serve-plan "$T/bad.json" 2> /dev/null || fail "a cut layout passed"
printf '%s' "$OUT" | jq '.unranked[0].kind = null' > "$T/bad.json"
! python3 tools/check-json.py serve-plan "$T/bad.json" 2> /dev/null || fail "an unranked offering without its kind passed"
