# Where a collective runs, in words: a GB200 node is 4 GPUs of a 72-GPU
# NVLink domain (intra_link nvl72), so DeepSeek-V3's all-to-all over EP64
# runs "within the NVLink domain (nvl72)", not "within the node (nvl72)"
# (the trial's finding); and scale's legend names EP (the DeepSeek-V3 rows
# show EP64).
cf plan --workload deepseek-v3 --gpu GB200 --format json; expect_rc 0
expect_json_true '[.ranked[] | select(.offering_id == "coreweave-gb200-nvl72") | .why | contains("over EP64) within the NVLink domain (nvl72)")] | .[0]'
expect_json_true '[.ranked[] | .why | contains("within the node (nvl72)")] | any | not'
cf scale --workload deepseek-v3 --offering coreweave-gb200-nvl72; expect_rc 0
expect_out "EP64"
expect_out "layout: TP, PP (v2 = interleaved), CP, EP (experts), DP degrees;"
# No row of this curve shows ETP, so the legend does not name it.
expect_no_out "ETP"
# An 8-GPU H100 node: an EP8 group fits the node, and the words stay "within the node".
cf plan --workload mixtral-8x7b --gpu H100-SXM --format json; expect_rc 0
expect_json_true '[.ranked[] | .why | contains("within the NVLink domain")] | any | not'
