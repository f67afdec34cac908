# No text prints a negative zero ("RoCE -0.0 %", "-0.00"), and a duration in
# days is written "d" everywhere, as plan and scale write it (the new-user
# trial, 2026-12-b: fabrics printed "325.0 days" and "-0.0 %").
negzero='(^|[^0-9.])-0(\.0+)?([^0-9.]|$)'
for args in "fabrics --workload llama3-70b --gpu H100-SXM --deadline 2160 --baseline ib" \
            "fabrics --workload llama3-70b --gpu H100-SXM --nodes 64" \
            "fabrics --workload hpcg-3d-stencil --gpu H100-SXM --nodes 64" \
            "fabrics --workload llama3-8b --gpu H100-SXM --nodes 64" \
            "scale --workload llama3-70b --offering crusoe-h100-ib"; do
    # shellcheck disable=SC2086
    cf $args; expect_rc 0
    if grep -En "$negzero" "$T/out" > "$T/neg"; then fail "$args prints -0: $(head -3 "$T/neg")"; fi
    if grep -En '[0-9] (days|years)\b' "$T/out" > "$T/days"; then fail "$args writes days, not d: $(head -3 "$T/days")"; fi
done
# The case that printed it: a premium that rounds to zero shows +0.0 %, and
# the fabrics time column reads like plan's (68.9 d).
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 2160 --baseline ib --format json; expect_rc 0
t=$(jq '.fabrics[0].time_to_train_h' "$T/out")
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 2160 --baseline ib; expect_rc 0
expect_text "$(awk -v h="$t" 'BEGIN { printf "%.1f d", h / 24 }')"
