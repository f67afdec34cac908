# Import errors a new user met (README): each names the place in the file,
# what was expected and what the file holds; exit 3, catalog unchanged.
. tests/cli/catalog-lib.sh
cf list --format csv; cp "$T/out" "$T/before.csv"
# One cell too many: a row of tests/data/catalog-small.csv with "extra"
# inserted after its 10th cell (nics_per_node). The shifted cells would
# fail at rdma (column 11); the row is reported for its count instead, at
# the first extra cell (column 33: 32 columns in the header).
{ head -1 "$SMALL"; sed -n 2p "$SMALL" | sed 's/,/,extra,/10'; } > "$T/bad4.csv"
cf import "$T/bad4.csv"; expect_rc 3
expect_err "bad4.csv:2:33: row has 33 cells, the header has 32"
! grep -q "rdma" "$T/err" || fail "the shifted cell was reported"
# One too few (nics_per_node left out): at the row's last cell, 31.
{ head -1 "$SMALL"; sed -n 2p "$SMALL" | sed 's/,8,yes,yes,/,yes,yes,/'; } > "$T/few.csv"
cf import "$T/few.csv"; expect_rc 3; expect_err "few.csv:2:31: row has 31 cells, the header has 32"
# Rows 3-4 of catalog-small.csv are one record (a quoted note with a line
# break and doubled quotes): an extra cell after it is on line 5.
{ head -5 "$SMALL" | sed '5s/$/,extra/'; } > "$T/multi.csv"
cf import "$T/multi.csv"; expect_rc 3; expect_err "multi.csv:5:33: row has 33 cells"
# JSON: the value's line and column, and what it is.
printf '[\n  {"id": "j1", "provider": "P", "offering": "O",\n   "network": "infiniband-hdr200",\n   "source_url": "https://a.example", "as_of": "2026-01"}\n]\n' > "$T/bad13.json"
cf import "$T/bad13.json"; expect_rc 3
expect_err "bad13.json:3:15: offering 1 (id \"j1\"): network: expected one of ib, roce, efa, tcpx, tcpxo, tcp, rdma, none (or empty or null for unknown), got \"infiniband-hdr200\""
printf '[{"id": "j1", "provider": "P", "offering": "O", "source_url": "https://a.example",\n  "as_of": "2026-01", "price_on_demand_gpu_hr":"2", "currency": "USD"}]\n' > "$T/str.json"
cf import "$T/str.json"; expect_rc 3
expect_err "str.json:2:48: offering 1 (id \"j1\"): price_on_demand_gpu_hr: expected a number or null, got the string \"2\""
# An as_of after today (CLUSTERFIT_NOW=2026-12-02 in run.sh), CSV and JSON;
# the current month (2026-12) is not in the future.
printf 'id,provider,offering,source_url,as_of\na,A,A,https://a.example,2026-12\nb,B,B,https://b.example,2027-01\n' > "$T/future.csv"
cf import "$T/future.csv"; expect_rc 3
expect_err "future.csv:3:5: as_of: expected a date no later than today (2026-12-02), got \"2027-01\""
printf '[{"id": "j1", "provider": "P", "offering": "O", "source_url": "https://a.example", "as_of": "2062-01-15"}]' > "$T/future.json"
cf import "$T/future.json"; expect_rc 3; expect_err "future.json:1:93: offering 1 (id \"j1\"): as_of: expected a date no later than today"
cf list --format csv; cmp -s "$T/before.csv" "$T/out" || fail "a rejected import changed the catalog"
# A malformed CLUSTERFIT_NOW is a usage error.
CLUSTERFIT_NOW=soon "$CF" import "$T/future.csv" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 2; expect_err "CLUSTERFIT_NOW: expected a date YYYY-MM-DD"
