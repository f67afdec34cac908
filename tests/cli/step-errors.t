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
