# Every other JSON document the tool writes (scale, predict collective and
# step, fit, goodput and goodput --validate, validate of each kind, version)
# conforms to its schema under docs/schema/ on real outputs (issue 23: the
# new users found no schema for them); every command that takes
# `--format json` has a schema, and the man page and README name each one.
# The serving plan and serve fabrics have their own schemas (serve-answers).
schema() {  # NAME: $OUT against docs/schema/NAME.schema.json
    printf '%s' "$OUT" | python3 tools/check-json.py "$1" > "$T/schema.out" 2>&1 ||
        fail "$1: $(head -c 800 "$T/schema.out")"
}
python3 -c 'import jsonschema' 2> /dev/null || fail "python3-jsonschema is missing (tools/deps.sh installs it)"
V=tests/data/validation; SV=tests/data/shared/data/validation
for o in crusoe-h100-ib aws-p4d-24xlarge gcp-a3-megagpu-8g; do
    for wl in llama3-70b deepseek-v3 cfd-stencil resnet50-dp llama3-70b-serve; do
        cf scale --workload "$wl" --offering "$o" --format json; expect_rc 0; schema scale
    done
done
cf scale --workload llama3-405b --offering crusoe-h100-ib --nodes 1,2,4 --format json; expect_rc 0
expect_json '.[0].unfit_reason' 'does not fit in memory'; schema scale
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --format json
expect_rc 0; schema predict
for c in all_gather reduce_scatter alltoall; do
    cf predict collective --collective $c --bytes 1M --nodes 2 --gpu A100-SXM-80 --gpus-per-node 8 \
        --intra nvswitch-nvlink3 --network roce --nics 8 --nic-gbps 200 --format json; expect_rc 0; schema predict
done
cf predict step --workload llama3-70b --tp 8 --pp 4 --dp 4 --offering aws-p5-48xlarge --format json
expect_rc 0; schema predict-step
cf predict step --workload cfd-stencil --tp 1 --pp 1 --dp 32 --offering aws-p5-48xlarge --format json
expect_rc 0; schema predict-step
cf predict step --workload deepseek-v3 --tp 1 --ep 64 --pp 8 --dp 64 --offering aws-p5-48xlarge --format json
expect_rc 0; schema predict-step
for g in H100-SXM T4; do
    for wl in llama3-405b llama3-8b cfd-stencil deepseek-v3-serve; do
        cf fit --workload "$wl" --gpu "$g" --format json; [ "$RC" = 0 ] || continue; schema fit
    done
done
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --format json; expect_rc 0; schema goodput
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --ckpt-async --storage lustre --format json
expect_rc 0; schema goodput
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --no-failures --format json; expect_rc 0
schema goodput
cf goodput --validate --format json; expect_rc 0; schema goodput
cf validate collectives "$SV/collectives.csv" "$V/collectives-holdout.csv" --format json; expect_rc 0
schema validate-collectives
cf validate training "$SV/training.csv" "$V/training-holdout.csv" --format json; expect_rc 0; schema validate-training
cf validate serving "$V/serving.csv" --format json; expect_rc 0; schema validate-serving
cf validate collectives --cv source "$SV/collectives.csv" --format json; expect_rc 0; schema validate-cv
cf validate training --cv source "$SV/training.csv" --format json; expect_rc 0; schema validate-cv
cf validate refit "$SV/collectives.csv" "$SV/training.csv" --format json; expect_rc 0; schema validate-refit
cf version --format json; expect_rc 0; schema version
# the API's predict document is the tool's
serve_start "$T/serve.log"
curl -sf "$BASE/api/predict/collective?collective=all_reduce&bytes=1G&nodes=2&offering=aws-p5-48xlarge" > "$T/out" ||
    fail "GET /api/predict/collective failed"
OUT=$(cat "$T/out"); schema predict
serve_stop
# The check can fail: a step time that is a string, a row without nodes, a
# version whose constants digest is malformed.
cf scale --workload llama3-70b --offering crusoe-h100-ib --format json
printf '%s' "$OUT" | jq '.[1].step_time_s = "302"' > "$T/bad.json"
! python3 tools/check-json.py scale "$T/bad.json" 2> "$T/e" || fail "a string step time passed"
grep -q 'step_time_s' "$T/e" || fail "the violation is not named: $(cat "$T/e")"
printf '%s' "$OUT" | jq 'map(del(.nodes))' > "$T/bad.json"
! python3 tools/check-json.py scale "$T/bad.json" 2> /dev/null || fail "a row without nodes passed"
cf version --format json
printf '%s' "$OUT" | jq '.model_constants = "x"' > "$T/bad.json"
! python3 tools/check-json.py version "$T/bad.json" 2> /dev/null || fail "a malformed digest passed"
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --format json
printf '%s' "$OUT" | jq '.algo = "bogus"' > "$T/bad.json"
! python3 tools/check-json.py predict "$T/bad.json" 2> /dev/null || fail "an unknown algorithm passed"
# Every command whose --help offers json has a schema named after it, and
# the man page and README name every schema.
for c in list show providers plan scale fabrics goodput fit audit probe recipe version; do
    cf "$c" --help
    grep -q 'json' "$T/out" || continue
    [ -f "docs/schema/$c.schema.json" ] || fail "$c writes JSON but docs/schema/$c.schema.json is missing"
done
for f in docs/schema/*.schema.json; do
    n=$(basename "$f" .schema.json)
    case "$n" in serve-*) continue;; esac
    grep -q "$n" docs/man/99-tail.man || fail "the man page does not name the $n schema"
    grep -q "$n.schema.json" docs/schema/README.md || fail "docs/schema/README.md does not list $n"
    grep -q "docs/schema/" README.md || fail "README does not point to docs/schema/"
done
