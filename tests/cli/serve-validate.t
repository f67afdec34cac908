# validate serving (issue 25): the published rows of
# tests/data/validation/serving.csv are predicted but the two whose layout
# leaves no room beside the weights (skipped with the reason); SGLang's
# 12 x 8 H100 decode row is within the issue's 20 %; the median printed is
# the median of the rows' APEs; with --cv source the median out of sample
# by source is within the issue's 20 % and the 12-node deployment's rows
# too; a file without the required columns is bad input (3).
cf validate serving "$ROOT/tests/data/validation/serving.csv" --format json; expect_rc 0
expect_json '.rows | length' 20
expect_json '.skipped | length' 2
expect_json_true 'all(.skipped[]; .reason | test("no prompt beside the weights"))'
expect_json_true '(.rows[] | select(.id == "sgl-dec9") | .ape_pct) <= 20'
expect_json_true '([.rows[].ape_pct] | sort | (.[9] + .[10]) / 2) - .median_ape_pct | fabs < 1e-6'
# each row's APE is |predicted - measured| / measured
expect_json_true 'all(.rows[]; ((.predicted - .measured | fabs) / .measured * 100 - .ape_pct | fabs) < 1e-6)'
cf validate serving "$ROOT/tests/data/validation/serving.csv"; expect_rc 0
expect_out "by source"; expect_out "lmsys.org/blog/2025-05-05-large-scale-ep"
cf validate serving --cv source "$ROOT/tests/data/validation/serving.csv" --format json; expect_rc 0
expect_json_true '(.classes[] | select(.by == "all") | .median_ape_pct) <= 20'
expect_json_true '(.classes[] | select(.by == "all") | .in_sample_median_ape_pct) <= (.classes[] | select(.by == "all") | .median_ape_pct)'
expect_json_true 'all(.rows.rows[] | select(.id == "sgl-dec9" or .id == "sgl-pre3"); .ape_pct <= 20)'
cf validate serving --cv source "$ROOT/tests/data/validation/serving.csv"; expect_rc 0
expect_out "in-sample"; expect_out "out-of-sample"; expect_out "by source"
printf 'id,workload\nx,deepseek-v3-serve\n' > "$T/bad.csv"
cf validate serving "$T/bad.csv"; expect_rc 3
