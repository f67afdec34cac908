# predict collective: JSON fields of DESIGN §6, hand-checked values, text output.
# 8 GiB all_reduce forced to ring across 2 H100 nodes with 8x200G IB: the ring
# is bound by the node's NICs, 8 x 25 GB/s x ETA_IB (176 GB/s at 0.88; below
# NVLink's 360), less the latency term (LAT_BASE_RING_SIMPLE + 28 NVLink and 2
# network steps + LAT_LAUNCH = 136.6 us) and the network pipeline fill (8 NICs
# x NET_WINDOW_PER_NIC = 67108864 B at 176 GB/s = 381 us) of ~92.0 ms: busbw
# 175.01 at this fit (179.0 at ETA_IB 0.90).
LAT=$(calc "$(K LAT_BASE_RING_SIMPLE) + 28 * $(K LAT_NVL_RING_SIMPLE) + 2 * $(K LAT_NET_RING_SIMPLE) + $(K LAT_LAUNCH)")
BW=$(calc "200 * $(K ETA_IB) * 1000")
RING=$(calc "8589934592 * 1.875 / ((8589934592 * 1.875 + 8 * $(K NET_WINDOW_PER_NIC)) / $BW + $LAT) / 1000")
cf predict collective --collective all_reduce --bytes 8G --nodes 2 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 200 \
    --algo ring --format json
expect_rc 0
expect_json .collective all_reduce
expect_json .message_bytes 8589934592
expect_json .nodes 2
expect_json .ranks 16
expect_json .algo ring
expect_json .bottleneck inter_node
expect_near "$(jq -r .busbw_GBps < "$T/out")" "$RING" 0.001
# algbw = S / t and busbw = algbw x 2(n-1)/n (nccl-tests)
expect_json_true '((.message_bytes / (.time_us * 1000)) - .algbw_GBps | fabs) < 0.01'
expect_json_true '((.algbw_GBps * 2 * 15 / 16) - .busbw_GBps | fabs) < 0.01'

# auto on the same fabric picks NVLSTree at 2 nodes: bounded by one node's NVLS (~450-480).
cf predict collective --collective all_reduce --bytes 8G --nodes 2 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network infiniband --nics 8 --nic-gbps 400 --format json
expect_rc 0
expect_json .algo nvlstree
expect_json .bottleneck intra_node
expect_json_true '.busbw_GBps > 440 and .busbw_GBps < 490'

# One node, 1 MiB: latency-bound (c04 of the validation file measured 52.96 GB/s).
cf predict collective --collective all_reduce --bytes 1M --nodes 1 --gpu H200-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 0
expect_out "bottleneck     latency"
expect_out "algo           nvls"

# A DP group under TP = 8: one rank per node reaches one 400G NIC (50 GB/s x eta).
cf predict collective --collective all_reduce --bytes 1G --nodes 4 --ranks-per-node 1 \
    --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 \
    --nic-gbps 400 --format json
expect_rc 0
expect_json .ranks 4
expect_json_true '.busbw_GBps < 50'
