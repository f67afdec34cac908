# The counts README.md states about the catalog are the built catalog's:
# offerings, providers, multi-node offerings and their providers (`list`),
# the provider table's size (`providers`), and they agree with data/check.py.
# A change to data/ that moves a count fails here until the README says it.
cf list --format json; expect_rc 0
cp "$T/out" "$T/list.json"
cf providers --format json; expect_rc 0
cp "$T/out" "$T/prov.json"
sentence=$(tr '\n' ' ' < README.md | grep -o 'The catalog (`data/offerings.csv`: [^;]*; `data/providers.csv`: the facts of [0-9]* providers')
[ -n "$sentence" ] || fail "README.md no longer states the catalog's counts in its Compare sentence"
nums=$(printf '%s' "$sentence" | grep -o '[0-9][0-9]*' | tr '\n' ' ')
set -- $nums
[ $# -eq 5 ] || fail "README counts sentence: expected 5 numbers, got [$nums]"
want_offerings=$(jq 'length' "$T/list.json")
want_providers=$(jq '[.[].provider] | unique | length' "$T/list.json")
want_multi=$(jq '[.[] | select(.multinode == "yes")] | length' "$T/list.json")
want_multi_prov=$(jq '[.[] | select(.multinode == "yes") | .provider] | unique | length' "$T/list.json")
want_table=$(jq 'if type == "array" then length else (.providers | length) end' "$T/prov.json")
got="$1 $2 $3 $4 $5"
want="$want_offerings $want_providers $want_multi $want_multi_prov $want_table"
[ "$got" = "$want" ] || fail "README.md says offerings/providers/multi-node/their providers/provider table $got; the catalog has $want"
# The same counts from data/check.py, which reads data/ itself.
if command -v python3 > /dev/null; then
    python3 data/check.py > "$T/check.txt" 2> /dev/null || fail "data/check.py failed"
    grep -q "^offerings: $want_offerings$" "$T/check.txt" || fail "check.py: $(grep '^offerings' "$T/check.txt")"
    grep -q "^providers: $want_providers$" "$T/check.txt" || fail "check.py: $(grep '^providers:' "$T/check.txt")"
    grep -q "^providers with multinode=yes: $want_multi_prov$" "$T/check.txt" || fail "check.py: $(grep '^providers with' "$T/check.txt")"
    grep -q "^offerings with multinode=yes/no/unknown: $want_multi/" "$T/check.txt" || fail "check.py: $(grep '^offerings with' "$T/check.txt")"
    grep -q "^providers in the provider table: $want_table " "$T/check.txt" || fail "check.py: $(grep '^providers in' "$T/check.txt")"
fi
