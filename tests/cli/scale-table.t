# The scale table: units in the headers (s, tokens/s, the currency), counts
# with thousands separators, E and C as fractions (P in JSON), time to train, the layout per row, lines
# within 79 columns; and where E > 1.05 a footnote that names the layout on
# N0 and on the node count with the highest E, with the reason.
# Llama 3 70B on crusoe-h100-ib (8 x H100 80 GB, 3200 Gbit/s InfiniBand): on
# 2 nodes it fits only with full recompute (TP4 PP4: a ZeRO-3 layout would be
# timed as an FSDP run, model/efficiency.c), so E exceeds 1 on more.
cf scale --workload llama3-70b --offering crusoe-h100-ib --format json; expect_rc 0
expect_json '.[0].nodes' 2
expect_json '.[0].layout.recompute' full
expect_json '.[0].layout.zero' 0
expect_json '.[0].layout.pp' 4
expect_json '.[0].scaling_note' null
expect_json_true '[.[] | (.scaling_note != null) == (.scaling_efficiency > 1.05)] | all'
expect_json_true '[.[] | select(.scaling_note) | .scaling_note.cause] | unique == ["memory"]'
best=$(jq -r 'max_by(.scaling_efficiency) | .nodes' "$T/out")
beste=$(jq -r 'max_by(.scaling_efficiency) | .scaling_efficiency * 100 | round / 100 | tostring' "$T/out")
bestrc=$(jq -r 'max_by(.scaling_efficiency) | .layout.recompute | if . == "none" then "no" else . end' "$T/out")
bestz=$(jq -r 'max_by(.scaling_efficiency) | .layout.zero' "$T/out")
thr=$(jq -r '.[0].throughput | round' "$T/out")
cf scale --workload llama3-70b --offering crusoe-h100-ib; expect_rc 0
expect_out "time"
expect_out "  C  "
expect_no_out "step s"
expect_out "tokens/s"
expect_out "cost USD"
expect_out "TP4 PP4 DP1 full-rc"
awk 'length > 79 { exit 1 }' "$T/out" || fail "a line is wider than 79 columns"
thrg=$(echo "$thr" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
grep -q "^    2 .* $thrg  *[0-9.]* [a-z]*  1.00  1.00 " "$T/out" || fail "row 2 lacks throughput $thrg, a time, E 1.00 and C 1.00"
# The footnote, unwrapped: the highest E, its node count, both layouts.
note=$(sed -n '/^Why E > 1:/,$p' "$T/out" | tr '\n' ' ')
case "$note" in
    *"E $beste at $best nodes is above 1 because memory binds on 2 nodes: the fastest layout that fits there is TP4 PP4 DP1 with full recompute, while $best nodes have room for "*" with ZeRO-$bestz and $bestrc recompute"*) ;;
    *) fail "footnote: $note" ;;
esac
[ "$bestrc" != full ] || fail "the best E row still needs full recompute"
# A workload that scales below 1 everywhere gets no footnote.
cf scale --workload resnet50-dp --offering aws-p5-48xlarge; expect_rc 0
expect_out "samples/s"
expect_no_out "Why E > 1"
