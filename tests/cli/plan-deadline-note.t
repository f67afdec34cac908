# The cheapest plan with no deadline can be a years-long run (Llama 3 70B on
# 15T tokens: months to years): the table says so and suggests --deadline;
# with a deadline, or when the plan is short, no such note.
cf plan --workload llama3-70b --top 1 --format json; expect_rc 0
h=$(jq '.ranked[0].time_to_train_h' "$T/out")
awk -v h="$h" 'BEGIN { exit !(h > 2160) }' || fail "the cheapest llama3-70b plan takes $h h, not > 2160"
# days below 1000, else years (one decimal)
days=$(awk -v h="$h" 'BEGIN { if (h / 24 < 1000) printf "%.0f d", h / 24; else printf "%.1f y", h / (24 * 365.25) }')
cf plan --workload llama3-70b --top 1; expect_rc 0
expect_out "Note: with no deadline the cheapest plan takes $days; add --deadline HOURS"
expect_out "(2160 = 90 days)"
cf plan --workload llama3-70b --top 1 --deadline 2160; expect_rc 0
expect_no_out "Note: with no deadline"
expect_out "finishing within 2160 h (90 days)"
