# plan for a serve workload (issue 25): ranked by the cluster's cost per
# million output tokens, each row meeting the targets, with its pools, its
# layouts and a why naming what binds.
cf plan --workload deepseek-v3-serve --format json; expect_rc 0
expect_json .kind serve
expect_json '.targets.tpot_ms' 50
expect_json_true '(.ranked | length) > 3'
expect_json_true '[.ranked[].cost_per_m_output] as $c | $c == ($c | sort)'
expect_json_true 'all(.ranked[]; .decode.tpot_ms <= 50 + 1e-9 and .prefill.ttft_s <= 2 + 1e-9)'
expect_json_true 'all(.ranked[]; .why | test("KV memory|HBM bandwidth|the all-to-all|compute|TTFT|TP all-reduce"))'
# the cost is the cluster's price over its output: nodes x GPUs x price / (tokens/h) x 1e6
expect_json_true 'all(.ranked[]; ((.nodes * .gpus_per_node * .price_gpu_hr / (.output_tokens_per_s * 3600) * 1e6) - .cost_per_m_output | fabs) < 1e-6 * .cost_per_m_output)'
# disaggregated rows: the pools' nodes add up, and prefill carries input_tokens per request
expect_json_true 'all(.ranked[] | select(.mode == "disaggregated"); .prefill.nodes + .decode.nodes == .nodes)'
expect_json_true 'all(.ranked[]; (.input_tokens_per_s / .output_tokens_per_s - 20 | fabs) < 1e-6)'
# a looser TPOT target never makes a row more expensive
cf plan --workload deepseek-v3-serve --tpot-ms 100 --gpu H100-SXM --format json; expect_rc 0
C100=$(jq '.ranked[0].cost_per_m_output' "$T/out")
cf plan --workload deepseek-v3-serve --tpot-ms 50 --gpu H100-SXM --format json; expect_rc 0
C50=$(jq '.ranked[0].cost_per_m_output' "$T/out")
awk -v a="$C100" -v b="$C50" 'BEGIN { exit !(a <= b) }' || fail "TPOT 100 ms costs $C100, 50 ms $C50"
# the table names the rows and their why
cf plan --workload llama3-70b-serve --top 3; expect_rc 0
expect_out "cost per million output tokens"; expect_out "why:"
# a training plan's option on a serve workload, and serve options on a training one
cf plan --workload llama3-8b --tpot-ms 50; expect_rc 2; expect_err "serve workload"
cf plan --workload deepseek-v3-serve --tpot-ms 0; expect_rc 2; expect_err "tpot-ms"
# a stated traffic: as many copies of the deployment as carry it, priced at that rate
sed 's/"traffic": "max"/"traffic": 2000/; s/"name": "deepseek-v3-serve"/"name": "ds-rate"/' \
    "$ROOT/data/workloads/deepseek-v3-serve.json" > "$T/rate.json"
cf plan --workload "$T/rate.json" --format json; expect_rc 0
expect_json '.traffic_rps' 2000
expect_json_true 'all(.ranked[]; .requests_per_s == 2000 and .copies >= 1)'
expect_json_true 'all(.ranked[]; ((.nodes * .gpus_per_node * .price_gpu_hr / (2000 * 100 * 3600) * 1e6) - .cost_per_m_output | fabs) < 1e-6 * .cost_per_m_output)'
