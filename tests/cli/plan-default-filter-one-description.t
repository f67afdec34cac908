# Plan's default filter, described once (issue 23 item 8): the man page said
# --multinode yes, plan --help "every offering", the README's API section
# "multi-node offerings", while the code plans every offering and puts one
# rented as a single node on one node. Each now says what the code does,
# and the code is checked against it.
MAN="$(dirname "$CF")/docs/clusterfit.1"
cf plan --help; expect_rc 0; expect_out "(default none: every offering, one"
expect_out "rented as a single node or stating no network planned on one node):"
tr '\n' ' ' < "$MAN" | grep -qF 'no filter: every offering is planned, and one rented as a single node' || \
    fail "the man page does not describe plan's default filter as the code does"
tr '\n' ' ' < "$MAN" | grep -qF 'the default is \fB\-\-multinode yes' && fail "the man page still says --multinode yes"
tr '\n' ' ' < "$MAN" | grep -qF 'multinode filter the plan considers multi-node offerings' && \
    fail "the man page's POST /api/plan still says multi-node offerings"
tr '\n' ' ' < "$ROOT/README.md" | grep -qF 'none by default: every offering is planned, one rented as a single node' || \
    fail "README's API section does not describe the default filter"
# The code: no filter plans all of the catalog (ranked + unranked = every
# offering), and a multinode-no offering is ranked on one node.
cf list --format json; expect_rc 0
all=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
no_ids=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(" ".join(o["id"] for o in json.load(sys.stdin) if o.get("multinode") == "no"))')
cf plan --workload llama3-8b --format json; expect_rc 0
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin); all_n = int(sys.argv[1]); no = set(sys.argv[2].split())
assert len(d["ranked"]) + len(d["unranked"]) == all_n, (len(d["ranked"]), len(d["unranked"]), all_n)
single = [r for r in d["ranked"] if r["offering_id"] in no]
assert single and all(r["nodes"] == 1 for r in single), single[:1]
' "$all" "$no_ids" || fail "plan with no filter does not plan every offering, multinode-no ones on one node"
