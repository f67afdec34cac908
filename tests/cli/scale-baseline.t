# scale: E is always stated against its baseline N0, even when --nodes leaves
# N0 out. llama3-8b fits one node of 8 x H100 (fit-presets.t), so N0 = 1.
cf scale --workload llama3-8b --offering nebius-h100-cluster --nodes 1 --format json
expect_rc 0; THR1=$(jq '.[0].throughput' "$T/out")
cf scale --workload llama3-8b --offering nebius-h100-cluster --nodes 2,4 --format json
expect_rc 0
expect_json '[.[].n0] | unique' '[
  1
]'
# n0_throughput is the 1-node row's throughput, and E = thr / (N x thr(N0)).
expect_near "$(jq '.[0].n0_throughput' "$T/out")" "$THR1" 0.001
expect_json_true '[.[] | (.scaling_efficiency - .throughput / (.nodes * .n0_throughput)) | fabs < 1e-9] | all'
cf scale --workload llama3-8b --offering nebius-h100-cluster --nodes 2,4
expect_rc 0; expect_out "relative to N0 = 1 node"
tr '\n' ' ' <"$T/out" | grep -q "fits: $(printf '%.0f' "$THR1" | sed 's/\(.*[0-9]\)\([0-9]\{3\}\)$/\1,\2/') tokens/s" \
    || fail "the baseline throughput $THR1 is not stated"
# No row shows "-", so no footnote about it.
expect_no_out "- : no layout"
# llama3-70b does not fit one node: the 1-node row shows "-" and the footnote.
cf scale --workload llama3-70b --offering nebius-h100-cluster --nodes 1,2
expect_rc 0; expect_out "- : no layout"; expect_out "does not fit in memory"
expect_out "relative to N0 = 2 nodes"
