# srun -n 2 clusterfit probe --mpi on a one-host Slurm that the case starts
# itself (munged, slurmctld, slurmd from slurm-wlm and munge, private
# config, socket, ports and spool under $T; stopped by their pid files).
# Slurm starts the two Open MPI ranks through PMIx (--mpi=pmix). The plain
# pass only, like probe-mpi.t (Open MPI under ASan).
if ldd "$CF" 2>/dev/null | grep -q libasan; then echo "  probe-slurm: not run under ASan (Open MPI's own allocations)"; exit 0; fi
for c in munged munge slurmctld slurmd srun sinfo; do
    command -v $c > /dev/null || fail "$c missing (tools/deps.sh installs slurm-wlm and munge)"
done
S=$T/slurm
mkdir -p "$S/state" "$S/spool"; chmod 700 "$S"
stop() {  # each daemon by its pid file, then wait until it is gone (its files with it)
    for f in d.pid ctld.pid munged.pid; do
        [ -f "$S/$f" ] || continue
        pid=$(cat "$S/$f"); kill "$pid" 2> /dev/null
        for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
    done
}
trap stop EXIT
dd if=/dev/urandom of="$S/munge.key" bs=1024 count=1 2> /dev/null; chmod 400 "$S/munge.key"
munged --force --socket="$S/munge.sock" --key-file="$S/munge.key" --pid-file="$S/munged.pid" \
    --log-file="$S/munged.log" --seed-file="$S/munge.seed" || fail "munged did not start"
port=$((20000 + $$ % 20000)); H=$(hostname)
cat > "$S/slurm.conf" <<CONF
ClusterName=cftest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/ctld.pid
SlurmdPidFile=$S/d.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldLogFile=$S/ctld.log
SlurmdLogFile=$S/d.log
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF="$S/slurm.conf" OMPI_MCA_btl_vader_single_copy_mechanism=none
slurmctld || fail "slurmctld did not start: $(tail -5 "$S/ctld.log" 2> /dev/null)"
slurmd || fail "slurmd did not start: $(tail -5 "$S/d.log" 2> /dev/null)"
up=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    if sinfo -h -o %T 2> /dev/null | grep -q idle; then up=1; break; fi
    sleep 1
done
[ "$up" = 1 ] || fail "the Slurm node did not come up: $(tail -5 "$S/ctld.log" "$S/d.log" 2> /dev/null)"
timeout 120 srun -n 2 --mpi=pmix "$CF" probe --mpi --format json < /dev/null > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_json .kind cluster
expect_json .ranks 2
expect_json .hosts 1
expect_json .pair_scope ranks
expect_json '[.pairs[] | "\(.a)-\(.b)"] | join(" ")' "0-1"
expect_json '.pairs[0].bandwidth_GBps > 0' true
