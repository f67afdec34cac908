# clusterfit probe --mpi under Open MPI, 3 ranks on this one host (so the
# pairs are between ranks, pair_scope "ranks"): one cluster JSON, a pair
# table, the node's findings with its hostname; a hung rank named after the
# timeout. The plain pass only: under ASan (libasan linked) Open MPI's own
# allocations would be reported as leaks, so the case says so and passes.
if ldd "$CF" 2>/dev/null | grep -q libasan; then echo "  probe-mpi: not run under ASan (Open MPI's own allocations)"; exit 0; fi
command -v mpirun > /dev/null || fail "mpirun missing (tools/deps.sh installs openmpi-bin)"
# Shared-memory single copy (CMA) needs ptrace rights containers often lack.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
# stdin from /dev/null: with an open stdin pipe (make, CI runners) mpirun forwards it to
# rank 0 and does not return after MPI_Abort; timeout bounds any stuck launch.
MPIRUN="timeout 120 mpirun --oversubscribe --allow-run-as-root"
$MPIRUN -np 3 "$CF" probe --mpi --format json < /dev/null > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_json .kind cluster
expect_json .ranks 3
expect_json .hosts 1
expect_json .pair_scope ranks
expect_json .schedule all-pairs
expect_json '.nodes | length' 1
expect_json '.nodes[0].ranks | map(tostring) | join(" ")' "0 1 2"
expect_json '[.pairs[] | "\(.a)-\(.b)"] | sort | join(" ")' "0-1 0-2 1-2"
expect_json '[.pairs[] | .bandwidth_GBps > 0 and .latency_us > 0] | all' true
expect_json '[.findings[] | select(.code == "RANK_TIMEOUT")] | length' 0
expect_json '.gather_s < 30 and .pairs_s < 60' true
# A saved tree read by every host leader: its findings with the hostname.
$MPIRUN -np 2 "$CF" probe --mpi --sysroot "$ROOT/tests/data/probe/h100-ib-faulty" --format json < /dev/null > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_json '[.findings[] | select(.node == "node05") | .code] | join(" ")' "PORT_DOWN NIC_RATE_MISMATCH GDR_DISABLED"
expect_json '.nodes[0].hostname' node05
$MPIRUN -np 2 "$CF" probe --mpi --sysroot "$ROOT/tests/data/probe/h100-ib-faulty" --offering azure-nd96isr-h100-v5 --format json < /dev/null > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_json '[.findings[] | select(.code == "OFFER_BANDWIDTH") | .node] | join(" ")' node05
expect_json '[.offering_check[] | select(.node == "node05")] | length' 5
# Rank 2 stops answering: named after --timeout 2, the others still report
# (the JSON is printed after ~4 s); rank 0 then ends the job with MPI_Abort.
# Under load Open MPI 4.1's mpirun was seen not to return after the abort
# (its ranks gone), so it is bounded here and only the report is judged.
timeout -k 5 30 mpirun --oversubscribe --allow-run-as-root -np 3 "$CF" probe --mpi --hang-rank 2 --timeout 2 \
    --format json < /dev/null > "$T/out" 2> "$T/err"; RC=$?
[ "$RC" != 0 ] || fail "a hung rank gave exit 0"
expect_json .ranks 3
expect_json '[.findings[] | select(.code == "RANK_TIMEOUT") | .message] | .[0]' "rank(s) 2 did not report within 2 s; the other ranks' reports follow"
expect_json '[.pairs[] | select(.bandwidth_GBps != null) | "\(.a)-\(.b)"] | join(" ")' "0-1"
expect_json '.gather_s < 10' true
# audit reads the cluster JSON.
$MPIRUN -np 3 "$CF" probe --mpi --format json < /dev/null > "$T/c.json" 2> "$T/err"
cf audit "$T/c.json" --format json
expect_json '[.parts[].kind] | join(" ")' probe
