# Trial 2026-12-b fault 1: NCCL's "NET/IB : Using [0]mlx5_0:1/RoCE
# [1]mlx5_2:1/IB" names a RoCE port in an IB run; the node's ibstat shows
# both Active. The node's count and the used count are one story: a port
# NCCL names counts whatever its link layer, and when the node evidence
# shows fewer than NCCL names, the larger wins with NIC_COUNT_CONFLICT.
# The expected busbw adds up at most one NIC per GPU (1 GPU per node here).
F=$(ls "$ROOT"/tests/data/shared/cases/24-*-topo-ibstat.txt)
cf audit --format json "$F"; expect_rc 0
expect_json '[.node_nics, .nics_used, .nics_counted, .node_nics_source] | tostring' '[2,2,1,"ibstat"]'
expect_json '[.findings[] | select(.code == "NIC_COUNT_CONFLICT")] | length' 0
# never "N of the node's M" with N > M
expect_json '.node_nics >= .nics_used' true
# the expected busbw: the model's prediction on the one 200 Gb/s port the
# GPU drives (the same as --expect-gbps 200 gives)
E=$(jq -r .expected_busbw_GBps "$T/out")
cf audit --format json --expect-gbps 200 "$F"
expect_json .expected_busbw_GBps "$E"
cf audit "$F"
expect_text "nics: NCCL uses 2 of the node's 2 NICs (ibstat); expected busbw counts 1"
# the same input with mlx5_0's port dumped Down: ibstat shows 1 usable NIC,
# NCCL names 2: the count is 2, and a finding says the sources disagree
awk '/^CA .mlx5_0./{d=1} /^CA .mlx5_1./{d=0} d && /State: Active/{sub("Active","Down")} {print}' "$F" > "$T/down.txt"
cf audit --format json "$T/down.txt"
expect_json '[.node_nics, .nics_used] | tostring' '[2,2]'
expect_json '[.findings[] | select(.code == "NIC_COUNT_CONFLICT")][0].message | test("names 2 NICs but ibstat .* shows 1 usable")' true
cf audit "$T/down.txt"
expect_text "nics: NCCL uses 2 of the node's 2 NICs"
expect_text "NIC_COUNT_CONFLICT"
