# predict step: usage errors exit 2, a bad workload file exits 3 naming the field.
cf predict step --help; expect_rc 0; expect_out "Usage: clusterfit predict step"
cf predict step --workload llama3-8b --tp 1 --pp 1 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "--dp"
cf predict step --workload llama3-8b --tp 1 --pp 1 --dp 3 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "not a multiple of 8"
cf predict step --workload no-such-preset --tp 1 --pp 1 --dp 8 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "llama3-405b"
printf '{"kind":"llm","shape":{"model":"llama","layers":2,"hidden":0}}' > "$T/my.json"
cf predict step --workload "$T/my.json" --tp 1 --pp 1 --dp 8 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 3; expect_err "my.json: shape.hidden: expected a positive integer"
# Two nodes need a network.
cf predict step --workload llama3-8b --tp 1 --pp 1 --dp 16 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
[ "$RC" != 0 ] || fail "two nodes without a network predicted"
# The layout's bounds and words are the library's (cf_layout_set, limits.h),
# told with the flag's spelling.
S="--workload llama3-8b --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none"
cf predict step $S --tp 4097 --pp 1 --dp 8
expect_rc 2; expect_err "clusterfit predict step: --tp expects an integer from 1 to 4096, got '4097'"
cf predict step $S --tp 1 --pp 1 --dp 8 --micro-batch 65537
expect_rc 2; expect_err "--micro-batch expects an integer from 1 to 65536, got '65537'"
cf predict step $S --tp 1 --pp 1 --dp 1048577
expect_rc 2; expect_err "--dp expects an integer from 1 to 1048576, got '1048577'"
cf predict step $S --tp 1 --pp 1 --dp 8 --zero 4
expect_rc 2; expect_err "--zero expects an integer from 0 to 3, got '4'"
cf predict step $S --tp 1 --pp 1 --dp 8 --recompute sometimes
expect_rc 2; expect_err "unknown --recompute 'sometimes' (accepted: none, selective, full)"
# ... and the largest values are still taken (refused later by the model, for the GPU count).
cf predict step $S --tp 1 --pp 1 --dp 8 --vp 1024 --micro-batch 65536 --zero 3
expect_rc 2; expect_err "--vp 1024 needs pp above 1"
