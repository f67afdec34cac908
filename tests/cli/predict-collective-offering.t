# --offering takes the fabric from the catalog: 4 x p5.48xlarge all_reduce 8 GiB
# was measured at 356.99 GB/s busbw (collectives.csv row c18); the model must
# land within 15 % of it through the catalog path too.
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --format json
expect_rc 0
expect_json .ranks 32
expect_json .bottleneck inter_node
expect_near "$(jq -r .busbw_GBps "$T/out")" 356.99 53.5
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering no-such-offering
expect_rc 2
expect_err "no offering 'no-such-offering'"
cf predict collective --collective all_reduce --bytes 8G --nodes 4 --offering aws-p5-48xlarge --gpu H100-SXM
expect_rc 2
