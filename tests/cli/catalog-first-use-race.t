# Concurrent first use of a catalog that does not exist yet (issue 21): the
# commands that open it at the same time all succeed. Before, the first-use
# migration read its markers (user_version, application_id, the schema's
# objects) in separate transactions, so a command could read application_id
# 0 from before another's schema committed and schema objects from after,
# and refuse a good file as "not a clusterfit catalog" (about 2 % of pairs).
# ROUNDS rounds of PROCS `clusterfit list` on a new file each; none may fail.
ROUNDS=${CF_RACE_ROUNDS:-200}; PROCS=3
: > "$T/out"; : > "$T/err"
i=0; refused=0; first=
while [ $i -lt $ROUNDS ]; do
    new="$T/new-$i.db"
    p=0; pids=
    while [ $p -lt $PROCS ]; do
        "$CF" --db "$new" list --format json > /dev/null 2> "$T/e$p" & pids="$pids $!"
        p=$((p + 1))
    done
    p=0
    for pid in $pids; do
        if ! wait "$pid"; then
            refused=$((refused + 1))
            [ -n "$first" ] || first="round $i: $(head -c 300 "$T/e$p")"
        fi
        p=$((p + 1))
    done
    rm -f "$new" "$new-journal"
    i=$((i + 1))
done
[ "$refused" = 0 ] || fail "$refused of $((ROUNDS * PROCS)) first uses refused; first: $first"
# The file all of them made is a sound catalog with the shipped rows.
"$CF" --db "$T/last.db" list --format json > "$T/out" 2> "$T/err" & a=$!
"$CF" --db "$T/last.db" list --format json > "$T/out2" 2> "$T/err2" & b=$!
wait $a && wait $b || fail "the last pair refused"
cmp -s "$T/out" "$T/out2" || fail "two first uses listed different catalogs"
[ "$(sqlite3 "$T/last.db" 'PRAGMA integrity_check')" = ok ] || fail "the new file fails integrity_check"
