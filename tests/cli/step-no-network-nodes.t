# predict step on several nodes without a network between them: refused
# with the step's own node count (16 here), not the size of the first
# communicator that crosses nodes (the pipeline's send/recv, 2 nodes).
cf predict step --workload llama3-70b --tp 8 --pp 4 --dp 4 --gpu H100-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network none
expect_rc 2
expect_err "clusterfit predict step: nodes 16 needs a network between the nodes; the fabric's network is none (for several nodes: ib, roce"
! grep -q "nodes 2 " "$T/err" || fail "the refusal names a communicator's 2 nodes"
# No flag of its own: the command has no --nodes.
! grep -q -- "--nodes" "$T/err" || fail "the refusal names --nodes, which predict step lacks"
# NVL72: 36 trays are two racks, named as such.
cf predict step --workload llama3-70b --tp 4 --pp 1 --dp 36 --gpu GB200 --gpus-per-node 4 --intra nvl72 --network none
expect_rc 2
expect_err "nodes 36 (2 NVLink domains) needs a network between the nodes"
# The same 16 nodes with a network are predicted.
cf predict step --workload llama3-70b --tp 8 --pp 4 --dp 4 --gpu H100-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400 --format json
expect_rc 0
expect_json_true '.step_time_s > 0 and .breakdown.pp_comm_s > 0'
