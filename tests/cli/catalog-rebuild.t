# The shipped rows are rebuilt when the stored hash of data/offerings.csv
# differs (as after an upgrade); the user's rows survive and still win over
# shipped rows with the same id.
. tests/cli/catalog-lib.sh
DB=$CLUSTERFIT_DB
import_small
cf show aws-p5-48xlarge --format json; expect_rc 0; expect_json '.origin' shipped
shipped_price=$(jq '.price_on_demand_gpu_hr' "$T/out")
# A user row with a shipped id hides the shipped one.
jq '.price_on_demand_gpu_hr = 1.23 | .notes = "my negotiated rate" | [del(.age_days)]' "$T/out" > "$T/mine.json"
cf import "$T/mine.json"; expect_rc 0
cf list --provider AWS --format json
expect_json '[.[] | select(.id == "aws-p5-48xlarge")] | length' 1
expect_json '[.[] | select(.id == "aws-p5-48xlarge")][0].price_on_demand_gpu_hr' 1.23
cf list --format csv; grep '^test' "$T/out" > "$T/user-before.csv"
n_before=$(sqlite3 "$DB" "SELECT count(*) FROM offering WHERE origin = 'shipped'")
[ "$n_before" -gt 0 ] || fail "no shipped rows in the catalog"
# No rebuild while the hash matches: a hand edit of a shipped row stays.
sqlite3 "$DB" "UPDATE offering SET price_on_demand_gpu_hr = 999 WHERE id = 'aws-p4d-24xlarge' AND origin = 'shipped'"
cf show aws-p4d-24xlarge --format json; expect_json '.price_on_demand_gpu_hr' 999
# A different stored hash (new shipped data): the shipped rows are rebuilt...
sqlite3 "$DB" "UPDATE meta SET value = 'stale' WHERE key = 'shipped_hash'"
cf show aws-p4d-24xlarge --format json; expect_rc 0
[ "$(jq '.price_on_demand_gpu_hr' "$T/out")" != 999 ] || fail "shipped rows were not rebuilt"
[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'shipped_hash'")" != stale ] || fail "hash not updated"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM offering WHERE origin = 'shipped'")" = "$n_before" ] || fail "shipped row count changed"
# ...and the user's rows are intact and still win.
cf list --format csv; grep '^test' "$T/out" > "$T/user-after.csv"
cmp -s "$T/user-before.csv" "$T/user-after.csv" || fail "user rows changed in the rebuild"
[ "$(wc -l < "$T/user-after.csv")" = 8 ] || fail "expected 8 test rows"
cf show aws-p5-48xlarge --format json; expect_json '.price_on_demand_gpu_hr' 1.23; expect_json '.origin' user
[ "$(sqlite3 "$DB" "SELECT price_on_demand_gpu_hr FROM offering WHERE id = 'aws-p5-48xlarge' AND origin = 'shipped'")" = "$shipped_price" ] || fail "shipped row under the user row"
[ "$(sqlite3 "$DB" "PRAGMA user_version")" = 4 ] || fail "schema version"
