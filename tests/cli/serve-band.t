# the serve band (docs/model-serve.md "Band"): every predicted figure of a
# serve plan, scale, fit and fabrics row carries *_p10 / *_p90 from
# ERR_SERVE_P10 / ERR_SERVE_P90 (constants.def), rates as value / p90 ..
# value / p10, times and costs per token as value x p10 .. value x p90: the
# cost band is the inverse of the throughput band.
P10=$(K ERR_SERVE_P10); P90=$(K ERR_SERVE_P90)
[ -n "$P10" ] && [ -n "$P90" ] || fail "ERR_SERVE_P10/P90 not in constants.def"
# the band holds its point value when the model's median error lies inside it
IN=$(calc "($P10 <= 1 && $P90 >= 1) ? 1 : 0")
rel() { echo "(($1) - ($2) | fabs) <= 1e-6 * ($2 | fabs)"; }
cf plan --workload deepseek-v3-serve --format json; expect_rc 0
expect_json .error.class serve
expect_json .error.p10 "$P10"
expect_json .error.p90 "$P90"
expect_json_true '(.ranked | length) > 3'
for k in requests_per_s input_tokens_per_s output_tokens_per_s; do
    expect_json_true "all(.ranked[]; $(rel ".${k}_p10" ".$k / $P90") and $(rel ".${k}_p90" ".$k / $P10"))"
done
for k in output_tokens_per_s_gpu; do
    expect_json_true "all(.ranked[].decode; $(rel ".${k}_p10" ".$k / $P90") and $(rel ".${k}_p90" ".$k / $P10"))"
done
expect_json_true "all(.ranked[].decode; $(rel .tpot_ms_p10 ".tpot_ms * $P10") and $(rel .tpot_ms_p90 ".tpot_ms * $P90"))"
expect_json_true "all(.ranked[].prefill; $(rel .ttft_s_p90 ".ttft_s * $P90") and $(rel .input_tokens_per_s_gpu_p10 ".input_tokens_per_s_gpu / $P90"))"
for k in cost_per_m_output cost_per_m_input cost_per_m_output_decode; do
    expect_json_true "all(.ranked[] | select(.$k != null); $(rel ".${k}_p10" ".$k * $P10") and $(rel ".${k}_p90" ".$k * $P90"))"
    expect_json_true "all(.ranked[] | select(.$k == null); .${k}_p10 == null and .${k}_p90 == null)"
done
# inverted: the cheap end of the cost is the fast end of the throughput,
# cost x throughput = the cluster's price at both ends
expect_json_true "all(.ranked[]; $(rel '.cost_per_m_output_p10 * .output_tokens_per_s_p90 * 3600 / 1e6' '.cost_per_hour') and $(rel '.cost_per_m_output_p90 * .output_tokens_per_s_p10 * 3600 / 1e6' '.cost_per_hour'))"
if [ "$IN" = 1 ]; then
    expect_json_true 'all(.ranked[]; .output_tokens_per_s_p10 <= .output_tokens_per_s and .output_tokens_per_s <= .output_tokens_per_s_p90 and .requests_per_s_p10 <= .requests_per_s and .requests_per_s <= .requests_per_s_p90 and .cost_per_m_output_p10 <= .cost_per_m_output and .cost_per_m_output <= .cost_per_m_output_p90 and .decode.tpot_ms_p10 <= .decode.tpot_ms and .decode.tpot_ms <= .decode.tpot_ms_p90)'
fi
# the assumes line says the TPOT target is met by a prediction with that spread
expect_json_true "any(.assumes[]; test(\"TPOT is a prediction\") and test(\"$(calc "$P10" | sed 's/^0*//;s/^\./0./')\"))"
# the table shows the range of each row, within 80 columns
cf plan --workload deepseek-v3-serve --top 3; expect_rc 0
[ "$(grep -c '^   p10-p90: out tok/s ' "$T/out")" = 3 ] || fail "not one p10-p90 line per row"
awk 'length > 80 { exit 1 }' "$T/out" || fail "a line over 80 columns"
# a stated traffic: the figures are the rate asked, no band
sed 's/"traffic": "max"/"traffic": 2000/; s/"name": "deepseek-v3-serve"/"name": "ds-rate"/' \
    "$ROOT/data/workloads/deepseek-v3-serve.json" > "$T/rate.json"
cf plan --workload "$T/rate.json" --format json; expect_rc 0
expect_json_true 'all(.ranked[]; .requests_per_s_p10 == null and .cost_per_m_output_p90 == null)'
# scale, fit, fabrics: the same band on their rows
cf scale --workload deepseek-v3-serve --offering crusoe-h100-ib --format json; expect_rc 0
expect_json_true "all(.[] | select(.mode != null); $(rel .output_tokens_per_s_p10 ".output_tokens_per_s / $P90") and $(rel .tpot_ms_p90 ".tpot_ms * $P90"))"
expect_json_true 'all(.[] | select(.mode == null); .output_tokens_per_s_p10 == null)'
cf fit --workload llama3-70b-serve --gpu H100-SXM --format json; expect_rc 0
expect_json_true "$(rel .decode_tokens_per_s_gpu_p90 ".decode_tokens_per_s_gpu / $P10")"
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --format json; expect_rc 0
expect_json_true "all(.fabrics[] | select(.mode != null); $(rel .requests_per_s_p10 ".requests_per_s / $P90") and $(rel .decode_tpot_ms_p10 ".decode_tpot_ms * $P10"))"
expect_json_true 'any(.assumes[]; test("worth_premium_pct carries no band"))'
