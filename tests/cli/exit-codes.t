# Ordinary situations are not internal errors (exit 4): an offering that
# lacks a fact the model needs, a --db that is a directory. Error messages
# list only values the option accepts.
printf 'id,provider,offering,gpu,gpus_per_node,network,network_gbps_per_node,multinode,source_url,as_of\nx-pod,TestX,Pod of 1-8 GPUs,H100-SXM,,tcp,0.1,no,https://example.com/x,2026-11\nx-cluster,TestX,Cluster,H100-SXM,8,,3200,yes,https://example.com/x,2026-11\n' > "$T/x.csv"
cf import "$T/x.csv"; expect_rc 0
# gpus_per_node unknown (as RunPod's pods, "1-8 GPUs per pod"): exit 2.
cf predict collective --collective all_reduce --bytes 1G --nodes 1 --offering x-pod; expect_rc 2
expect_err "gpus_per_node unknown"
# fabric unknown: exit 2 too.
cf predict collective --collective all_reduce --bytes 1G --nodes 2 --offering x-cluster; expect_rc 2
expect_err "network or its line rate unknown"
# A directory as the catalog.
cf --db "$T" list; expect_rc 2; expect_err "is a directory"
# The accepted values, without unknown where unknown is not accepted.
cf predict collective --collective unknown --bytes 1G --nodes 1 --offering x-cluster; expect_rc 2
expect_err "accepted: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, gather, scatter, sendrecv, hypercube)"
! grep -q "unknown)" "$T/err" || fail "lists unknown among the accepted collectives"
cf predict collective --collective all_reduce --bytes 1G --nodes 2 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network unknown --nics 8 --nic-gbps 400
expect_rc 2; expect_err "accepted: ib, roce, efa, tcpx, tcpxo, tcp, rdma, none)"
cf predict collective --collective all_reduce --bytes 1G --nodes 2 --gpu H100-SXM --gpus-per-node 8 --intra unknown --network ib --nics 8 --nic-gbps 400
expect_rc 2; ! grep -q "unknown)" "$T/err" || fail "lists unknown among the accepted links"
# Where unknown is a value (a state, a filter), it is listed.
cf predict collective --collective all_reduce --bytes 1G --nodes 2 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400 --gdr maybe
expect_rc 2; expect_err "accepted: on, off, partial, na, unknown)"
cf list --network ethernet; expect_rc 2; expect_err "rdma, none, unknown (or infiniband for ib)"
