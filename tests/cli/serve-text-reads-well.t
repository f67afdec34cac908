# The serving answers read at 80 columns and say the right thing (new-user
# trial): plan with latency targets ranks by cost per million output tokens
# with the layout, the pools and a why naming what binds; fit and scale for
# every serve preset; no layout or id is cut (the scale and fabrics tables
# cut "EP16 (DP attention) on 2 nodes" to "... on 2 no"); the `$/M in`
# column is the row's cost per million input tokens (the table's rewrite
# once printed the rank there from a shared buffer).
wide() {  # the text's lines over 80 columns, with their number
    awk 'length($0) > 80 { print NR ": " $0 }' "$T/out"
}
joined() { tr '\n' ' ' < "$T/out" | tr -s ' '; }
for wl in deepseek-v3-serve llama3-70b-serve llama3-405b-serve qwen3-235b-serve; do
    cf plan --workload "$wl" --tpot-ms 40 --ttft-s 3 --top 5 --format json; expect_rc 0
    expect_json_true '[.ranked[].cost_per_m_output] as $c | $c == ($c | sort)'
    expect_json_true 'all(.ranked[]; .decode.tpot_ms <= 40 + 1e-9 and .prefill.ttft_s <= 3 + 1e-9)'
    # the why names the pools' layouts and what binds the decode
    expect_json_true 'all(.ranked[]; . as $r | ($r.why | contains($r.decode.layout)) and ($r.why | contains($r.decode.binds)))'
    expect_json_true 'all(.ranked[] | select(.mode == "disaggregated"); . as $r | $r.why | contains("\($r.prefill.nodes) prefill + \($r.decode.nodes) decode nodes"))'
    cp "$T/out" "$T/plan.json"
    cf plan --workload "$wl" --tpot-ms 40 --ttft-s 3 --top 5; expect_rc 0
    [ -z "$(wide)" ] || fail "$wl plan: lines over 80 columns: $(wide)"
    # each row's layouts in full, and $/M in is the cost, not the rank
    for i in 0 1 2 3 4; do
        lay=$(jq -r ".ranked[$i].decode.layout // empty" "$T/plan.json")
        [ -z "$lay" ] && continue
        joined | grep -qF -- "decode $lay" || fail "$wl: row $i's decode layout '$lay' is not in the text"
        cin=$(jq -r ".ranked[$i] | if .cost_per_m_input then (.cost_per_m_input * 1000 | round / 1000 | tostring) else \"-\" end" "$T/plan.json")
        row=$(grep -E "^ *$((i + 1))[ *]" "$T/out" | head -1)
        [ "$cin" = "-" ] || awk -v r="$row" -v c="$cin" 'BEGIN { n = split(r, f, " "); exit !(f[n] + 0 == c + 0) }' ||
            fail "$wl row $((i + 1)): \$/M in '$row' is not $cin"
    done
    cf scale --workload "$wl" --offering crusoe-h100-ib --format json; expect_rc 0
    cp "$T/out" "$T/scale.json"
    expect_json_true 'all(.[]; (.mode != null) or (.why | length > 0))'
    cf scale --workload "$wl" --offering crusoe-h100-ib; expect_rc 0
    [ -z "$(wide)" ] || fail "$wl scale: lines over 80 columns: $(wide)"
    for lay in $(jq -r '.[] | .decode_layout // empty | gsub(" "; "_")' "$T/scale.json" | sort -u); do
        joined | grep -qF -- "$(echo "$lay" | tr _ ' ')" || fail "$wl scale: layout '$lay' cut"
    done
    cf fabrics --workload "$wl" --gpu H100-SXM --nodes 4 --nics 8 --nic-gbps 400; expect_rc 0
    [ -z "$(wide)" ] || fail "$wl fabrics: lines over 80 columns: $(wide)"
    expect_text "every fabric at 8 x 400 Gbit/s per node"
    cf fit --workload "$wl" --gpu H100-SXM; expect_rc 0
    [ -z "$(wide)" ] || fail "$wl fit: lines over 80 columns: $(wide)"
done
# fit names the binding fact: 8 x H100 hold 640 GB, DeepSeek-V3 is 671 GB
# of fp8 weights, so one node fails on the weights, not on the KV room
cf fit --workload deepseek-v3-serve --gpu H100-SXM --format json; expect_rc 0
expect_json .fits_one_node false
expect_json_true '.why | startswith("the weights (671 GB at fp8) do not fit one node of 8 x H100-SXM")'
expect_json_true '.min_nodes >= 2'
# H200's 141 GB do hold them: the why gives the KV room instead
cf fit --workload deepseek-v3-serve --gpu H200-SXM --format json; expect_rc 0
expect_json .fits_one_node true
expect_json_true '.why | test("KV room for [0-9]+ sequences per GPU")'
# scale: one node of 8 x H100 serves nothing, and says it is the weights
cf scale --workload deepseek-v3-serve --offering crusoe-h100-ib --format json; expect_rc 0
expect_json '.[0].nodes' 1
expect_json '.[0].kind' weights
cf scale --workload deepseek-v3-serve --offering crusoe-h100-ib; expect_rc 0
expect_text "nothing serves: the weights (671 GB at fp8) do not fit 1 node"
# a serve workload given to a training-only command is refused by name
cf goodput --workload deepseek-v3-serve --offering crusoe-h100-ib --nodes 4; expect_rc 2
expect_err "'deepseek-v3-serve' is a serve workload (kind serve): goodput"
cf predict step --workload llama3-70b-serve --offering crusoe-h100-ib --tp 8 --pp 1 --dp 2; expect_rc 2
expect_err "'llama3-70b-serve' is a serve workload (kind serve): predict step"
