# Per-rank NCCL log files of one job (NCCL_DEBUG_FILE=...%h.%p) are one run:
# files join when they share a communicator id, or show disjoint ranks of one
# communicator size with the same NCCL version. Logs of unrelated jobs stay
# apart, and a log of rank 0 only does not make a single-node run.
cat > "$T/rank0.log" <<'L'
node01:980:1265 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
node01:980:1265 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:192.0.2.1<0>
node01:980:1265 [0] NCCL INFO Using network IB
node01:980:1265 [0] NCCL INFO comm 0x55986b8b8560 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5ae77eb5ea4ec1ee - Init START
node01:980:1265 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA
node01:980:1265 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA
L
sed -e 's/node01:980:1265/node02:4711:4790/' -e 's/rank 0 nranks/rank 1 nranks/' -e 's#NET/IB/0/GDRDMA#NET/IB/0#' \
    -e 's/1\[0\] -> 0\[0\] \[receive\]/0[0] -> 1[0] [receive]/' "$T/rank0.log" > "$T/rank1.log"
cf audit --format json "$T/rank0.log" "$T/rank1.log"; expect_rc 0
expect_json '[.runs, .ranks, .nodes, .gdr] | tostring' '[1,2,2,"partial"]'
expect_json '[.findings[].code] | index("GDR_PARTIAL") != null' true
# without commId (older NCCL): disjoint ranks of one size, same version
sed -i 's/ commId 0x5ae77eb5ea4ec1ee//' "$T/rank0.log" "$T/rank1.log"
cf audit --format json "$T/rank0.log" "$T/rank1.log"
expect_json '[.runs, .gdr] | tostring' '[1,"partial"]'
# rank 0's log alone: one host seen of two ranks is not a single node
cf audit --format json "$T/rank0.log"
expect_json '[.runs, .ranks, .nodes, .network, .gdr] | tostring' '[1,2,null,"ib","on"]'
grep 'NCCL INFO' "$SHARED"/cases/24-*.txt > "$T/r0-24.log"
cf audit --format json "$T/r0-24.log"
expect_json '[.nodes, .network] | tostring' '[null,"ib"]'
# two unrelated jobs (05: IB GDR off by distance; 22: IB GDR on, forced) stay two runs
cf audit --format json "$SHARED"/cases/05-*.txt "$SHARED"/cases/22-*.txt; expect_rc 0
expect_json '[.runs, (.run_facts | map(.gdr))] | tostring' '[2,["off","on"]]'
expect_json '[.findings[].code] | (index("GDR_DISABLED") != null and index("GDR_FORCED") != null and index("GDR_PARTIAL") == null)' true
