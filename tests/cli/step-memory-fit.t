# predict step says when a layout does not fit in the GPU's memory (DESIGN §4.3).
# data/gpus.csv gives the vendor's GB (10^9 B): an H100 SXM "80 GB" offers
# 80e9 / 2^30 = 74.5 GiB. Llama 3 70B with tp 8 and no ZeRO keeps 16 B of model
# state per parameter on each GPU: 70.55e9 / 8 x 16 B = 131.4 GiB before any
# activation, so it cannot fit; with zero 1 over dp 8, full recompute and pp 4
# (4 nodes) it does.
cf predict step --workload llama3-70b --tp 8 --pp 1 --dp 1 --gpu H100-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network none --format json
expect_rc 0
expect_json .fits_memory false
expect_json_true '.memory_per_gpu_gib > 131.4'
need=$(jq -r '.memory_per_gpu_gib * 10 | round / 10' < "$T/out")

cf predict step --workload llama3-70b --tp 8 --pp 1 --dp 1 --gpu H100-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network none
expect_rc 0
expect_out "does not fit: $need GiB needed per GPU, 74.5 GiB available"

# A layout that fits: true, and no such line.
cf predict step --workload llama3-70b --tp 8 --pp 4 --dp 1 --zero 1 --recompute full \
    --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400 \
    --format json
expect_rc 0
expect_json .fits_memory true
expect_json_true '.memory_per_gpu_gib <= 74.5'
cf predict step --workload llama3-70b --tp 8 --pp 4 --dp 1 --zero 1 --recompute full \
    --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400
expect_rc 0
expect_no_out "does not fit"

# A GPU with more memory: H200 "141 GB" = 131.3 GiB, still short of 131.4 GiB of state.
cf predict step --workload llama3-70b --tp 8 --pp 1 --dp 1 --gpu H200-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network none
expect_rc 0
expect_out "GiB needed per GPU, 131.3 GiB available"
