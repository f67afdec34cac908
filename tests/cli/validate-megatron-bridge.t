# validate training on the Megatron-Bridge rows gathered for issue 10
# (tests/data/validation/training-megatron-bridge.csv: NeMo 25.11's dense
# Llama 3 FP8 rows on DGX-H100, B200, GB200 and GB300, framework megatron,
# recompute as the performance recipes state it): none skipped, median APE
# <= 8 % (4.8 % measured, docs/model-step.md §10), the Blackwell rows
# predicted with EFF_MEGATRON_BLACKWELL.
cf validate training "$ROOT/tests/data/validation/training-megatron-bridge.csv" --format json
expect_rc 0
expect_json '.rows | length' 10
expect_json '.skipped | length' 0
expect_json_true '.median_ape_pct <= 8'
expect_json '.rows[] | select(.id == "mb02") | .measured' 661
cf validate training "$ROOT/tests/data/validation/training-megatron-bridge.csv"
expect_rc 0; expect_out "; megatron"; expect_no_out "(by ZeRO stage)"
# mb06 states the recipe's recompute_num_layers 5 (full, block); mb05's
# recompute is not published: the cheapest that fits is a partial one.
expect_out "recompute full (5 layers per chunk)"
expect_out "recompute unknown, assumed full (1 layers per chunk)"
# a stated recompute_num_layers without recompute full is skipped, with why
printf '%s\n' "$(head -1 "$ROOT/tests/data/validation/training-megatron-bridge.csv")" \
  "$(sed -n 2p "$ROOT/tests/data/validation/training-megatron-bridge.csv" | sed 's/,none,,tokens/,none,3,tokens/')" > "$T/rc.csv"
cf validate training "$T/rc.csv" --format json
expect_rc 0
expect_json '.skipped[0].reason' "recompute_num_layers stated without recompute full"
