# The cheapest plan with no deadline can be a years-long run (Llama 3 70B on
# 15T tokens: one MI300X node for 52 years): the table says so before the
# legend (issue 23: it came after eleven lines of legend), with the cheapest
# plan within the library's horizon (CF_PLAN_HORIZON_H, 90 days: the JSON's
# within_horizon), which is what --deadline 2160 ranks first; with a
# deadline, or when the plan is short, no such note.
cf plan --workload llama3-70b --top 1 --format json; expect_rc 0
h=$(jq '.ranked[0].time_to_train_h' "$T/out")
awk -v h="$h" 'BEGIN { exit !(h > 2160) }' || fail "the cheapest llama3-70b plan takes $h h, not > 2160"
expect_json '.within_horizon.horizon_h' 2160
hz_id=$(jq -r '.within_horizon.offering_id' "$T/out"); hz_nodes=$(jq '.within_horizon.nodes' "$T/out")
hz_cost=$(jq '.within_horizon.cost' "$T/out")
# days below 1000, else years (one decimal)
days=$(awk -v h="$h" 'BEGIN { if (h / 24 < 1000) printf "%.0f d", h / 24; else printf "%.1f y", h / (24 * 365.25) }')
cf plan --workload llama3-70b --top 1; expect_rc 0
expect_out "Note: with no deadline the cheapest plan takes $days. Within 90 days the"
tr '\n' ' ' < "$T/out" | grep -qF "cheapest is $hz_id on $hz_nodes nodes" || fail "the note does not name $hz_id on $hz_nodes nodes"
note=$(grep -n '^Note: with no deadline' "$T/out" | cut -d: -f1); legend=$(grep -n '^E: scaling' "$T/out" | cut -d: -f1)
[ "$note" -lt "$legend" ] || fail "the note (line $note) comes after the legend (line $legend)"
# What the note promises is what --deadline 2160 ranks first.
cf plan --workload llama3-70b --top 1 --deadline 2160 --format json; expect_rc 0
expect_json '.ranked[0].offering_id' "$hz_id"
expect_json '.ranked[0].nodes' "$hz_nodes"
expect_json '.ranked[0].cost' "$hz_cost"
cf plan --workload llama3-70b --top 1 --deadline 2160; expect_rc 0
expect_no_out "Note: with no deadline"
expect_out "finishing within 2160 h (90 days)"
