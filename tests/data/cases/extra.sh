# extra.sh — facts of the audit's own cases that expect.tsv has no column
# for (tests/data/cases/INDEX.md states them in words); sourced by
# tests/cases/run.sh, which defines extra and extra_with.
# r01: one HCA for 8 ranks per node; the node's NIC count not shown: judged
# against the default node of the GPU and node size, stated as an assumption
extra nics r01 '.nics_used == 1 and .node_nics == null and .bandwidth_judged == true and .expected_source == "default" and (.expected_assumes | test("assumed 8 x 400 Gb/s")) and ([.findings[] | select(.code == "NICS_UNUSED") | .message][0] | test("NCCL_IB_HCA=mlx5_0"))'
# r01 with the offering's 8 x 400G: 1 of 8, far below
extra_with offering r01 "--offering coreweave-hgx-h100" '.status == "failed" and .node_nics == 8 and ([.findings[] | select(.code == "NICS_UNUSED") | .message][0] | test("1 of the 8 NICs")) and ([.findings[].code] | index("BUSBW_FAR_BELOW_LINK_RATE")) != null'
# r02: ibstat shows 8 Active 400G ports: expected is the node's, ~357 GB/s
extra nics r02 '.nics_used == 1 and .node_nics == 8 and .node_nics_source == "ibstat" and .bandwidth_judged == true and .expected_busbw_GBps > 300 and ([.findings[] | select(.code == "NICS_UNUSED") | .line][0]) == 70'
# c01: no Rank lines, busbw 0.00 with large algbw, sizes start over: built without MPI
extra nonmpi c01 '([.findings[] | select(.code == "SINGLE_RANK_RUNS") | .message][0] | test("busbw is 0.00 on every row"))'
# c02: the INFO return code of the disabled IBext net is not an error; loopback only: one node
extra loopback c02 '.nodes == 1 and .network == "none"'
# c03: EFA users are not told to run ib_write_bw; the fallback action is EFA's
extra efa-action c03 '([.findings[].action] | map(select(test("ib_write_bw"))) | length) == 0 and ([.findings[] | select(.code == "NET_SOCKET_FALLBACK") | .action][0] | test("FI_PROVIDER=efa"))'
# c04: NCCL_IB_DISABLE=1 is shown: the action names its line
extra ib-disable c04 '([.findings[] | select(.code == "NET_SOCKET_FALLBACK") | .action][0] | test("NCCL_IB_DISABLE=1 turns the RDMA transport off \\(c04-[^:]*:3\\)"))'
# c09: the test binary's own -n 100 is not the rank count
extra np c09 '.ranks == 2 and .nodes == 2'
# c10: the busbw collapse at 64 MiB
extra drop c10 '([.findings[] | select(.code == "BUSBW_DROP") | .line][0]) == 8'
# r03: soft RoCE is still roce
extra rxe r03 '([.findings[] | select(.code == "SOFT_ROCE") | .message][0] | test("rxe0"))'
# r05: the port cut after Down / Disabled is reported as down, with the cut
extra cut-port r05 '([.findings[] | select(.code == "PORT_DOWN") | .message][0]) == "mlx5_1 port 1 is Down (Disabled)" and ([.findings[] | select(.code == "TRUNCATED_INPUT") | .message][0] | test("after mlx5_1 port 1.s state"))'
# r06: the empty redop column does not shift busbw into the error column
extra redop r06 '.parts[0].rows[0].busbw_GBps == 91.69 and .parts[0].rows[0].in_place_busbw_GBps == 96.2'
# r07: the last row without its in-place #wrong keeps in-place busbw 184.18
extra last-row r07 '.parts[0].rows[3].in_place_busbw_GBps == 184.18 and .parts[0].rows[3].wrong == 0'
# r08: four runs, one per node count
extra summary r08 '.runs == 4 and ([.run_facts[].busbw_GBps] == [358.45, 357.06, 342.55, 186.39])'
# r09: NCCL went on with IB and every rank reached Init COMPLETE
extra plugin r09 '([.findings[].code] | length) == 0'
# r10: a Kubernetes pod without /dev/infiniband is not told to unset NCCL_IB_DISABLE
extra k8s r10 '([.findings[] | select(.code == "NET_SOCKET_FALLBACK") | .action][0] | (test("pod spec") and (test("unset NCCL_IB_DISABLE") | not)))'
# c18: Ray prefixes nested in each other: NCCL's own line read behind them
# (host node02, NCCL 2.19's "nRanks 2 nNodes 2")
extra ray c18 '.ranks == 2 and .nodes == 2 and .parts[0].kind == "nccl-log"'
# c19: HPC-X's plugin (NCCL RDMA Plugin, IBext) over /IB/SHARP ports: ib, 4 HCAs
extra hpcx c19 '.network == "ib" and .nics_used == 4'
# c20: NET/FastSocket lines alone: tcp (Google's plugin, intended on GCP), not a fallback
extra fastsocket c20 '.network == "tcp" and ([.findings[].code] | length) == 0'
# c21: one node forced through the network (P2P and SHM disabled): efa from the channel, not none
extra forced-net c21 '.network == "efa" and .gdr == "on"'
# c22: two parameter lines before the rank list: mpirun -np 2 of a build without MPI
extra nonmpi-params c22 '([.findings[] | select(.code == "SINGLE_RANK_RUNS") | .message][0] | test("printed 2 times before the rank list") and test("independent"))'
# r11: each process's own "Rank 0" on another host, before any row
extra nonmpi-rank0 r11 '([.findings[] | select(.code == "SINGLE_RANK_RUNS") | .line][0]) == 9'
# r12: the summary table's error column is not #wrong; the 1 -> 2 node step is reported
extra summary-step r12 '([.findings[] | select(.code == "BUSBW_DROP") | .message][0] | test("415.72 GB/s at 1 node.* to 87.90 GB/s at 2 nodes")) and .parts[0].rows[0].wrong == null'
# r13: NET/IB labels the ports IB, but NCCL_IB_GID_INDEX=3 on the launcher says RoCE v2
extra gid-launcher r13 '.network == "roce"'
