# fit: Llama 3 8B fits one node of 8 H100; 70B (16 B x 70.6e9 = 1.13 TB of model states) does not.
cf fit --workload llama3-8b --gpu H100-SXM --format json
expect_rc 0; expect_json .fits_one_node true; expect_json .min_nodes 1
expect_json_true '.memory_per_gpu_gib > 0 and .memory_per_gpu_gib <= 80e9 / 1073741824'
expect_json '.layout.tp * .layout.pp * .layout.dp * .layout.cp' 8
cf fit --workload llama3-70b --gpu H100-SXM --format json
expect_rc 0; expect_json .fits_one_node false; expect_json_true '.min_nodes >= 2'
expect_json_true '.layout.tp * .layout.pp * .layout.dp * .layout.cp == 8 * .min_nodes'
# The fine-tune preset asks for ZeRO-3 (FSDP).
cf fit --workload llama3-70b-finetune --gpu H100-SXM --format json
expect_rc 0; expect_json .layout.zero 3
# GB200 trays default to 4 GPUs per node; H200's 141 GB needs fewer nodes than H100's 80.
cf fit --workload llama3-405b --gpu GB200 --format json
expect_rc 0; expect_json_true '.layout.tp * .layout.pp * .layout.dp * .layout.cp == 4 * .min_nodes'
cf fit --workload llama3-405b --gpu H100-SXM --format json; N100=$(jq .min_nodes "$T/out")
cf fit --workload llama3-405b --gpu H200-SXM --format json; N200=$(jq .min_nodes "$T/out")
[ "$N200" -lt "$N100" ] || fail "H200 needs $N200 nodes, H100 $N100"
cf fit --workload llama3-8b --gpu H100-SXM; expect_rc 0; expect_out "fits one node"
cf fit --workload llama3-8b; expect_rc 2
cf fit --workload llama3-8b --gpu H999; expect_rc 2; expect_err "H100-SXM"
cf fit --help; expect_rc 0; expect_out "Usage: clusterfit fit"
