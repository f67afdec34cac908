# validate training on the Megatron-Bridge rows gathered for issue 10
# (tests/data/validation/training-megatron-bridge.csv: NeMo 25.11's dense
# Llama 3 FP8 rows on DGX-H100, B200, GB200 and GB300, framework megatron):
# none skipped, median APE <= 15 % (12.6 % measured, docs/model-step.md §9),
# the Blackwell rows predicted with EFF_MEGATRON_BLACKWELL.
cf validate training "$ROOT/tests/data/validation/training-megatron-bridge.csv" --format json
expect_rc 0
expect_json '.rows | length' 10
expect_json '.skipped | length' 0
expect_json_true '.median_ape_pct <= 15'
expect_json '.rows[] | select(.id == "mb02") | .measured' 661
cf validate training "$ROOT/tests/data/validation/training-megatron-bridge.csv"
expect_rc 0; expect_out "; megatron"; expect_no_out "(by ZeRO stage)"
