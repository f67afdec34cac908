# Mixture-of-Experts workloads (issue 10): the presets load with their
# published shapes; fit says how many nodes DeepSeek-V3 needs and why; plan
# ranks EP layouts and names the all-to-all; predict step takes --ep/--etp;
# shapes that cannot exist are bad input (exit 3).
cf fit --workload deepseek-v3 --gpu H100-SXM --format json
expect_rc 0
expect_json_true '.min_nodes > 1'
expect_json_true '.layout.ep > 1'
expect_json_true '(.why | test("671 B parameters \\(37.6 B active per token\\)"))'
cf fit --workload deepseek-v3 --gpu H100-SXM
expect_rc 0; expect_out "why: 671 B parameters"; expect_out " EP"

cf plan --workload deepseek-v3 --format json
expect_rc 0
expect_json_true '([.ranked[] | select(.ep > 1)] | length) >= 5'
expect_json_true '[.ranked[] | (.tp * .pp * .dp * .cp) == .gpus] | all'
expect_json_true '[.ranked[] | ((.tp * .dp * .cp) % (.ep * .etp)) == 0 and (256 % .ep) == 0] | all'
expect_json_true '[.ranked[] | .why | test("MoE all-to-all")] | any'
cf plan --workload deepseek-v3
expect_rc 0; expect_out " EP"

cf scale --workload mixtral-8x7b --offering crusoe-h100-ib --format json
expect_rc 0
expect_json_true '[.[] | select(type == "object" and .layout != null) | .layout.ep] | (all(. >= 1) and any(. > 1))'

F="--gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib-ndr --nics 8 --nic-gbps 400"
cf predict step --workload mixtral-8x7b --tp 1 --pp 1 --dp 16 --ep 8 --zero 3 --recompute full $F --format json
expect_rc 0
expect_json_true '.breakdown.ep_comm_s > 0'
cf predict step --workload mixtral-8x7b --tp 1 --pp 1 --dp 16 --ep 3 $F
expect_rc 2; expect_err "ep 3 does not divide the workload's 8 experts"
cf predict step --workload llama3-8b --tp 1 --pp 1 --dp 8 --ep 2 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none
expect_rc 2; expect_err "only a Mixture-of-Experts workload"

# Bad shapes: top_k above the experts; params_b of the active count.
printf '{"kind":"llm","batch":8,"tokens":1e9,"shape":{"model":"llama","layers":32,"hidden":4096,"heads":32,"kv_heads":8,"seq":4096,"vocab":32000,"moe":{"experts":8,"top_k":9,"ffn_hidden":14336}}}\n' > "$T/k.json"
cf fit --workload "$T/k.json" --gpu H100-SXM
expect_rc 3; expect_err "shape.moe.top_k: 9 is more than the 8 experts"
printf '{"kind":"llm","batch":8,"tokens":1e9,"shape":{"model":"llama","layers":32,"hidden":4096,"heads":32,"kv_heads":8,"seq":4096,"vocab":32000,"params_b":12.9,"moe":{"experts":8,"top_k":2,"ffn_hidden":14336}}}\n' > "$T/p.json"
cf fit --workload "$T/p.json" --gpu H100-SXM
expect_rc 3; expect_err "shape.params_b: 12.9"; expect_err "active parameters per token are 12.9 billion"
