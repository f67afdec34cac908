# `import --reset` is one transaction (issue 21): your rows and your imported
# prices go together, or neither does. Before, it was two (the rows, then the
# prices), and a failure or a kill between them left the rows removed and
# the prices kept. The failure is injected with a trigger stored in the
# catalog that refuses deletes from the price overlay, so the second delete
# fails after the first has run; the rows must then still be there.
. tests/cli/catalog-lib.sh
DB=$CLUSTERFIT_DB
import_small
cf import --format skypilot tests/data/import/skypilot/aws/vms.csv --as-of 2026-11-30; expect_rc 0
rows() { sqlite3 "$DB" "SELECT count(*) FROM offering WHERE origin = 'user'"; }
prices() { sqlite3 "$DB" "SELECT count(*) FROM price_overlay"; }
r0=$(rows); p0=$(prices)
[ "$r0" -gt 0 ] && [ "$p0" -gt 0 ] || fail "setup: $r0 user rows, $p0 imported prices"
sqlite3 "$DB" "CREATE TRIGGER injected_fault BEFORE DELETE ON price_overlay
               BEGIN SELECT RAISE(ABORT, 'injected fault'); END;" || fail "cannot add the trigger"
cf import --reset; [ "$RC" != 0 ] || fail "--reset succeeded although the price delete failed"
expect_err "injected fault"
[ "$(rows)" = "$r0" ] || fail "half a reset: $(rows) user rows left of $r0 (prices $(prices) of $p0)"
[ "$(prices)" = "$p0" ] || fail "half a reset: $(prices) imported prices left of $p0"
# Without the fault, both go in one go and the counts are said.
sqlite3 "$DB" "DROP TRIGGER injected_fault"
cf import --reset; expect_rc 0
expect_out "removed $r0 offerings you imported"
expect_out "removed the imported prices of $p0 offerings"
[ "$(rows)" = 0 ] && [ "$(prices)" = 0 ] || fail "after --reset: $(rows) rows, $(prices) prices"
