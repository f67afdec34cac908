# Issue 22 item 1: the provider table's rating and its sales-contact /
# waitlist provisioning reach `providers` (the tier survives the 80-column
# cut) and every ranked plan row, training or serve (a "provider:" line), for every rated
# provider of data/providers.csv, its words built here from that file.
command -v python3 > /dev/null || exit 0
python3 - "$ROOT/data/providers.csv" > "$T/rated" <<'PY' || fail "reading data/providers.csv"
import csv, sys
for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    if r["rating_tier"]:
        print("\t".join([r["provider"], r["rating_tier"], r["rating_system"], r["rating_date"]]))
PY
[ -s "$T/rated" ] || fail "no rated provider in data/providers.csv"
cf providers; expect_rc 0; cp "$T/out" "$T/table"
cf providers --wide; expect_rc 0; cp "$T/out" "$T/wide"
while IFS="$(printf '\t')" read -r prov tier sys date; do
    # The 80-column cell may be cut, but after the tier.
    grep "^$prov " "$T/table" | grep -q "  $tier" || fail "providers: $prov's row lacks its tier $tier"
    grep "^$prov " "$T/wide" | grep -qF "$tier, $sys, $date" || fail "providers --wide: $prov's rating"
    cf plan --workload llama3-70b --provider "$prov" --format json; expect_rc 0
    n=$(jq '.ranked | length' "$T/out")
    cf plan --workload llama3-70b --provider "$prov"; expect_rc 0
    got=$(grep -cF "   provider: rated $sys $tier, $date" "$T/out")
    [ "$got" = "$n" ] || fail "plan --provider $prov: $got provider lines for $n ranked rows"
    # A serve plan's rows likewise (JSON and table).
    cf plan --workload llama3-70b-serve --provider "$prov" --format json; expect_rc 0
    n=$(jq '.ranked | length' "$T/out")
    r=$(jq -r '[.ranked[].provider_rating] | unique | join("|")' "$T/out")
    [ "$n" = 0 ] || [ "$r" = "$sys $tier, $date" ] || fail "serve plan --provider $prov: provider_rating '$r'"
    cf plan --workload llama3-70b-serve --provider "$prov"; expect_rc 0
    got=$(grep -cF "   provider: rated $sys $tier, $date" "$T/out")
    [ "$got" = "$n" ] || fail "serve plan --provider $prov: $got provider lines for $n ranked rows"
done < "$T/rated"
# Sales contact: every ranked row of a provider whose provisioning names it
# says so; a provider with neither a rating nor such terms prints no line.
sales=$(python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    if "sales-contact" in r["provisioning"].split(";") and not r["rating_tier"]:
        print(r["provider"]); break' "$ROOT/data/providers.csv")
plain=$(python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    p = r["provisioning"].split(";")
    if r["provider"] == "AWS" and not r["rating_tier"] and "sales-contact" not in p and "waitlist" not in p:
        print(r["provider"])' "$ROOT/data/providers.csv")
if [ -n "$sales" ]; then
    cf plan --workload llama3-70b --provider "$sales" --format json; expect_rc 0
    n=$(jq '.ranked | length' "$T/out")
    cf plan --workload llama3-70b --provider "$sales"; expect_rc 0
    got=$(grep -cF "   provider: provisioning includes sales contact" "$T/out")
    [ "$got" = "$n" ] || fail "plan --provider $sales: $got sales-contact lines for $n ranked rows"
fi
if [ -n "$plain" ]; then
    cf plan --workload llama3-70b --provider "$plain"; expect_rc 0
    grep -q '^   provider: ' "$T/out" && fail "plan --provider $plain: a provider line with nothing to say"
fi
exit 0
