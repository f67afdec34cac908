# README "Exit codes" for every command: 0 success, 1 audit failed/invalid,
# 2 usage error (an unknown option or value, a layout or size that cannot
# exist), 3 bad input file (missing, a directory, malformed), 4 internal.
# Each command that reads a file is tried with a missing file and with a
# directory (both 3, never 2 or 4).
W="--gpu H100-SXM"
# workloads named as files: missing or a directory is bad input (3); a bare
# name that is no preset is a usage error (2) naming the presets.
for c in "plan --workload" "fit $W --workload" "scale --offering aws-p5-48xlarge --workload" \
         "predict step --offering aws-p5-48xlarge --tp 8 --pp 1 --dp 1 --workload"; do
    # shellcheck disable=SC2086
    cf $c "$T/missing.json"; expect_rc 3; expect_err "cannot open"
    # shellcheck disable=SC2086
    cf $c "$T"; expect_rc 3; expect_err "Is a directory"
    # shellcheck disable=SC2086
    cf $c no-such-preset; expect_rc 2; expect_err "neither a preset (batch-inference"
done
for c in "audit" "validate collectives" "validate training" "import"; do
    # shellcheck disable=SC2086
    cf $c "$T/missing.csv"; expect_rc 3
    # shellcheck disable=SC2086
    cf $c "$T"; expect_rc 3
done
# a malformed workload file: 3, naming the file.
printf '{"name": "x", "kind": "llm", "shape": ' > "$T/bad.json"
cf plan --workload "$T/bad.json"; expect_rc 3; expect_err "bad.json"
# usage errors, one per command: 2.
for c in "list --network ethernet" "show" "providers --bogus" "import" "predict collective --bytes 1G" \
         "predict step --workload llama3-70b" "fit --workload llama3-70b" "plan --workload llama3-70b --gpu H100-SMX" \
         "scale --workload llama3-70b" "audit --format yaml -" "validate" "serve --port 70000" "fabrics-or-nothing"; do
    # shellcheck disable=SC2086
    cf $c < /dev/null; expect_rc 2
done
# plan's --gpu typo names the accepted GPUs (and ranks nothing).
cf plan --workload llama3-70b --gpu H100-SMX; expect_rc 2; expect_err 'expected one of V100-PCIe'
expect_err 'got "H100-SMX"'
expect_err '(did you mean H100-SXM?)'
cf fit --workload llama3-8b --gpu H10-SXM; expect_rc 2; expect_err "unknown --gpu 'H10-SXM'; did you mean H100-SXM?"
# success: 0.
cf list --gpu H100-SXM; expect_rc 0
cf fit --workload llama3-8b --gpu H100-SXM; expect_rc 0
# an audit whose verdict is failed: 1.
cf audit "$SHARED/cases/05-ib-gdr-disabled-distance-nccl247.txt"; case "$RC" in 0|1) ;; *) fail "audit exit $RC";; esac
