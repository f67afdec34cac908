# New-user trial: an assumes line printed "expert load imbalance
# SERVE_EP_IMBALANCE" — a constant's name, not its value. No assumes or why
# sentence of any plan, fabrics, scale or fit answer (serve and training)
# names a constant of lib/model/constants.def or a CF_ limit; the serve
# plan's line gives the value and what it means.
names="$T/names"
sed -n 's/^CF_CONSTANT(\([A-Z0-9_]*\),.*/\1/p' "$ROOT/lib/model/constants.def" > "$names"
[ "$(wc -l < "$names")" -gt 50 ] || fail "constants.def names not read"
sentences="$T/sentences"
: > "$sentences"
collect() {  # every assumes and why string of the JSON answer in $T/out
    jq -r '.. | objects | (.assumes? // empty, .why? // empty) | if type == "array" then .[] else . end | strings' "$T/out" >> "$sentences"
}
for wl in deepseek-v3-serve llama3-70b-serve qwen3-235b-serve; do
    cf plan --workload "$wl" --top 5 --format json; expect_rc 0; collect
    cf fabrics --workload "$wl" --gpu H100-SXM --nodes 8 --format json; expect_rc 0; collect
    cf scale --workload "$wl" --offering crusoe-h100-ib --format json; expect_rc 0; collect
    cf fit --workload "$wl" --gpu H200-SXM --format json; expect_rc 0; collect
done
for wl in llama3-70b deepseek-v3; do
    cf plan --workload "$wl" --top 5 --format json; expect_rc 0; collect
    cf fabrics --workload "$wl" --gpu H100-SXM --nodes 8 --format json; expect_rc 0; collect
    cf scale --workload "$wl" --offering crusoe-h100-ib --format json; expect_rc 0; collect
done
[ "$(wc -l < "$sentences")" -gt 40 ] || fail "few sentences collected: $(wc -l < "$sentences")"
hit=$(grep -owFf "$names" "$sentences" | sort -u | tr '\n' ' ')
[ -z "$hit" ] || fail "assumes/why sentences name constants: $hit"
hit=$(grep -oE '\bCF_[A-Z0-9_]+\b' "$sentences" | sort -u | tr '\n' ' ')
[ -z "$hit" ] || fail "assumes/why sentences name limits: $hit"
# the imbalance line gives the value the model uses
cf plan --workload deepseek-v3-serve --format json; expect_rc 0
imb=$(K SERVE_EP_IMBALANCE)
expect_json_true "any(.assumes[]; contains(\"expert load imbalance x$imb\") and contains(\"$imb x the mean routed tokens\"))"
