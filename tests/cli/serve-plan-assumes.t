# New-user trial: serving rows dropped the `*` mark and the assumes: line a
# training plan shows for the same offering (reserved price, NICs per node
# not stated). Both now come from the same library flags (plan.c's
# flags_json via cf__plan_offering_flags) and the same words.
cf plan --workload deepseek-v3-serve --tpot-ms 50 --format json; expect_rc 0
cp "$T/out" "$T/serve.json"
cf plan --workload deepseek-v3 --format json; expect_rc 0
cp "$T/out" "$T/train.json"
# every offering ranked multi-node by both: the same catalog flags (the
# training row's billing, stale-price and compute-efficiency flags are a
# training job's: a serve row has no rental length and no step fit)
n=$(jq -n --slurpfile s "$T/serve.json" --slurpfile t "$T/train.json" '
    def cat: [.[] | select(. != "billing_increment_unknown" and . != "min_commitment_unknown"
              and . != "stale_price" and . != "compute_efficiency_unvalidated")] | sort;
    [$s[0].ranked[] | select(.nodes > 1 and .mode == "disaggregated") as $r
     | $t[0].ranked[] | select(.offering_id == $r.offering_id and .nodes > 1)
     | {id: .offering_id, same: ((.flags | cat) == ($r.flags | cat) and .rests_on_assumptions == $r.rests_on_assumptions)}]
    | [length, (map(select(.same | not)) | length)] | @tsv' -r)
both=${n%%	*}; differ=${n##*	}
[ "$both" -gt 3 ] || fail "only $both offerings ranked multi-node by both plans"
[ "$differ" = 0 ] || fail "$differ of $both offerings carry other flags in the serve plan"
# the trial's offering: reserved price and NICs not stated, marked and said
expect_json_true '.ranked[] | select(.offering_id == "sfcompute-h100-market") | (.flags | index("reserved_price") and index("nics_per_node_unknown")) and .rests_on_assumptions'
cf plan --workload deepseek-v3-serve --tpot-ms 50; expect_rc 0
grep -qE '^ *[0-9]+\*sfcompute-h100-market ' "$T/out" || fail "sfcompute-h100-market row has no * mark"
expect_text "reserved price (on-demand unknown)"
expect_text "NICs per node not stated, one per GPU assumed"
expect_text "*: the row's place rests on a fact the catalog does not state"
# as many marks as rows that rest on assumptions
marks=$(grep -cE '^ *[0-9]+\*' "$T/out")
want=$(jq '[.ranked[] | select(.rests_on_assumptions)] | length' "$T/serve.json")
[ "$marks" = "$want" ] || fail "$marks rows marked *, $want rest on assumptions"
# a serve plan refuses --known-only: its legend does not offer it
expect_no_out "--known-only"
