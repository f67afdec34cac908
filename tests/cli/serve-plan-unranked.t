# The serve plan's answers a renter can act on (new-user trial):
# - the unranked list was not summarised (116 lines, one per offering):
#   past 12 the text counts them by kind of reason, as the training plan's;
#   the JSON counts them too (unranked_by_kind), every offering once;
# - offering ids were cut to 24 characters: an id is never cut;
# - an A100 read "states no fp8 tensor rate, HBM bandwidth or memory": each
#   refusal names the one binding fact (the facts checked here are the
#   hardware table's and the workload's, not predicted figures).
cf plan --workload deepseek-v3-serve --format json; expect_rc 0
n=$(jq '.unranked | length' "$T/out")
[ "$n" -gt 12 ] || fail "expected more than 12 unranked offerings in the whole catalog, got $n"
expect_json_true '([.unranked_by_kind[].count] | add) == (.unranked | length)'
expect_json_true 'all(.unranked_by_kind[]; .count == (.offering_ids | length))'
expect_json_true '[.unranked_by_kind[].count] as $c | $c == ($c | sort | reverse)'
expect_json_true 'all(.unranked[]; .kind != null and (.reasons | length) >= 1)'
# the binding facts: no fp8 on the A100 (it states memory and HBM bandwidth)
expect_json_true 'all(.unranked[] | select(.offering_id | test("a100")) | select(.kind == "precision");
                      .reasons[0] | test("A100-[A-Za-z0-9-]+ has no fp8 tensor cores") and (test("HBM") | not))'
expect_json_true '[.unranked[] | select(.kind == "precision")] | length > 0'
# 8 x H100 (640 GB) cannot hold 671 GB of fp8 weights: a one-node H100
# offering is refused for the weights, named with the workload's size
expect_json_true '[.unranked[] | select(.kind == "weights") | .reasons[0] | select(test("^the weights \\(671 GB at fp8\\) do not fit 1 node \\(the cluster.s size\\) of 8 x H100"))] | length > 0'
cf plan --workload deepseek-v3-serve; expect_rc 0
expect_out "Not ranked ($n), by reason (every one with its reason: --format json):"
# a heading and at most 3 lines per kind plus the wrapped example: not one line per offering
[ "$(sed -n '/^Not ranked/,/^$/p' "$T/out" | wc -l)" -lt "$n" ] || fail "the unranked part is not a summary"
expect_text "no tensor cores for the precision"
expect_text "has no fp8 tensor cores (data/gpus.csv states no fp8 rate)"
# a few unranked: each with its reason, the id in full
cf plan --workload deepseek-v3-serve --gpu A100-SXM-80 --format json; expect_rc 0
expect_json '.ranked | length' 0
expect_json_true '.matched > 0 and (.unranked | length) <= 12'
long=$(jq -r '[.unranked[].offering_id | select(length > 24)][0] // empty' "$T/out")
cf plan --workload deepseek-v3-serve --gpu A100-SXM-80; expect_rc 0
expect_text "0 ranked: the"
[ -z "$long" ] || expect_out "  $long: "
# a ranked id longer than the column: in full, on a line of its own
cf import tests/data/serve/long-id.csv; expect_rc 0
cf plan --workload deepseek-v3-serve --top 3; expect_rc 0
expect_out " 1 testlongid-h100-ib-cluster-of-many-nodes"
# no filter passes: which one, exit 1 (as the training plan)
cf plan --workload deepseek-v3-serve --provider nobody-sells-this; expect_rc 1
expect_text "0 ranked: no offering passes the filters; --provider nobody-sells-this keeps 0"
cf plan --workload deepseek-v3-serve --provider nobody-sells-this --format json; expect_rc 1
expect_json '.matched' 0
