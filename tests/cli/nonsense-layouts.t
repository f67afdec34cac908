# Layouts and sizes that cannot exist are refused with the real reason
# (exit 2), never predicted: a data-parallel degree above the workload's
# global batch, GPUs per node beyond any board (CF_MAX_GPUS_PER_NODE, 576 =
# NVL576), more nodes than the offering's largest cluster; and `scale` says
# when the batch, not memory, is the limit.
cf predict step --workload llama3-70b --offering aws-p5-48xlarge --tp 8 --pp 1 --dp 100000
expect_rc 2; expect_err "--dp 100000 x micro-batch 1 = 100000 sequences per micro-batch round exceeds the workload's global batch of 512 sequences"
cf predict step --workload llama3-70b --offering aws-p5-48xlarge --tp 8 --pp 1 --dp 128 --micro-batch 8
expect_rc 2; expect_err "exceeds the workload's global batch of 512 sequences"
# within the batch: predicted.
cf predict step --workload llama3-70b --offering aws-p5-48xlarge --tp 8 --pp 1 --dp 64 --format json
expect_rc 0; expect_json_true '.step_time_s > 0'
cf predict step --workload resnet50-dp --offering aws-p5-48xlarge --tp 1 --pp 1 --dp 16384
expect_rc 2; expect_err "exceeds the workload's global batch of 8192 samples"
cf fit --workload llama3-70b --gpu H100-SXM --gpus-per-node 1000
expect_rc 2; expect_err "--gpus-per-node expects an integer from 1 to 576, got '1000'"
cf predict collective --collective all_reduce --bytes 1G --nodes 1 --gpu H100-SXM --gpus-per-node 577 \
    --intra nvswitch-nvlink4 --network none --nics 0 --nic-gbps 0
expect_rc 2; expect_err "from 1 to 576"
# An offering whose largest cluster is stated (Lambda 1-Click Clusters): more
# nodes are refused, by predict step and by scale.
cf show lambda-1cc-h100 --format json; max=$(jq -r .max_cluster_gpus "$T/out")
[ "$max" != null ] || fail "lambda-1cc-h100 states no largest cluster any more: pick another offering"
cf predict step --workload llama3-405b --offering lambda-1cc-h100 --tp 8 --pp 1 --dp "$((max / 8 + 8))"
expect_rc 2; expect_err "--offering lambda-1cc-h100: its largest cluster is $max GPUs"
cf scale --workload llama3-70b --offering lambda-1cc-h100 --nodes 2,1000000 --format json
expect_rc 2; expect_err "its largest cluster is $max GPUs"
# scale: the batch is the limit at a hundred thousand nodes, said so.
cf scale --workload llama3-70b --offering sfcompute-h100-market --nodes 2,100000 --format json
expect_rc 0
expect_json '.[1].unfit_reason' "batch of 512 seqs too small"
expect_json '.[0].unfit_reason' null
cf scale --workload llama3-70b --offering sfcompute-h100-market --nodes 2,100000
expect_rc 0; expect_out "batch of 512 seqs too small"; expect_no_out "does not fit in memory"
# scale on an offering that states no line rate stops at one node and says why.
cf scale --workload llama3-8b --offering lambda-1cc-b200 --format json; expect_rc 0
expect_json 'length' 1
expect_json '.[0].flags | index("network_unknown") != null' true
cf scale --workload llama3-8b --offering lambda-1cc-b200; expect_rc 0
# (it states its network, ib, but not the Gbit/s per node: the note says which)
expect_out "one node only: the offering states its ib network but not its"
