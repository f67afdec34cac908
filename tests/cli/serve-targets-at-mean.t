# New-user trial: the workload states "percentile": 90 but the answer said
# "targets met at the mean". The model has no request-length distribution or
# queueing spread (docs/model-serve.md "Not modelled"), so the assumes line
# says plainly that the targets are checked at the mean and the workload's
# percentile is not modelled, in the text and the JSON of plan and fabrics.
p=$(jq '.targets.percentile' "$ROOT/data/workloads/deepseek-v3-serve.json")
[ "$p" != null ] || fail "the preset states no percentile"
cf plan --workload deepseek-v3-serve --top 3 --format json; expect_rc 0
expect_json_true "any(.assumes[]; contains(\"the targets are checked at the mean: the workload's p$p is not modelled\"))"
expect_json_true 'all(.assumes[]; contains("targets met at the mean") | not)'
cf plan --workload deepseek-v3-serve --top 3; expect_rc 0
expect_text "the targets are checked at the mean: the workload's p$p is not modelled"
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 8 --format json; expect_rc 0
expect_json_true "any(.assumes[]; contains(\"the workload's p$p is not modelled\"))"
# a workload that states no percentile: at the mean, no percentile named
jq 'del(.targets.percentile) | .name = "ds-nop"' "$ROOT/data/workloads/deepseek-v3-serve.json" > "$T/nop.json"
cf plan --workload "$T/nop.json" --top 3 --format json; expect_rc 0
expect_json_true 'any(.assumes[]; endswith("the targets are checked at the mean"))'
# (the TPOT band line names its own p10-p90; no line names the workload's percentile)
expect_json_true 'all(.assumes[]; test("p[0-9]+ is not modelled") | not)'
