# Every "$ clusterfit ..." example in README.md runs (exit 0, or 1 for an
# audit whose verdict is failed/invalid) and prints something.
grep '^\$ clusterfit ' "$ROOT/README.md" | sed 's/^\$ clusterfit //' > "$T/examples"
[ -s "$T/examples" ] || fail "README.md has no examples"
while IFS= read -r line; do
    # shellcheck disable=SC2086
    (cd "$ROOT" && eval "\"\$CF\" $line") > "$T/out" 2> "$T/err" < /dev/null
    rc=$?
    case "$rc" in 0|1) ;; *) fail "README example 'clusterfit $line' exited $rc";; esac
    [ -s "$T/out" ] || fail "README example 'clusterfit $line' printed nothing"
done < "$T/examples"
