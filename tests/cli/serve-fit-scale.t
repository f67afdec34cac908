# fit and scale for serve workloads (issue 25): DeepSeek-V3 in fp8 (671 GB)
# does not hold a useful batch on one node of 8 x 80 GB H100 but does on
# 8 x 141 GB H200; Llama 3 70B fits one H100 node.
cf fit --workload deepseek-v3-serve --gpu H100-SXM --format json; expect_rc 0
expect_json .fits_one_node false; expect_json_true '.min_nodes >= 2'
cf fit --workload deepseek-v3-serve --gpu H200-SXM --format json; expect_rc 0
expect_json .fits_one_node true; expect_json_true '.max_batch_per_gpu >= .useful_batch_per_gpu'
expect_json .kv_bytes_per_token 70272
cf fit --workload llama3-70b-serve --gpu H100-SXM; expect_rc 0; expect_out "fits one node"
# scale: output tokens/s never falls as the nodes grow (copies of the deployment)
cf scale --workload deepseek-v3-serve --offering crusoe-h100-ib --format json; expect_rc 0
expect_json_true '[.[] | .output_tokens_per_s // 0] as $t | $t == ($t | sort)'
expect_json_true 'all(.[] | select(.nodes_used != null); .nodes_used <= .nodes)'
