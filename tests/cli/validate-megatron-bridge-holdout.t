# validate training on Megatron-Bridge rows held out of every fit
# (tests/data/validation/training-megatron-bridge-holdout.csv: NeMo 25.09,
# 25.11, 26.02 and 26.04 dense Llama 3 FP8/MXFP8 rows, recompute blank):
# 16 predicted, median APE <= 8 % (5.1 % measured, docs/model-step.md §10;
# 14.5 % before partial recompute, FP8 activation memory and the Blackwell
# refit); hb13 (pp 16 x
# vp 8 = 128 chunks for 126 layers, Megatron counting the embedding and the
# loss as layers) is skipped.
cf validate training "$ROOT/tests/data/validation/training-megatron-bridge-holdout.csv" --format json
expect_rc 0
expect_json '.rows | length' 16
expect_json '.skipped | length' 1
expect_json '.skipped[0].id' hb13
expect_json ".skipped[0].reason" "the model cannot predict this row (pp 16 x vp 8 exceeds the workload's 126 layers)"
expect_json_true '.median_ape_pct <= 8'
expect_json '.rows[] | select(.id == "hb16") | .measured' 1633
