# Fitting as code and error out of sample (issue 20). The training files
# alone: every dense and MoE constant of fitspec.def has rows there.
TR="$SHARED/data/validation/training.csv tests/data/validation/training-holdout.csv tests/data/validation/training-megatron-bridge.csv tests/data/validation/training-megatron-bridge-holdout.csv tests/data/validation/training-moe.csv tests/data/validation/training-moe-holdout.csv"
# shellcheck disable=SC2086
cf validate refit $TR --format json
expect_rc 0
# the fit on these rows is what constants.def ships (make fit-check holds all of it)
expect_json_true '[.constants[] | select(.name == "EFF_MEGATRON_HOPPER")][0] | (.differs == false and .n_rows >= 10)'
expect_json_true '[.constants[] | select(.name == "MOE_A2A_HIDDEN")][0] | (.differs == false and .n_rows >= 30)'
# no framework factor above 1: nothing lifts a GEMM above the roofline's ceiling
expect_json_true '[.constants[] | select(.name | startswith("EFF_")) | .value <= 1] | all'
expect_json_true '[.constants[] | .value >= .lo and .value <= .hi] | all'
expect_json_true '[.residuals.rows[] | .source != ""] | all'
# shellcheck disable=SC2086
cf validate refit --check $TR
expect_rc 0; expect_out "EFF_MEGATRON_HOPPER"; expect_out "training dense, megatron, hopper"
# a file that is no CSV: its name and line in the error (the set's names outlive the error)
cf validate refit "$SHARED/data/validation/training.csv" README.md
expect_rc 3; expect_err "clusterfit validate refit: README.md:"
cf validate training --cv tests/data/validation/training-moe.csv
expect_rc 2; expect_err "--cv: expected 'source'"

# leave-one-source-out (on the dense files, to keep the case short; make
# fit-check runs it on all): out of sample is never better than in sample
# overall, each class names its rows and sources, the band's coverage is a share
DN="$SHARED/data/validation/training.csv tests/data/validation/training-holdout.csv"
# shellcheck disable=SC2086
cf validate training --cv source $DN --format json
expect_rc 0
expect_json '.cv' source
expect_json_true '[.classes[] | select(.by == "all")][0] | (.median_ape_pct >= .in_sample_median_ape_pct and .rows >= 20 and .sources >= 8)'
expect_json_true '[.classes[] | select(.by == "model") | .class] == ["dense"]'
expect_json_true '[.classes[] | select(.by == "framework") | .class] | sort == ["fsdp", "megatron"]'
expect_json_true '[.classes[] | select(.by == "model" and .class == "dense")][0] | (.ratio_p10 < 1 and .ratio_p90 > 1 and .coverage >= 0.5 and .coverage <= 1)'
expect_json_true '[.rows.rows[] | .source != ""] | all'
# shellcheck disable=SC2086
cf validate training --cv source $DN
expect_rc 0; expect_out "in-sample"; expect_out "out-of-s."; expect_out "coverage"
cf validate training --cv fold "$SHARED/data/validation/training.csv"
expect_rc 2; expect_err "--cv: expected 'source'"

# plan: the default margin is the dense class's p90 - 1, and every row carries its band
cf plan --workload llama3-70b --deadline 2160 --top 3 --format json
expect_rc 0
expect_json_true '.error.class == "dense" and .error.assumed == false'
expect_json_true '.margin_pct == ((.error.p90 - 1) * 100 | round)'
expect_json_true '[.ranked[] | .time_to_train_h_p10 < .time_to_train_h and .time_to_train_h < .time_to_train_h_p90 and .cost_p10 < .cost and .cost < .cost_p90] | all'
# a deadline is met at the p90: time x (1 + margin) within it
expect_json_true '. as $d | [.ranked[] | .time_to_train_h * (1 + 0.01 * $d.margin_pct) <= 2160] | all'
cf plan --workload llama3-70b --deadline 2160 --top 3
expect_rc 0; expect_out "the model's p90 error out of sample"; expect_out "p10-p90:"
cf plan --workload deepseek-v3 --deadline 2160 --top 1 --format json
expect_rc 0
expect_json_true '.error.class == "moe" and .margin_pct > 24'
# given --margin wins
cf plan --workload llama3-70b --deadline 2160 --top 1 --margin 5 --format json
expect_rc 0; expect_json '.margin_pct' 5
