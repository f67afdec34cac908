# fabrics and scale answer the same question the same way: on the hardware
# of crusoe-h100-ib (8 x 400G InfiniBand, non-blocking and rail-optimized as
# the catalog states), llama3-70b at 256 nodes takes the same time to train
# with the same global batch (both grow the batch with the cluster up to the
# workload's batch_max; fabrics once did not). fabrics grows it on ib, its
# first family, and runs every other family at that batch, so the ib row is
# scale's answer and the others the same job on another fabric.
cf scale --workload llama3-70b --offering crusoe-h100-ib --nodes 256 --format json; expect_rc 0
t_scale=$(jq '.[0].time_to_train_h' "$T/out"); b_scale=$(jq '.[0].global_batch_seqs' "$T/out")
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 256 --nics 8 --nic-gbps 400 \
    --non-blocking yes --rail-optimized yes --format json; expect_rc 0
expect_json '.fabrics[0].network' ib
expect_json '.fabrics[0].global_batch_seqs' "$b_scale"
expect_near "$(jq ".fabrics[0].time_to_train_h" "$T/out")" "$t_scale" 0.01
expect_json '[.fabrics[].global_batch_seqs | . == '"$b_scale"'] | all' true
