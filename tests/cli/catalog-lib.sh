# catalog-lib.sh — helpers for the catalog-*.t cases (sourced by them, not a
# case itself). The test catalog tests/data/catalog-small.csv has 8 rows of
# providers named Test*; imported into the case's fresh catalog (which also
# holds the shipped rows), its rows are picked out by provider, so every
# count below is exact whatever the shipped data holds.
SMALL=tests/data/catalog-small.csv
import_small() {
    cf import "$SMALL"; expect_rc 0; expect_out "imported 8 offerings from $SMALL"
}
# test_ids — the ids of the Test* rows of a JSON list on stdout, in order.
test_ids() {
    jq -r '[.[] | select(.provider | startswith("Test")) | .id] | join(" ")' < "$T/out"
}
# expect_ids ARGS... -- IDS: `list ARGS --format json` gives exactly IDS (in
# this order) among the Test rows.
expect_ids() {
    args=""; while [ "$1" != "--" ]; do args="$args $1"; shift; done; shift
    # shellcheck disable=SC2086
    cf list $args --format json; expect_rc 0
    got=$(test_ids)
    [ "$got" = "$*" ] || fail "list$args: got '$got', expected '$*'"
}
