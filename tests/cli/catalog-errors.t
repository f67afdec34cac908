# Bad filter values list the accepted ones (exit 2); a file that is not a
# clusterfit catalog is reported with its path and left untouched.
cf list --network ethernet; expect_rc 2
expect_err "--network: expected one of ib, roce, efa, tcpx, tcpxo, tcp, rdma, none, unknown (or infiniband for ib), got \"ethernet\""
cf list --multinode maybe; expect_rc 2; expect_err "--multinode: expected one of yes, no, got \"maybe\""
cf list --gdr on; expect_rc 2; expect_err "--gdr: expected one of yes, no"
cf list --orchestration slurm,pbs; expect_rc 2; expect_err "--orchestration: expected comma-separated values of slurm, kubernetes, vm, managed"
cf list --provisioning monthly; expect_rc 2; expect_err "on-demand, spot, reserved, waitlist"
cf list --storage no; expect_rc 2; expect_err "--storage: expected yes"
cf list --min-gbps fast; expect_rc 2; expect_err "--min-gbps: expected a number from 0 to"
cf list --max-price -1; expect_rc 2; expect_err "--max-price: expected a number from 0 to 1e+09"
cf list --currency dollars; expect_rc 2; expect_err "--currency: expected an ISO 4217 code"
cf list --network; expect_rc 2; expect_err "--network needs a value"
cf list --colour red; expect_rc 2; expect_err "unknown option '--colour'"
cf list --help; expect_rc 0; expect_out "--min-gbps X"
# Not a database: bad input (exit 3) reported with the path, the file kept
# as it was; so for every file that is not a catalog this clusterfit reads.
printf 'my notes, not a database\n' > "$T/notes.db"
cf --db "$T/notes.db" list; expect_rc 3
expect_err "catalog $T/notes.db: not a clusterfit catalog (the file is not an SQLite database)"
[ "$(cat "$T/notes.db")" = "my notes, not a database" ] || fail "the file was changed"
# Another program's database: same.
sqlite3 "$T/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42)"
cf --db "$T/other.db" list; expect_rc 3; expect_err "catalog $T/other.db: not a clusterfit catalog (an SQLite database of another program)"
[ "$(sqlite3 "$T/other.db" "SELECT x FROM t")" = 42 ] || fail "the other database was changed"
# A catalog from a newer clusterfit.
cf --db "$T/new.db" list --provider AWS; expect_rc 0
sqlite3 "$T/new.db" "PRAGMA user_version = 7"
cf --db "$T/new.db" list; expect_rc 3; expect_err "schema version 7 is newer than this clusterfit's 4"
# A directory that does not exist: the environment (exit 5, as a read-only
# or full disk), with the remedy; a directory given as the file: a usage
# error (exit 2). Both say so, not SQLite's "unable to open database file".
cf --db "$T/no/such/dir/c.db" list; expect_rc 5
expect_err "catalog $T/no/such/dir/c.db: cannot open: the directory $T/no/such/dir does not exist; create it (mkdir -p $T/no/such/dir)"
[ ! -e "$T/no" ] || fail "the missing directory was created"
cf --db "$T/no/such/dir/c.db" import --format skypilot tests/data/import/skypilot/aws/vms.csv; expect_rc 5
mkdir "$T/somedir"
cf --db "$T/somedir" list; expect_rc 2
expect_err "catalog $T/somedir: is a directory; give the path of a file, such as $T/somedir/catalog.db"
[ -z "$(ls "$T/somedir")" ] || fail "the directory was written to"
# GPU names come from data/gpus.csv.
cf list --gpu H100; expect_rc 2; expect_err "--gpu: expected one of "; expect_err "H100-SXM"; expect_err "got \"H100\""
printf 'id,provider,offering,gpu,source_url,as_of\nx,X,X,h100-sxm,https://x.example,2026-01\ny,Y,Y,A100,https://y.example,2026-01\n' > "$T/gpu.csv"
cf import "$T/gpu.csv"; expect_rc 3; expect_err "gpu.csv:3:4: gpu: expected one of "
