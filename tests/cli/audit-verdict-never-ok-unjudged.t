# Issue 23: the verdict never says "ok" for a bandwidth it did not judge.
C=$ROOT/tests/data/cases
# nccl-tests output alone (r01's table: 16 x "NVIDIA H100 80GB HBM3" on two
# hosts, busbw 44.48 at 8 GiB): the default node of that GPU and node size,
# stated as an assumption; a shortfall against it is a warning, not "ok"
grep -E '^(#|[ 0-9])' "$C"/r01-recon-single-hca-h100-2node.txt > "$T/t.txt"
cf audit "$T/t.txt"; expect_rc 0
expect_text "verdict: warning"
expect_text "assumes: the input does not show the node's NIC rate: assumed 8 x 400 Gb/s"
expect_text "BUSBW_BELOW_LINK_RATE"
expect_no_out "verdict: ok"
cf audit --format json "$T/t.txt"
expect_json '[.status, .expected_source, .bandwidth_judged] | tostring' '["warning","default",true]'
# the same table on a GPU with no default node (a PCIe part): unjudged, exit 6
sed 's/NVIDIA H100 80GB HBM3/NVIDIA H100 PCIe/' "$T/t.txt" > "$T/p.txt"
cf audit "$T/p.txt"; expect_rc 6
expect_text "verdict: unjudged"
cf audit --format json "$T/p.txt"
expect_json '[.status, .bandwidth_judged, .expected_assumes] | tostring' '["unjudged",false,null]'
# a sweep cut at 256 B (case h02, real): too short to judge: unjudged, exit 6
cf audit "$C"/h02-*.txt; expect_rc 6
expect_text "verdict: unjudged"
expect_text "RUN_TOO_SHORT"
# with a link rate the same table is judged and the verdict follows the judgement
cf audit --expect-gbps 3200 --format json "$T/p.txt"
expect_json_true '.bandwidth_judged and .status != "unjudged" and .expected_source == "expect-gbps"'
