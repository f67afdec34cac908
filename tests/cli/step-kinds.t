# predict step for the other workload kinds: data-parallel, stencil, embarrassingly parallel.
FAB="--gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400"
cf predict step --workload resnet50-dp --tp 1 --pp 1 --dp 8 $FAB --format json
expect_rc 0; expect_json_true '.step_time_s > 0 and .tflops_per_gpu > 0'
cf predict step --workload resnet50-dp --tp 1 --pp 1 --dp 64 $FAB --format json
expect_rc 0; expect_json_true '.breakdown.dp_comm_exposed_s > 0'
# batch-inference: 4096 tasks of 600 s on 64 GPUs = 64 waves, 120 s start-up,
# straggler 0.15 x 600 x sqrt(2 ln 64) = 258.0 s.
cf predict step --workload batch-inference --tp 1 --pp 1 --dp 64 $FAB --format json
expect_rc 0
expect_near "$(jq .step_time_s "$T/out")" 38779.57 0.05
expect_json .tflops_per_gpu null
# A layout with tp > 1 does not apply to a stencil.
cf predict step --workload cfd-stencil --tp 2 --pp 1 --dp 4 $FAB
expect_rc 2
