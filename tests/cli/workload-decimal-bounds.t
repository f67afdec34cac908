# A workload's decimals have their ranges (limits.h CF_WL_*; issue 21):
# `shape.flops_per_cell: 1e308` made plan rank first a row of unknown cost
# and "nan" efficiency with exit 0, `tokens: 1e-320` printed a cost of
# -0.00. Now each is bad input (exit 3) naming the file, the field and the
# range, and a value at the bound still plans with finite numbers.
jq '.shape.flops_per_cell = 1e308' data/workloads/cfd-stencil.json > "$T/fpc.json"
cf plan --workload "$T/fpc.json" --top 2; expect_rc 3
expect_err "$T/fpc.json: shape.flops_per_cell: expected a number from 0.001 to 1e+18"
jq '.tokens = 1e-320' data/workloads/llama3-8b.json > "$T/tok.json"
cf plan --workload "$T/tok.json" --top 1; expect_rc 3
expect_err "$T/tok.json: tokens: expected a number from 1 to 1e+16"
for k in halo_bytes_per_neighbour bytes_per_cell; do
    jq ".shape.$k = 1e308" data/workloads/cfd-stencil.json > "$T/$k.json"
    cf plan --workload "$T/$k.json" --top 1; expect_rc 3; expect_err "shape.$k: expected a number from"
done
jq '.iterations = 1e12 | .shape.flops_per_cell = 1e18' data/workloads/cfd-stencil.json > "$T/edge.json"
cf plan --workload "$T/edge.json" --top 3; expect_rc 0
! grep -qiw 'nan\|inf\|-0\.00' "$T/out" || fail "the plan at the bounds prints nan, inf or -0.00"
