# extra.sh — facts of the audit's own cases that expect.tsv has no column
# for (tests/data/cases/INDEX.md states them in words); sourced by
# tests/cases/run.sh, which defines extra and extra_with.
# r01: one HCA for 8 ranks per node; the node's NIC count not shown; not judged
extra nics r01 '.nics_used == 1 and .node_nics == null and .bandwidth_judged == false and (.bandwidth_not_judged_reason | test("link rate")) and ([.findings[] | select(.code == "NICS_UNUSED") | .message][0] | test("NCCL_IB_HCA=mlx5_0"))'
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
