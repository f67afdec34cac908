# predict step's text: throughput in the workload's unit (tokens/s for an
# LLM, samples/s, cell updates/s, tasks/s), the layout in words, P, memory
# against the GPU, and the breakdown; lines within 80 columns. The numbers
# are the JSON's.
a="--workload llama3-70b --tp 8 --pp 4 --dp 4 --offering aws-p5-48xlarge"
cf predict step $a --format json; expect_rc 0
tps=$(jq -r '.tokens_per_s | round' "$T/out")
# For an LLM the ideal step is the compute term (DESIGN §4.1 P).
expect_json_true '((.parallel_efficiency - .breakdown.compute_s / .step_time_s) | fabs) < 1e-9'
p=$(jq -r '.parallel_efficiency * 100 | round | . / 100' "$T/out")
[ -n "$p" ] && [ "$p" != null ] || fail "no parallel_efficiency"
cf predict step $a; expect_rc 0
tpsg=$(echo "$tps" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
expect_out "llama3-70b on 16 nodes of 8 x H100-SXM (128 GPUs)"
expect_out "layout               TP8 PP4 DP4 with no recompute"
expect_out "                     micro-batch 1, sequence parallel"
expect_out "throughput           $tpsg tokens/s ("
expect_out "parallel efficiency  $p"
expect_out "GiB of 74.5 GiB"
expect_out "breakdown (s)        compute"
awk 'length > 80 { exit 1 }' "$T/out" || fail "a line is wider than 80 columns"
# The parts of the breakdown in the step's own precision (no lone 0.009376
# beside a 63.37 s step), and the ideal step named as such.
dec=$(awk '/^step time/ { split($3, a, "."); print length(a[2]) }' "$T/out")
[ "$(sed -n '/^breakdown/,$p' "$T/out" | grep -o '[0-9][0-9]*\.[0-9]*' | awk -F. '{ print length($2) }' | sort -u)" = "$dec" ] ||
    fail "breakdown parts not in the step's $dec decimals"
expect_out "the step would take"
cf predict step --workload resnet50-dp --tp 1 --pp 1 --dp 16 --offering aws-p5-48xlarge; expect_rc 0
expect_out "samples/s"; expect_out "layout               DP16"
cf predict step --workload cfd-stencil --tp 1 --pp 1 --dp 16 --offering aws-p5-48xlarge; expect_rc 0
expect_out "cell updates/s"
cf predict step --workload batch-inference --tp 1 --pp 1 --dp 16 --offering aws-p5-48xlarge; expect_rc 0
expect_out "tasks/s"; expect_out "job time"
# fit: the layout in words and the memory against the GPU.
cf fit --workload llama3-405b --gpu H100-SXM --format json; expect_rc 0
n=$(jq .min_nodes "$T/out"); g=$(jq '.min_nodes * 8' "$T/out")
cf fit --workload llama3-405b --gpu H100-SXM; expect_rc 0
expect_out "does not fit one node of 8 x H100-SXM; minimum $n nodes"
expect_out "layout on $n nodes ($g GPUs): TP"
expect_text "with ZeRO-3 and full recompute, micro-batch 1"   # the line wraps at 80 columns
expect_out "(the GPU has 80 GB = 74.5 GiB)"
