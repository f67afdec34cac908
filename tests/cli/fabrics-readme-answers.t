# Every `clusterfit fabrics` example of the README answers: exit 0, at
# least one family with a result and an as-sold comparison (the new-user
# trial, 2026-12-b: its --deadline 720 example marked all six fabrics too
# slow and ended "there is no as-sold comparison").
grep '^\$ clusterfit fabrics ' "$ROOT/README.md" | sed 's/^\$ clusterfit //' > "$T/examples"
[ -s "$T/examples" ] || fail "the README has no fabrics example"
while read -r line; do
    # shellcheck disable=SC2086
    cf $line --format json; expect_rc 0
    expect_json_true '[.fabrics[] | .nodes != null] | any'
    case "$(jq -r '.sold.headline' "$T/out")" in *"no as-sold comparison"*) fail "$line: no as-sold comparison" ;; esac
done < "$T/examples"

# When every fabric is too slow, the text names the shortest deadline one
# meets: the fastest time a family reaches with the margin; that deadline,
# asked, has an answer.
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 720 --baseline ib --format json; expect_rc 0
expect_json_true '[.fabrics[] | .nodes == null] | all'
m=$(jq '.margin_pct' "$T/out")
met=$(jq '[.fabrics[] | .deadline_met_h] | min' "$T/out")
expect_json_true '[.fabrics[] | ((.deadline_met_h - .fastest_time_to_train_h * (1 + '"$m"' / 100)) | fabs) < 1e-6 * .deadline_met_h] | all'
d=$(calc "int($met) + ($met > int($met))")
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 720 --baseline ib; expect_rc 0
expect_text "Every fabric is too slow for 720 h."
expect_text "meets --deadline $d (h) or more"
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline "$d" --baseline ib --format json; expect_rc 0
expect_json_true '[.fabrics[] | .nodes != null] | any'
