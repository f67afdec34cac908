# New-user trial: `fabrics --workload deepseek-v3-serve --gpu H100-SXM
# --nodes 8` printed "out tok/s 1.45e+04" where plan prints "116k", and its
# ib row said nodes 8 beside pools "decode ... on 4 nodes, prefill ... on 2
# nodes" (6: the instance counts were missing). fabrics and scale now print
# tokens/s as plan does and each pool's instances, and the pools' nodes x
# instances x copies add up to the row's nodes, in the JSON and the text.
sci() { grep -nE '[0-9]e[+-][0-9]' "$T/out"; }
# GPUs of one instance from its layout text: EP32 -> 32, TP8 x PP2 -> 16, TP2 -> 2
GPUS='if test("^EP") then (capture("^EP(?<n>[0-9]+)").n | tonumber) else (capture("^TP(?<t>[0-9]+)( x PP(?<p>[0-9]+))?") | (.t | tonumber) * ((.p // "1") | tonumber)) end' 
for wl in deepseek-v3-serve llama3-70b-serve; do
    cf fabrics --workload "$wl" --gpu H100-SXM --nodes 8 --format json; expect_rc 0
    cp "$T/out" "$T/fab.json"
    expect_json_true '[.fabrics[] | select(.mode != null)] | length > 3'
    # each pool's instances x the nodes of one instance = the pool's nodes; pools add up
    expect_json_true 'all(.fabrics[] | select(.mode == "disaggregated"); .decode_nodes + .prefill_nodes == .nodes and .copies == 1)'
    expect_json_true 'all(.fabrics[] | select(.mode == "colocated"); .decode_nodes == .nodes)'
    # a pool's nodes hold its instances' GPUs: ceil(instances x GPUs of the layout / GPUs per node)
    expect_json_true ".gpus_per_node as \$n | all(.fabrics[] | select(.mode != null); . as \$r | (.decode_layout | $GPUS) as \$g | ((\$r.decode_instances * \$g + \$n - 1) / \$n | floor) == \$r.decode_nodes)"
    expect_json_true ".gpus_per_node as \$n | all(.fabrics[] | select(.mode == \"disaggregated\"); . as \$r | (.prefill_layout | $GPUS) as \$g | ((\$r.prefill_instances * \$g + \$n - 1) / \$n | floor) == \$r.prefill_nodes)"
    cf fabrics --workload "$wl" --gpu H100-SXM --nodes 8; expect_rc 0
    [ -z "$(sci)" ] || fail "$wl fabrics: scientific notation: $(sci)"
    for s in $(jq -r '.fabrics[] | select(.mode == "disaggregated") | "\(.decode_instances)/\(.prefill_instances)/\(.decode_nodes)/\(.prefill_nodes)/\(.nodes)"' "$T/fab.json" | sort -u); do
        IFS=/ read -r di pi dn pn n <<EOT
$s
EOT
        expect_text "x$pi ($dn + $pn = $n nodes)"
    done
    cf scale --workload "$wl" --offering crusoe-h100-ib --format json; expect_rc 0
    cp "$T/out" "$T/scale.json"
    expect_json_true 'all(.[] | select(.mode == "disaggregated"); (.decode_nodes + .prefill_nodes) * .copies == .nodes_used)'
    expect_json_true 'all(.[] | select(.mode == "colocated"); .decode_nodes * .copies == .nodes_used)'
    cf scale --workload "$wl" --offering crusoe-h100-ib; expect_rc 0
    [ -z "$(sci)" ] || fail "$wl scale: scientific notation: $(sci)"
done
# the trial's row: 116k in plan and the same formatter in fabrics
cf plan --workload deepseek-v3-serve --tpot-ms 50 --top 1; expect_rc 0
expect_out "116k"
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 8; expect_rc 0
expect_out "14.5k"
expect_text "decode EP32 (DP attention) on 4 nodes x1, prefill EP16 (DP attention) on 2 nodes x2 (4 + 4 = 8 nodes)"
