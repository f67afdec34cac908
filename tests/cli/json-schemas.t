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
# plan (training, MPI, batch), fabrics, audit of every saved log, probe of
# every saved node tree.
for wl in llama3-70b deepseek-v3 cfd-stencil resnet50-dp; do
    cf plan --workload "$wl" --top 5 --format json; schema plan
done
cf plan --workload llama3-70b --deadline 2160 --objective time --top 3 --format json; schema plan
cf plan --workload cfd-stencil --network tcp --gdr yes --format json; expect_rc 1; schema plan
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 16 --format json; expect_rc 0; schema fabrics
cf fabrics --workload cfd-stencil --gpu H100-SXM --nodes 4 --format json; expect_rc 0; schema fabrics
# fabrics as sold: under a deadline (margin_pct), on a GPU the catalog
# sells in few bundles, and a bundle without its offerings fails the check.
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --format json; expect_rc 0; schema fabrics
cf fabrics --workload llama3-8b --gpu A100-SXM-80 --nodes 4 --format json; expect_rc 0; schema fabrics
printf '%s' "$OUT" | jq 'del(.sold.bundles[0].offerings)' > "$T/bad.json"
! python3 tools/check-json.py fabrics "$T/bad.json" 2> /dev/null || fail "a bundle without offerings passed"
n=0
for f in tests/data/shared/cases/*.txt tests/data/cases/*.txt; do
    cf audit --format json "$f"; schema audit; n=$((n + 1))
done
[ "$n" -gt 50 ] || fail "only $n logs audited"
for d in tests/data/probe/*/; do
    cf probe --sysroot "$d" --format json; schema probe
done
# An audit that shows a busbw it did not judge never says ok (the schema's rule).
cf audit --format json tests/data/shared/cases/01-ib-hdr-a100-3node-ok-no-debug.txt
expect_json '.bandwidth_judged' false; expect_json_true '.busbw_GBps > 0'; expect_json .status unjudged
printf '%s' "$OUT" | jq '.status = "ok"' > "$T/bad.json"
! python3 tools/check-json.py audit "$T/bad.json" 2> /dev/null || fail "an unjudged ok passed"
