# issue 23: GET /api/vocab left "unknown" out of the network list although
# catalog rows hold it (and list --network unknown finds them): the API, the
# CLI's message and the catalog agree on one list, from lib/base/vocab.c.
# And a table header is never cut: providers printed "Multi-nod…".
cf list --network unknown --format json; expect_rc 0
expect_json_true 'length > 0 and all(.[]; .network == null)'  # JSON's unknown
cf list --network bogus; expect_rc 2
cli=$(sed -n 's/.*--network: expected one of \(.*\) (or infiniband for ib).*/\1/p' "$T/err")
[ -n "$cli" ] || fail "no list in: $ERR"
serve_start "$T/serve.log"
curl -sf "$BASE/api/vocab" > "$T/out" || fail "GET /api/vocab failed"
api=$(jq -r '.network | join(", ")' "$T/out")
[ "$api" = "$cli" ] || fail "API network list '$api' differs from the CLI's '$cli'"
expect_json_true '(.network | index("unknown")) != null and (.intra_link | index("unknown")) != null'
# every network a catalog row holds is in the API's list
serve_stop
"$CF" list --multinode any --format json > "$T/rows" || fail "list --format json failed"
jq -r '.[] | .network // "unknown"' "$T/rows" | sort -u > "$T/nets"
while read -r n; do
    jq -e --arg n "$n" '.network | index($n) != null' "$T/out" > /dev/null || fail "a row's network '$n' is not in /api/vocab"
done < "$T/nets"
grep -qx unknown "$T/nets" || fail "no catalog row has an unknown network: the case shows nothing"
# No header is cut in a table fitted to 80 columns.
for c in "providers" "list" "list --multinode yes" "plan --workload llama3-70b --top 5" \
    "scale --workload llama3-70b --offering crusoe-h100-ib" "validate collectives tests/data/shared/data/validation/collectives.csv"; do
    # shellcheck disable=SC2086
    cf $c; expect_rc 0
    grep -m 1 -E '^(Provider|ID|id|nodes) |^ *# ' "$T/out" > "$T/head" || true
    [ -s "$T/head" ] || fail "$c: no header line found"
    ! grep -q '…' "$T/head" || fail "$c: a header is cut: $(cat "$T/head")"
done
cf providers; expect_out "MN fabrics"; expect_out "MN: multi-node"
