# extra.sh — facts of the audit's own cases that expect.tsv has no column
# for (tests/data/cases/INDEX.md states them in words); sourced by
# tests/cases/run.sh, which defines extra and extra_with.
# r01: one HCA for 8 ranks per node; the node's NIC count not shown; not judged
extra nics r01 '.nics_used == 1 and .node_nics == null and .bandwidth_judged == false and (.bandwidth_not_judged_reason | test("link rate")) and ([.findings[] | select(.code == "NICS_UNUSED") | .message][0] | test("NCCL_IB_HCA=mlx5_0"))'
# r01 with the offering's 8 x 400G: 1 of 8, far below
extra_with offering r01 "--offering coreweave-hgx-h100" '.status == "failed" and .node_nics == 8 and ([.findings[] | select(.code == "NICS_UNUSED") | .message][0] | test("1 of the 8 NICs")) and ([.findings[].code] | index("BUSBW_FAR_BELOW_LINK_RATE")) != null'
# r02: ibstat shows 8 Active 400G ports: expected is the node's, ~357 GB/s
extra nics r02 '.nics_used == 1 and .node_nics == 8 and .node_nics_source == "ibstat" and .bandwidth_judged == true and .expected_busbw_GBps > 300 and ([.findings[] | select(.code == "NICS_UNUSED") | .line][0]) == 70'
