# validate collectives on the shared published rows: the accuracy targets of
# DESIGN §4.4 (median APE <= 15 % overall, single-node and multi-node; at most
# 10 % of rows skipped). A real test: it fails when the model regresses.
cf validate collectives "$SHARED/data/validation/collectives.csv" --format json
expect_rc 0
expect_json_true '.median_ape_pct <= 15'
expect_json_true '.median_ape_pct_single_node <= 15'
expect_json_true '.median_ape_pct_multi_node <= 15'
expect_json_true '(.skipped | length) * 10 <= ((.rows | length) + (.skipped | length))'
# c10 states no node count: skipped with that reason, never guessed.
expect_json '.skipped[] | select(.id == "c10") | .reason' "nodes not stated"
# Each row carries id, metric, predicted, measured and APE = |p - m| / m x 100.
expect_json '.rows[] | select(.id == "c01") | .measured' 479.98
expect_json '.rows[] | select(.id == "c01") | .metric' busbw_GBps
expect_json_true '[.rows[] | ((.predicted - .measured | fabs) / .measured * 100 - .ape_pct | fabs) < 1e-6] | all'

cf validate collectives "$SHARED/data/validation/collectives.csv"
expect_rc 0
expect_out "median APE single-node"
expect_out "median APE multi-node"
expect_out "skipped c10: nodes not stated"
