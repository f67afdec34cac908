# predict: --help, usage errors (exit 2) naming what was wrong.
cf predict --help; expect_rc 0; expect_out "Usage: clusterfit predict collective"
cf predict collective --help; expect_rc 0; expect_out "--ranks-per-node"
cf predict; expect_rc 2
cf predict nothing; expect_rc 2; expect_err "unknown kind 'nothing'"
cf predict collective --collective all_reduce --bytes 8G; expect_rc 2; expect_err "--nodes"
cf predict collective --collective allreduce --bytes 8G --nodes 1 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "unknown --collective 'allreduce'"; expect_err "all_reduce"
cf predict collective --collective all_reduce --bytes 8G --nodes 1 --gpu H999 \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "unknown --gpu 'H999'"; expect_err "H100-SXM"
cf predict collective --collective all_reduce --bytes lots --nodes 1 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "--bytes"
cf predict collective --collective all_reduce --bytes 8G --nodes 2 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "needs a network"
cf predict collective --collective all_reduce --bytes 8G --nodes 2 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib
expect_rc 2; expect_err "--nics"
cf predict collective --collective all_reduce --bytes 8G --nodes 1 --gpu A100-SXM-80 \
    --gpus-per-node 8 --intra nvswitch-nvlink3 --network none --algo nvls
expect_rc 2; expect_err "cannot run --algo nvls"
cf predict collective --collective all_reduce --bytes 8G --nodes 1 --gpu H100-SXM \
    --gpus-per-node 8 --intra nvswitch-nvlink4 --network none --format csv
expect_rc 2; expect_err "--format"
