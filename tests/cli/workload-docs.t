# Every JSON example of docs/workloads.md is a valid workload, and every key
# the loader accepts is documented there.
awk '/^```json$/ { n++; f = ENVIRON["T"] "/doc" n ".json"; on = 1; next } /^```$/ { on = 0 } on { print > f }' docs/workloads.md
ls "$T"/doc*.json > /dev/null 2>&1 || fail "docs/workloads.md has no JSON example"
for f in "$T"/doc*.json; do
    cf fit --workload "$f" --gpu H100-SXM; expect_rc 0
done
for k in kind name description source note shape model layers hidden ffn_hidden heads kv_heads seq vocab params_b batch tokens precision optimizer grad_fp32 layout_hint.zero batch_max framework params flops_per_sample activation_bytes_per_sample samples cells flops_per_cell bytes_per_cell state_bytes_per_cell halo_bytes_per_neighbour ref_gpus decomposed_dims iterations task_gpu_s startup_s straggler_cv memory_gib tasks; do
    grep -q "\`\(shape\.\)\?$k\`" docs/workloads.md || fail "docs/workloads.md does not document $k"
done
