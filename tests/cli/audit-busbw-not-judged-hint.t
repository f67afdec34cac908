# Cases 01 and 26 show busbw but no link rate: never "ok" (issue 23):
# unjudged, exit 6, with one text line that says busbw was not compared
# and how to get it compared, and no finding.
for id in 01 26; do
    f=$(ls "$SHARED"/cases/$id-*.txt)
    cf audit "$f"; expect_rc 6
    expect_out "verdict: unjudged"
    expect_no_out "verdict: ok"
    expect_out "bandwidth: not compared with a link rate"
    expect_out "--expect-gbps N"
    expect_out "--offering ID"
    cf audit --format json "$f"
    expect_json '[.status, .expected_busbw_GBps, (.findings | length)] | tostring' '["unjudged",null,0]'
done
# with a link rate the line goes away
cf audit --expect-gbps 800 "$SHARED"/cases/26-*.txt
expect_no_out "bandwidth: not compared"
expect_out "expected:"
expect_no_out "verdict: unjudged"
# no busbw at all (a log without a table): no such line either
cf audit "$SHARED"/cases/05-*.txt
expect_no_out "bandwidth: not compared"
