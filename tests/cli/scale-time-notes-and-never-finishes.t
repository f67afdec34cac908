# Trial 2026-12-b fault 2: a row slower to train than the one before says
# whether goodput or the layout is the cause, and a row whose layout fits
# but whose job never finishes (goodput 0) states why in text and JSON
# (it was "goodput 0.00 ... (0 interruptions)" with unfit_reason null).
cf scale --workload deepseek-v3 --offering sfcompute-h100-market --format json; expect_rc 0
# every row slower than its predecessor has a note, the others none
expect_json '[range(1; length) as $i | (.[$i].time_to_train_h != null and .[$i-1].time_to_train_h != null and .[$i].time_to_train_h > .[$i-1].time_to_train_h) == (.[$i].time_note != null)] | all' true
# the cause follows the steady time: it falls, so goodput
expect_json '[.[] | select(.time_note != null)] | length > 0' true
expect_json '[range(1; length) as $i | select(.[$i].time_note != null) | (.[$i].time_note.cause == "goodput") == (.[$i].steady_time_to_train_h < .[$i-1].steady_time_to_train_h)] | all' true
# a row with a layout but no time: unfit_reason says never finishes, with
# the checkpoint write and the job MTBF of that row
expect_json '[.[] | select(.layout != null and .time_to_train_h == null) | .unfit_reason != null] | (length > 0 and all)' true
r=$(jq -c '[.[] | select(.layout != null and .time_to_train_h == null)][0]' "$T/out")
w=$(echo "$r" | jq '.goodput_detail.checkpoint.write_s | round')
m=$(echo "$r" | jq -r '.goodput_detail.failures.job_mtbf_h')
n=$(echo "$r" | jq .nodes)
expect_json "[.[] | select(.nodes == $n)][0].unfit_reason | test(\"never finishes: a $w s checkpoint write\")" true
expect_json "[.[] | select(.nodes == $n)][0].unfit_reason | test(\"job MTBF of $(printf '%.3g' "$m") h\")" true
# the rows that finish keep unfit_reason null
expect_json '[.[] | select(.time_to_train_h != null) | .unfit_reason == null] | all' true
cf scale --workload deepseek-v3 --offering sfcompute-h100-market; expect_rc 0
expect_text "goodput, $n nodes: 0.00 of"
expect_text "steady: never finishes: a $w s checkpoint write"
expect_no_out "(0 interruptions)"
expect_text "although the steady time falls"
expect_text "goodput, not the layout"
