# An MPI stencil runs ranks, not data-parallel replicas (issue 9): plan and
# scale JSON rows carry ranks with dp null, text shows "N ranks", and the why
# line names no MFU (a stencil's FLOPs run on the SIMT cores).
cf plan --workload cfd-stencil --format json
expect_rc 0
expect_json_true '[.ranked[] | .dp == null and .ranks == .gpus] | all'
expect_json_true '[.ranked[] | .why | test("MFU") | not] | all'
cf plan --workload cfd-stencil
expect_rc 0
expect_out " ranks "
cf scale --workload cfd-stencil --offering aws-p5-48xlarge --format json
expect_rc 0
expect_json_true '[.[] | select(.layout != null) | .layout.dp == null and .layout.ranks == .nodes * 8] | all'
cf scale --workload cfd-stencil --offering aws-p5-48xlarge
expect_rc 0
expect_out "16 ranks"
cf predict step --workload cfd-stencil --tp 1 --pp 1 --dp 16 --offering aws-p5-48xlarge
expect_rc 0
expect_out "layout               16 ranks"
grep -q "^MFU" "$T/out" && fail "a stencil shows an MFU"
# An LLM keeps its DP degree.
cf plan --workload llama3-8b --format json
expect_rc 0
expect_json_true '[.ranked[] | (.dp | type) == "number"] | all'
