# A ranked row whose price is dated more than CF_STALE_MONTHS_DEFAULT (6)
# months before today (CLUSTERFIT_NOW, 2026-12-02 in the runner: cutoff
# 2026-06-02) says so: flag stale_price and an assumes: line with the date,
# by the rule of `list --stale 6` (price_as_of where set, else as_of). It is
# a stated fact, only old: no `*`, and --known-only still ranks it on many
# nodes. Rows: tests/data/plan-stale-price.csv (invented TestYpsilon rows,
# every fabric fact stated so that nothing else is assumed).
cf import tests/data/plan-stale-price.csv; expect_rc 0; expect_out "imported 3 offerings"
cf plan --workload llama3-70b --provider TestYpsilon --format json; expect_rc 0
expect_json '.stale_months' 6
expect_json '.stale_before' 2026-06-02
expect_json '[.ranked[] | select(.flags | index("stale_price")) | .offering_id] | join(" ")' \
    "testy-h100-oldprice testy-h100-oldrow"
expect_json '[.ranked[] | .price_dated] | join(" ")' "2024-12 2026-06-01 2026-06-02"
expect_json '[.ranked[] | .rests_on_assumptions] | any' false
# The same rows as list --stale 6.
stale_plan=$(jq -r '[.ranked[] | select(.flags | index("stale_price")) | .offering_id] | sort | join(" ")' "$T/out")
cf list --stale 6 --provider TestYpsilon --format json; expect_rc 0
[ "$stale_plan" = "$(jq -r '[.[].id] | sort | join(" ")' "$T/out")" ] || fail "plan's stale rows '$stale_plan' differ from list --stale 6"
cf plan --workload llama3-70b --provider TestYpsilon; expect_rc 0
expect_out "assumes: price dated 2024-12, more than 6 months old"
expect_out "assumes: price dated 2026-06-01, more than 6 months old"
expect_no_out "*testy"
# --known-only: a stale price is no assumed fact; the rows keep their nodes.
cf plan --workload llama3-70b --provider TestYpsilon --known-only --format json; expect_rc 0
expect_json '[.ranked[] | select(.offering_id == "testy-h100-oldprice") | .nodes > 1 and (.flags | index("stale_price") != null)] | .[0]' true
# Another today moves the cutoff: on 2026-07-01 only the 2024-12 price is stale.
CLUSTERFIT_NOW=2026-07-01 "$CF" plan --workload llama3-70b --provider TestYpsilon --format json > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_json '[.ranked[] | select(.flags | index("stale_price")) | .offering_id] | join(" ")' testy-h100-oldprice
# The shipped aws-p5e-48xlarge (price_as_of 2024-12) is flagged too.
cf plan --workload llama3-70b --format json; expect_rc 0
expect_json_true '[.ranked[] | select(.offering_id == "aws-p5e-48xlarge") | .flags | index("stale_price") != null] | .[0]'
# A malformed CLUSTERFIT_NOW is a usage error, as for show.
CLUSTERFIT_NOW=2026-13-01 "$CF" plan --workload llama3-8b > "$T/out" 2> "$T/err"; RC=$?
expect_rc 2; expect_err "CLUSTERFIT_NOW: expected a date YYYY-MM-DD"
# show: price_as_of with its age.
cf show testy-h100-oldprice; expect_rc 0
expect_out "price_as_of              2024-12 (2.0 years old, 731 days)"
cf show testy-h100-oldprice --format json; expect_rc 0
expect_json '.price_age_days' 731
expect_json '.age_days' 12
# without price_as_of the price is as old as the row (as the API says)
cf show testy-h100-oldrow --format json; expect_json '.price_age_days == .age_days and .age_days == 184' true
# POST /api/plan flags the same rows on the same day (CLUSTERFIT_NOW), as
# GET /api/offerings marks them stale.
serve_start "$T/serve.err"
HS=$(curl -s -o "$T/api.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data '{"workload": "llama3-70b", "filters": {"provider": "TestYpsilon"}}' "$BASE/api/plan")
[ "$HS" = 200 ] || fail "POST /api/plan: status $HS"
got=$(jq -r '[.ranked[] | select(.flags | index("stale_price")) | .offering_id] | sort | join(" ")' "$T/api.json")
[ "$got" = "$stale_plan" ] || fail "API stale rows '$got', CLI '$stale_plan'"
[ "$(jq -r '.stale_before' "$T/api.json")" = 2026-06-02 ] || fail "API stale_before $(jq -r '.stale_before' "$T/api.json")"
curl -s "$BASE/api/offerings?provider=TestYpsilon" > "$T/off.json"
got=$(jq -r '[.. | objects | select(.stale == true) | .id] | sort | join(" ")' "$T/off.json")
[ "$got" = "$stale_plan" ] || fail "GET /api/offerings stale rows '$got', plan '$stale_plan'"
serve_stop
