# issue 23: the probe said "ok" on the odd tree although a GPU's model, two
# ports' states and a port's rate were unknown, and its GPU line ran past
# 200 columns. A fact a check needs that the node does not show makes the
# verdict unjudged (exit 6, as audit's), never ok; every text line fits 80
# columns (lib/base/wrap.c, as plan and audit).
D=$ROOT/tests/data/probe
cf probe --sysroot "$D/odd" --format json; expect_rc 6
expect_json .status unjudged
expect_json '[.findings[] | select(.code == "FACTS_UNKNOWN")] | length' 1
for f in "GPU 0000:3a:00.0 model" "mlx5_4 port 1 rate" "mlx5_5 port 1 state" "mlx5_6 port 1 state"; do
    expect_json_true "[.findings[].message] | any(contains(\"$f\"))"
done
cf probe --sysroot "$D/odd"; expect_rc 6
head -n 1 "$T/out" | grep -qx 'probe: unjudged' || fail "the text's verdict: $(head -n 1 "$T/out")"
expect_text "info FACTS_UNKNOWN: 4 fact(s) a check needs are unknown"
# Every fact shown: the verdict stands (ACS, readable by root only, is no
# such fact: h100-roce and p5-efa show it unknown and stay ok).
for t in h100-ib h100-roce p5-efa; do
    cf probe --sysroot "$D/$t" --format json; expect_rc 0; expect_json .status ok
done
cf probe --sysroot "$D/h100-ib-faulty" --format json; expect_rc 0; expect_json .status warning
# A warning outranks unjudged: the faulty tree with one port's state unreadable.
cp -a "$D/h100-ib-faulty" "$T/t"
st=$(find "$T/t/sys" -path '*infiniband/mlx5_0/ports/1/state' | head -n 1)
[ -n "$st" ] || fail "no mlx5_0 state file in the faulty tree"
printf '4: ACT\033IVE\n' > "$st"
cf probe --sysroot "$T/t" --format json; expect_rc 0; expect_json .status warning
expect_json_true '[.findings[].code] | index("FACTS_UNKNOWN") != null'
# Every line of every tree's report within 80 columns (UTF-8 characters).
for d in "$D"/*/; do
    cf probe --sysroot "$d"
    awk -v f="$d" '{ n = length($0) } n > 80 { print f ": " n " columns: " $0; bad = 1 } END { exit bad }' "$T/out" \
        > "$T/long" || fail "$(head -n 3 "$T/long")"
done
grep -q '6 unjudged' docs/man/31-probe.man || fail "the man page does not document the probe's exit 6"
