# validate serving (issue 25): every published row of
# tests/data/validation/serving.csv is predicted; SGLang's 12 x 8 H100
# decode row is within the issue's 20 %; the median printed is the median of
# the rows' APEs; a file without the required columns is bad input (3).
cf validate serving "$ROOT/tests/data/validation/serving.csv" --format json; expect_rc 0
expect_json '.rows | length' 10
expect_json '.skipped | length' 0
expect_json_true '(.rows[] | select(.id == "sgl-dec9") | .ape_pct) <= 20'
expect_json_true '([.rows[].ape_pct] | sort | (.[4] + .[5]) / 2) - .median_ape_pct | fabs < 1e-6'
# each row's APE is |predicted - measured| / measured
expect_json_true 'all(.rows[]; ((.predicted - .measured | fabs) / .measured * 100 - .ape_pct | fabs) < 1e-6)'
cf validate serving "$ROOT/tests/data/validation/serving.csv"; expect_rc 0
expect_out "by source"; expect_out "lmsys.org/blog/2025-05-05-large-scale-ep"
printf 'id,workload\nx,deepseek-v3-serve\n' > "$T/bad.csv"
cf validate serving "$T/bad.csv"; expect_rc 3
