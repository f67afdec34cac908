# A one-node question needs no inter-node fabric. lambda-od-8x-h100 (data/
# offerings: 8 x H100, network and line rate not stated) answers for one node
# (tp*pp*dp*cp = 8 = gpus_per_node) and refuses two with a clear message.
cf predict step --offering lambda-od-8x-h100 --workload llama3-8b --tp 1 --pp 1 --dp 8 --zero 3 --format json
expect_rc 0
# One node: no exposed data-parallel traffic over a network, only NVLink.
expect_json_true '.step_time_s > 0'
expect_json '.breakdown.pp_bubble_s' 0; expect_json .fits_memory true
cf predict step --offering lambda-od-8x-h100 --workload llama3-8b --tp 1 --pp 1 --dp 16 --zero 3
expect_rc 2; expect_err "2 nodes need the network between them"; expect_err "lambda-od-8x-h100"
cf predict collective --offering lambda-od-8x-h100 --nodes 1 --collective all_reduce --bytes 1G --format json
expect_rc 0; expect_json .nodes 1; expect_json .bottleneck intra_node
cf predict collective --offering lambda-od-8x-h100 --nodes 2 --collective all_reduce --bytes 1G
expect_rc 2; expect_err "2 nodes need the network between them"
# scale: by default only one node (the cluster cannot grow without a network).
cf scale --offering lambda-od-8x-h100 --workload llama3-8b --format json
expect_rc 0; expect_json length 1; expect_json '.[0].nodes' 1; expect_json '.[0].scaling_efficiency' 1
cf scale --offering lambda-od-8x-h100 --workload llama3-8b --nodes 1 --format json
expect_rc 0; expect_json '.[0].nodes' 1
cf scale --offering lambda-od-8x-h100 --workload llama3-8b --nodes 1,2
expect_rc 2; expect_err "network or its line rate unknown"
# llama3-70b needs more than one node of H100: the network matters, error.
cf scale --offering lambda-od-8x-h100 --workload llama3-70b
expect_rc 2; expect_err "does not fit on one node"
