# A workload file's keys: an unknown one (a typo) is bad input (exit 3)
# naming it and the keys accepted at its level; a params_b far from the
# shape's count names both numbers. Every preset passes the same checks.
for w in llama3-8b llama3-70b llama3-405b gpt3-175b llama3-70b-finetune llama3-8b-finetune resnet50-dp cfd-stencil batch-inference; do
    cf fit --workload "$w" --gpu H100-SXM; expect_rc 0
    cf fit --workload "data/workloads/$w.json" --gpu H100-SXM; expect_rc 0
done
# gpt3-175b with "tokens" misspelt.
sed 's/"tokens"/"token"/' data/workloads/gpt3-175b.json > "$T/typo.json"
cf fit --workload "$T/typo.json" --gpu H100-SXM; expect_rc 3
expect_err "typo.json: token: unknown key (accepted at the top level of a llm workload: name, kind, description, source, note, shape, mtbf_gpu_h, ckpt_async, precision, optimizer, grad_fp32, layout_hint, batch, tokens, batch_max, framework"
sed 's/"kv_heads"/"kv_head"/' data/workloads/llama3-70b.json > "$T/kv.json"
cf fit --workload "$T/kv.json" --gpu H100-SXM; expect_rc 3; expect_err "shape.kv_head: unknown key (accepted in shape of a llm workload:"
# llama3-70b's shape with the 405B's parameter count.
sed 's/"params_b": 70.6/"params_b": 405/' data/workloads/llama3-70b.json > "$T/pb.json"
cf fit --workload "$T/pb.json" --gpu H100-SXM; expect_rc 3
expect_err "shape.params_b: 405 (billion) is 474 % away from the 70.6 billion parameters the shape gives"
# The stencil model computes in fp32: another precision is refused.
sed 's/"precision": "fp32"/"precision": "bf16"/' data/workloads/cfd-stencil.json > "$T/st.json"
cf fit --workload "$T/st.json" --gpu H100-SXM; expect_rc 3; expect_err "precision: expected fp32 for kind stencil"
# batch_max below batch, and a framework the model has no class for, are bad
# input naming the key and the numbers.
sed 's/"batch_max": 2048/"batch_max": 256/' data/workloads/llama3-405b.json > "$T/bm.json"
cf fit --workload "$T/bm.json" --gpu H100-SXM; expect_rc 3
expect_err "bm.json: batch_max: 256 (sequences) is below batch 512"
sed 's/"fsdp"/"deepspeed"/' data/workloads/llama3-8b-finetune.json > "$T/fw.json"
cf fit --workload "$T/fw.json" --gpu H100-SXM; expect_rc 3
expect_err "fw.json: framework: expected megatron or fsdp"
