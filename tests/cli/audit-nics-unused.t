# Issue 11: the single-HCA misconfiguration (tests/data/cases r01/r02, a
# reconstruction): NICS_UNUSED with the counts and the NCCL_IB_HCA line,
# with and without the node's ibstat, and BUSBW_FAR_BELOW_LINK_RATE once the
# node's NICs are known (ibstat or --offering). Text and JSON agree.
C=$ROOT/tests/data/cases
cf audit "$C"/r01-recon-single-hca-h100-2node.txt; expect_rc 0
expect_text "verdict: warning"
expect_text "NICS_UNUSED: NCCL uses 1 NIC(s) for the 8 ranks of each node; NCCL_IB_HCA=mlx5_0 (r01-recon-single-hca-h100-2node.txt:70) restricts it"
expect_text "nics: NCCL uses 1 NIC(s); the node's NIC count not shown"
# no NIC rate in the input: judged against the default node of the GPU and
# node size (issue 23), said as an assumption, and a warning, not an error
expect_text "assumes: the input does not show the node's NIC rate: assumed 8 x 400 Gb/s"
expect_text "BUSBW_BELOW_LINK_RATE"
expect_no_out "BUSBW_FAR_BELOW_LINK_RATE"
cf audit --format json "$C"/r01-recon-single-hca-h100-2node.txt
expect_json '[.bandwidth_judged, .nics_used, .node_nics, .expected_source] | tostring' '[true,1,null,"default"]'
expect_json '.expected_assumes | test("--expect-gbps N")' true
# the node's ibstat beside the log: 1 of 8, the node's rate, an error
cf audit "$C"/r02-recon-single-hca-h100-2node-ibstat.txt; expect_rc 1
expect_text "verdict: failed"
expect_text "NCCL uses 1 of the 8 NICs a node has (ibstat at r02-recon-single-hca-h100-2node-ibstat.txt:430)"
# expected: the model's prediction for 2 x 8 H100 on the ports' 8 x 400G at 8 GiB, as
# `predict collective` gives it (NVLSTree, issue 20; it was the ring's 357.42 before)
expect_text "error   BUSBW_FAR_BELOW_LINK_RATE: busbw 44.48 GB/s at the largest size is 10 % of the 447.41 GB/s expected"
expect_text "nics: NCCL uses 1 of the node's 8 NICs (ibstat)"
expect_no_out "bandwidth: not"
cf audit --format json "$C"/r02-recon-single-hca-h100-2node-ibstat.txt
expect_json '[.bandwidth_judged, .bandwidth_not_judged_reason, .nics_used, .node_nics, .node_nics_source] | tostring' '[true,null,1,8,"ibstat"]'
# the offering's 8 x 400G instead of the ibstat
cf audit --offering coreweave-hgx-h100 --format json "$C"/r01-recon-single-hca-h100-2node.txt; expect_rc 1
expect_json '[.status, .node_nics, .node_nics_source, .expected_source] | tostring' '["failed",8,"offering","offering"]'
expect_json '[.findings[].code] | sort | tostring' '["BUSBW_FAR_BELOW_LINK_RATE","NICS_UNUSED"]'
# --expect-gbps gives the rate, not the NIC count: judged, no N of M
cf audit --expect-gbps 3200 --format json "$C"/r01-recon-single-hca-h100-2node.txt
expect_json '[.bandwidth_judged, .node_nics] | tostring' '[true,null]'
