# issue 23: goodput with --ckpt-async on Lustre checkpointed every 39 s
# (Young/Daly fed the milliseconds of a host copy as the checkpoint's cost);
# the input-read figures per node did not reconcile with the totals; and a
# change of a fraction printed as "-1.2%". Now: the async stall is at least
# the blocking part DCP's async_save measured, the interval never below the
# write and its stall, an interruption also loses the async write; the
# input line shows how its per-node figure comes from the totals, in GB/s;
# a gap of two fractions is in percentage points.
stall_min=$(K CKPT_ASYNC_STALL_MIN_S)
[ -n "$stall_min" ] || fail "no CKPT_ASYNC_STALL_MIN_S in constants.def"
cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 128 --ckpt-async --storage lustre --format json
expect_rc 0
expect_json_true ".goodput_detail.checkpoint.stall_s >= $stall_min"
expect_json_true '.goodput_detail.checkpoint.interval_s >= 600'
expect_json_true '.goodput_detail.checkpoint.interval_s >= .goodput_detail.checkpoint.write_s + .goodput_detail.checkpoint.stall_s'
# Daly's optimum on that stall and the job's MTBF, as docs/goodput.md gives it
d=$(jq .goodput_detail.checkpoint.stall_s "$T/out"); m=$(jq '.goodput_detail.failures.job_mtbf_h * 3600' "$T/out")
expect_near "$(jq .goodput_detail.checkpoint.interval_s "$T/out")" \
    "$(calc "sqrt(2 * $d * $m) * (1 + sqrt($d / (2 * $m)) / 3 + $d / (18 * $m)) - $d")" 0.01
expect_json .goodput_detail.checkpoint.interval_from young-daly
# every preset and node count: an async interval is never shorter than its write + stall
for wl in llama3-8b llama3-70b llama3-405b deepseek-v3; do
    for n in 16 64 128; do
        cf goodput --workload "$wl" --offering crusoe-h100-ib --nodes "$n" --ckpt-async --storage lustre --format json
        [ "$RC" = 0 ] || continue
        jq -e '.goodput_detail == null or (.goodput_detail.checkpoint | .interval_s >= .write_s + .stall_s - 1e-6)' \
            "$T/out" > /dev/null || fail "$wl at $n nodes: interval under the write: $(jq -c .goodput_detail.checkpoint "$T/out")"
    done
done
# lost work includes the async write: λu T_wall ((τ+δ)/2 + W)
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --ckpt-async --storage lustre --format json
g=.goodput_detail
expect_near "$(jq "$g.breakdown.lost_work_h" "$T/out")" \
    "$(jq "$g.failures.unexpected * (($g.checkpoint.interval_s + $g.checkpoint.stall_s) / 2 + $g.checkpoint.write_s) / 3600" "$T/out")" 0.001
# Input reads: the per-node figure is the smaller of the node's rate and the
# aggregate's share, in GB/s, and the text says which.
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --storage lustre --format json
expect_json_true "$g.data.read_have_GBps_per_node == ([$g.data.read_node_GBps, $g.data.read_aggregate_GBps / 16] | min)"
# a _gbps key is Gbit/s, 8 x the _GBps one (trial 2026-12-b fault 3)
expect_json_true "($g.data.read_have_gbps_per_node - 8 * $g.data.read_have_GBps_per_node | fabs) < 1e-9"
expect_json_true "($g.data.read_need_gbps_per_node - 8 * $g.data.read_need_GBps_per_node | fabs) < 1e-9"
agg=$(jq "$g.data.read_aggregate_GBps" "$T/out"); have=$(jq "$g.data.read_have_GBps_per_node" "$T/out")
cf goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16 --storage lustre; expect_rc 0
expect_text "GB/s per node available (the file system's $agg GB/s read in all / 16 nodes"
expect_text "$(printf '%.3g' "$have") GB/s per node available"
# The validation gap: points for fractions, percent for GPU-hours.
cf goodput --validate --format json; expect_rc 0
expect_json_true '[.[] | select(.what == "effective_training_time") | (.gap_pp | type) == "number" and .gap_pct == null] | all'
expect_json_true '[.[] | select(.what == "gpu_hours") | (.gap_pct | type) == "number" and .gap_pp == null] | all'
pp=$(jq '.[] | select(.what == "effective_training_time") | 100 * (.with_goodput - .published)' "$T/out" | head -n 1)
cf goodput --validate; expect_rc 0
expect_out "$(printf '%+.1f pp' "$pp")"
grep ' effective  ' "$T/out" | grep -q '%$' && fail "the effective-time gap is printed as a percentage"
true
