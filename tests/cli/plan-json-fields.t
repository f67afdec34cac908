# plan --format json has the fields of DESIGN §6; every ranked row has a why,
# P <= 1, effective price = sticker / P, and cost = gpus × price × billed hours.
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm", "precision": "bf16", "optimizer": "adam",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
cf plan --workload "$T/w.json" --format json; expect_rc 0
expect_json '.workload' llm-8b-test
expect_json '.currency' USD
expect_json_true '(.ranked | length) > 5'
expect_json_true '[.ranked[] | keys_unsorted] | all(. == ["offering_id","provider","provider_rating","provider_provisioning","price_source","offering","nodes","gpus","tp","ep","etp","pp","vp","dp","cp","micro_batch","global_batch_seqs","zero","recompute","step_time_s","time_to_train_h","scaling_efficiency","parallel_efficiency","cost","goodput","steady_time_to_train_h","storage","goodput_detail","time_to_train_h_p10","time_to_train_h_p90","error_class","cost_p10","cost_p90","sticker_price_gpu_hr","effective_price_gpu_hr","flags","assumed_facts","rests_on_assumptions","price_dated","why","chosen_by","scaling_note"])'
expect_json_true '[.ranked[] | (.why | length) > 40] | all'
expect_json_true '[.ranked[] | .parallel_efficiency > 0 and .parallel_efficiency <= 1] | all'
expect_json_true '[.ranked[] | ((.effective_price_gpu_hr * .parallel_efficiency - .sticker_price_gpu_hr) | fabs) < 1e-6] | all'
expect_json_true '[.ranked[] | .gpus == .tp * .pp * .dp * .cp] | all'
# Cost never below gpus × price × run time; equal when billing is unknown (billed exactly).
expect_json_true '[.ranked[] | .cost >= .gpus * .sticker_price_gpu_hr * .time_to_train_h * (1 - 1e-9)] | all'
expect_json_true '[.ranked[] | select(.flags | index("billing_increment_unknown") and index("min_commitment_unknown")) | ((.cost / (.gpus * .sticker_price_gpu_hr * .time_to_train_h)) - 1 | fabs) < 1e-9] | all'
# AWS p5.48xlarge: 6.88 USD/GPU-h on demand, per-second billing, no minimum (data/offerings.csv).
expect_json '.ranked[] | select(.offering_id == "aws-p5-48xlarge") | .sticker_price_gpu_hr' 6.88
expect_json_true '.ranked[] | select(.offering_id == "aws-p5-48xlarge") | ((.cost - .gpus * 6.88 * (((.time_to_train_h * 3600) | ceil) / 3600)) | fabs) < 0.01'
# Every multi-node offering is either ranked or unranked with reasons.
expect_json_true '[.unranked[] | (.reasons | length) > 0] | all'
# scaling_note: an object exactly on the rows with E > 1.05 (CF_PLAN_E_NOTE_MIN),
# saying why, with the N0 layout; null elsewhere.
expect_json_true '[.ranked[] | (.scaling_note != null) == (.scaling_efficiency > 1.05)] | all'
expect_json_true '[.ranked[] | select(.scaling_note != null) | .scaling_note | (.cause == "memory" or .cause == "other") and (.text | test("^E [0-9.]+ at [0-9]+ nodes is above 1")) and .n0 >= 1 and (.n0_layout | has("recompute"))] | all'
# The global batch each row ran: the workload's 512 (batch_max = batch here).
expect_json_true '[.ranked[] | .global_batch_seqs == 512] | all'
