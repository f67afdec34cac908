# validate training on the shared published rows: median APE <= 8 % (issue 10's dense
# target; DESIGN §4.4 asks <= 10 %), at most 10 % skipped.
cf validate training "$SHARED/data/validation/training.csv" --format json
expect_rc 0
expect_json_true '.median_ape_pct <= 8'
expect_json_true '(.skipped | length) <= 0.1 * ((.rows | length) + (.skipped | length))'
expect_json_true '[.rows[] | select(.id == "t01")][0].metric == "tflops_per_gpu"'
expect_json_true '[.rows[] | (.ape_pct - ((.predicted - .measured) / .measured * 100 | fabs) | fabs) < 1e-6] | all'
cf validate training "$SHARED/data/validation/training.csv"
expect_rc 0; expect_out "median APE"
