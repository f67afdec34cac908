# Every --help of the planning and prediction commands fits an 80-column
# terminal (79 columns, so the cursor does not wrap), lists --help, and
# `predict --help` says where the step options are.
for c in "predict" "predict step" "predict collective" "fit" "plan" "scale" "validate" \
         "validate training" "validate collectives"; do
    # shellcheck disable=SC2086
    cf $c --help
    expect_rc 0; expect_out "Usage: clusterfit"; expect_out "--help"
    awk 'length > 79 { print; bad = 1 } END { exit bad }' "$T/out" >"$T/wide" \
        || fail "$c --help has a line over 79 columns: $(cat "$T/wide")"
done
cf predict --help; expect_out "clusterfit predict step --help"
cf predict step --help; expect_out "--micro-batch M"; expect_out "--recompute R"; expect_out "llama3-8b"
cf fit --help; expect_out "--gpus-per-node K"; expect_out "--format F"
