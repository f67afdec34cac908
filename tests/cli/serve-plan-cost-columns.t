# New-user trial (issue 23/25): `$/M out` charges the whole cluster and
# `$/M in` the prefill pool again, so adding them counts the prefill nodes
# twice; the text says what each column charges, under the table, and shows
# the decode pool's own figure (cost_per_m_output_decode) beside the row.
wide() { awk 'length($0) > 80 { print NR ": " $0 }' "$T/out"; }
for wl in deepseek-v3-serve llama3-405b-serve; do
    cf plan --workload "$wl" --tpot-ms 50 --top 6 --format json; expect_rc 0
    cp "$T/out" "$T/plan.json"
    # the JSON's own identity: whole = decode pool + prefill pool's input cost x S/O
    expect_json_true '[.ranked[] | select(.mode == "disaggregated")] | length > 0'
    expect_json_true 'all(.ranked[] | select(.mode == "disaggregated"); ((.cost_per_m_output_decode + .cost_per_m_input * .input_tokens_per_s / .output_tokens_per_s) - .cost_per_m_output | fabs) < 1e-6 * .cost_per_m_output)'
    cf plan --workload "$wl" --tpot-ms 50 --top 6; expect_rc 0
    [ -z "$(wide)" ] || fail "$wl: lines over 80 columns: $(wide)"
    expect_text "\$/M in: the prefill pool alone per million input tokens"
    expect_text "adding the two counts the prefill nodes twice"
    expect_text "\$/M out: the whole cluster (prefill and decode pools)"
    for d in $(jq -r '.ranked[] | select(.mode == "disaggregated") | "\(.cost_per_m_output_decode * 1000 | round)/\(.cost_per_m_output * 1000 | round)"' "$T/plan.json"); do
        dec=$(calc "${d%/*} / 1000" | awk '{ printf "%.3f", $1 }')
        all=$(calc "${d#*/} / 1000" | awk '{ printf "%.3f", $1 }')
        expect_text "decode pool alone $dec of $all"
    done
done
