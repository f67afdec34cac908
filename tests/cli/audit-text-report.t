# The default text report: verdict, facts, findings with an action and FILE:LINE.
f="$SHARED/cases/05-ib-gdr-disabled-distance-nccl247.txt"
cf audit "$f"; expect_rc 0
expect_text "verdict: warning"
expect_text "network: ib   gdr: off   nccl: 2.4.7"
expect_text "GDR_DISABLED"
# the cause is PCI distance (distance 3 >= 2): the action is about topology, not the module
expect_text "action: topology: run each rank on a GPU whose NIC sits under the same PCIe switch"
expect_no_out "modprobe nvidia_peermem"
expect_text "at: $f:19"
cf audit --help; expect_rc 0; expect_text "Usage: clusterfit audit"
cf audit --bogus; expect_rc 2
cf audit "$T/does-not-exist.txt"; expect_rc 3; expect_err "cannot open"
cf audit --format csv "$f"; expect_rc 2
# Every line of every text report within 80 columns, as plan's (issue 23),
# on every case of both sets, alone and with an offering.
C=$ROOT/tests/data/cases
n=0
for f in "$C"/*.txt "$SHARED"/cases/*.txt; do
    cf audit "$f"
    awk -v f="$f" 'length($0) > 80 && $0 !~ /^ *[^ ]+$/ { print f ": " $0; bad = 1 } END { exit bad }' "$T/out" \
        || fail "a text line over 80 columns"
    n=$((n + 1))
done
[ "$n" -ge 60 ] || fail "only $n cases read"
cf audit --offering coreweave-hgx-h100 "$C"/r01-*.txt
awk 'length($0) > 80 && $0 !~ /^ *[^ ]+$/ { bad = 1 } END { exit bad }' "$T/out" || fail "over 80 columns"
# a count the input does not show is said in words, never as "unknown of the node's 8"
expect_text "NCCL uses 1 of the node's 8 NICs"
printf 'node01:1:1 [0] NCCL INFO Using network IB\n' > "$T/n.txt"
cf audit --offering coreweave-hgx-h100 "$T/n.txt"
expect_text "NCCL uses an unknown number of the node's 8 NICs"
expect_no_out "unknown of the node"
