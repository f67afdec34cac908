# fabrics --deadline puts each family on the fewest nodes of plan's ladder
# (N0, then 2^k and 3·2^(k-1): ladder.c) that meet the deadline with plan's
# margin: the chosen count meets it, the next smaller ladder count does not
# (the new-user trial, 2026-12-b: fabrics put InfiniBand on 512 nodes where
# 384 meets 2160 h, as `plan --deadline 2160` chooses).
D=2160
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline $D --baseline ib --format json
expect_rc 0
cp "$T/out" "$T/dl.json"
n0=$(jq '.n0' "$T/dl.json"); m=$(jq '.margin_pct' "$T/dl.json")
[ "$(jq '.fabrics | length' "$T/dl.json")" -ge 6 ] || fail "fewer than six family rows"
for i in $(jq -r '.fabrics | keys[]' "$T/dl.json"); do
    net=$(jq -r ".fabrics[$i].network" "$T/dl.json")
    n=$(jq ".fabrics[$i].nodes" "$T/dl.json"); t=$(jq ".fabrics[$i].time_to_train_h" "$T/dl.json")
    [ "$(calc "($t * (1 + $m / 100) <= $D)")" = 1 ] || fail "$net on $n nodes misses $D h"
    # the next smaller count of the ladder from n0
    prev=$(awk -v n0="$n0" -v n="$n" 'BEGIN { b = n0 < n ? n0 : 0
        for (p = 1; p < n; p *= 2) { if (p > n0 && p > b) b = p
            q = p + int(p / 2); if (p > 1 && q > n0 && q < n && q > b) b = q }
        print b }')
    [ "$prev" -ge 1 ] || continue
    cf fabrics --workload llama3-70b --gpu H100-SXM --nodes "$prev" --baseline ib --format json
    expect_rc 0
    tp=$(jq ".fabrics[] | select(.network == \"$net\") | .time_to_train_h" "$T/out")
    [ "$(calc "($tp * (1 + $m / 100) > $D)")" = 1 ] ||
        fail "$net: $prev nodes meet $D h ($tp h), fewer than the $n chosen"
done
