# clusterfit recipe (issue 23): every launcher's job stops at the step that
# fails, saying which, and hands the probe's exit 1 (error findings) to the
# audit as a result. The generated Slurm script and the SkyPilot and dstack
# head-node scripts are run here against stand-ins for srun, mpirun,
# clusterfit and all_reduce_perf that record their calls and exit as told.
mkdir -p "$T/bin" "$T/run"
cat > "$T/bin/srun" <<'SH'
#!/bin/sh
# srun stand-in: drops srun's --options and runs the command once, here.
while [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done
exec "$@"
SH
cat > "$T/bin/mpirun" <<'SH'
#!/bin/sh
# mpirun stand-in: drops Open MPI's options and runs the command once, here.
while [ $# -gt 0 ]; do
    case "$1" in
    -np | --npernode | -x | --hostfile) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
exec "$@"
SH
cat > "$T/bin/clusterfit" <<'SH'
#!/bin/sh
# clusterfit stand-in: records its calls; the probe exits $FAKE_PROBE_RC.
echo "clusterfit $*" >> "$FAKE_LOG"
case "$1" in probe) echo '{"kind":"cluster"}'; exit "${FAKE_PROBE_RC:-0}" ;; esac
exit 0
SH
cat > "$T/arp" <<'SH'
#!/bin/sh
# all_reduce_perf stand-in: a line of output, then $FAKE_ARP_RC.
echo "# nccl-tests stand-in: NCCL failure common.cu:1 'unhandled system error'"
exit "${FAKE_ARP_RC:-0}"
SH
chmod +x "$T/bin/srun" "$T/bin/mpirun" "$T/bin/clusterfit" "$T/arp"
export FAKE_LOG="$T/calls"
# The Slurm script of an InfiniBand offering, and the head-node script of
# the SkyPilot task and the dstack task, each as a shell script.
cf recipe azure-nd96isr-h100-v5 --nodes 2; expect_rc 0
printf '%s\n' "$OUT" > "$T/slurm.sh"
for s in skypilot dstack; do
    cf recipe azure-nd96isr-h100-v5 --nodes 2 --scheduler $s; expect_rc 0
    printf '%s\n' "$OUT" > "$T/$s.yaml"
    python3 - "$T/$s.yaml" "$T/$s.sh" "$s" <<'PY' || fail "$s: no script in the YAML"
import re, sys
text = open(sys.argv[1]).read()
# The block scalar under run: (SkyPilot) or the first item of commands: (dstack).
key = "run: |\n" if sys.argv[3] == "skypilot" else "  - |\n"
body = text.split(key, 1)[1]
ind = re.match(r" *", body).group(0)
lines = []
for l in body.split("\n"):
    if l and not l.startswith(ind): break
    lines.append(l[len(ind):])
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
    bash -n "$T/$s.sh" || fail "$s: the head-node script does not parse"
done
runjob() {  # SCRIPT: runs it from $T/run with the stand-ins first on PATH
    : > "$FAKE_LOG"
    RC=0
    (cd "$T/run" && SKYPILOT_NODE_RANK=0 SKYPILOT_NODE_IPS="10.0.0.1
10.0.0.2" SKYPILOT_NUM_GPUS_PER_NODE=8 DSTACK_NODE_RANK=0 DSTACK_MPI_HOSTFILE=/dev/null \
        PATH="$T/bin:$PATH" bash "$1" > "$T/out" 2> "$T/err") || RC=$?
}
for s in slurm skypilot dstack; do
    # No all_reduce_perf on the nodes: stops before any step, says what to build.
    rm -f "$T/bin/all_reduce_perf"
    runjob "$T/$s.sh"; expect_rc 1
    expect_err "all_reduce_perf is not on PATH on every node: build nccl-tests with"
    expect_err "MPI=1"
    ! grep -q 'clusterfit probe' "$FAKE_LOG" || fail "$s: the probe ran without nccl-tests"
    cp "$T/arp" "$T/bin/all_reduce_perf"
    # The probe could not run (exit 4): stop at step 1, no nccl-tests, no audit.
    FAKE_PROBE_RC=4 runjob "$T/$s.sh"; expect_rc 1
    expect_err "step 1, clusterfit probe, failed (exit 4)"
    ! grep -q 'clusterfit audit' "$FAKE_LOG" || fail "$s: audit ran after a failed probe"
    # The probe found errors (exit 1): a result, the job goes on; nccl-tests
    # fails (exit 3): stop at step 2 with its last lines.
    FAKE_PROBE_RC=1 FAKE_ARP_RC=3 runjob "$T/$s.sh"; expect_rc 1
    expect_err "step 2, nccl-tests, failed (exit 3); its last lines:"
    expect_err "unhandled system error"
    ! grep -q 'clusterfit audit' "$FAKE_LOG" || fail "$s: audit ran after failed nccl-tests"
    # Everything runs: the audit gets both outputs, the job exits as it does.
    runjob "$T/$s.sh"; expect_rc 0
    grep -q '^clusterfit probe --mpi --offering azure-nd96isr-h100-v5 --format json$' "$FAKE_LOG" ||
        fail "$s: probe call: $(cat "$FAKE_LOG")"
    grep -q '^clusterfit audit --offering azure-nd96isr-h100-v5 .*nccl-tests.log .*probe.json$' "$FAKE_LOG" ||
        fail "$s: audit call: $(cat "$FAKE_LOG")"
done
