# The plan's text lists up to 12 unranked offerings one by one with their
# reasons; more (the whole catalog: ~170) are summarized per kind of reason,
# with the count and the first 3 ids of each; --format json has them all.
. tests/cli/catalog-lib.sh
import_small
cf plan --workload llama3-8b --format json; expect_rc 0
nun=$(jq '.unranked | length' "$T/out")
nprice=$(jq '[.unranked[] | select(any(.reasons[]; startswith("price unknown")))] | length' "$T/out")
first=$(jq -r '[.unranked[] | select(any(.reasons[]; startswith("price unknown")))][0].offering_id' "$T/out")
[ "$nun" -gt 12 ] || fail "expected more than 12 unranked offerings in the whole catalog, got $nun"
cf plan --workload llama3-8b; expect_rc 0
expect_out "Not ranked ($nun), by reason (all, with every reason: --format json):"
expect_out "  no price ($nprice): $first, "
expect_out " and $((nprice - 3)) more"
# Not one line per unranked offering: a heading and at most 2 lines per kind.
[ "$(sed -n '/^Not ranked/,$p' "$T/out" | wc -l)" -le 33 ] || fail "the unranked part is not a summary (16 kinds at 2 lines each at most)"
# A few: each with its reasons, as before.
cf plan --workload llama3-8b --provider TestGamma --format json; expect_rc 0
small=$(jq '.unranked | length' "$T/out")
id=$(jq -r '.unranked[0].offering_id' "$T/out"); why=$(jq -r '.unranked[0].reasons[0]' "$T/out")
[ "$small" -ge 1 ] && [ "$small" -le 12 ] || fail "TestGamma: expected 1 to 12 unranked, got $small"
cf plan --workload llama3-8b --provider TestGamma; expect_rc 0
expect_out "Not ranked ($small):"
expect_out "  $id: $why"
