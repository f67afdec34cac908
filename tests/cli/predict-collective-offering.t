# --offering takes the fabric from the catalog: 4 x p5.48xlarge all_reduce 8 GiB
# was measured at 356.99 GB/s busbw (collectives.csv row c18); the model must
# land within 15 % of it through the catalog path too.
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --format json
expect_rc 0
expect_json .ranks 32
# the ring's two bounds: the NICs' 400 x (ETA_EFA - ETA_DECAY_CROSS_RAIL_PER_DOUBLING x
# log2(4/2)) (the catalog states non-blocking, not rail-optimized) and NVLink's 450 x
# NVLINK_RING_EFF; the lower one names the bottleneck, intra_node on a tie (at this fit
# both are 360 GB/s: 0.91 - 0.01 = 0.90, so intra_node; inter_node at ETA_EFA 0.89)
B=$(calc "400 * ($(K ETA_EFA) - $(K ETA_DECAY_CROSS_RAIL_PER_DOUBLING)) < 450 * $(K NVLINK_RING_EFF)")
case "$B" in 1) B=inter_node;; 0) B=intra_node;; *) fail "constants not read";; esac
expect_json .bottleneck "$B"
expect_near "$(jq -r .busbw_GBps "$T/out")" 356.99 53.5
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering no-such-offering
expect_rc 2
expect_err "no offering 'no-such-offering'"
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --gpu H100-SXM
expect_rc 2
