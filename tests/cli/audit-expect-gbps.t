# --expect-gbps N: per-node line rate; ring reference busbw = N/8 x eta, eta 0.85 when the
# input does not show the network (0.90 on IB, DESIGN 4.2).
f="$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt"
cf audit --format json --expect-gbps 800 "$f"; expect_rc 0
expect_json .expected_busbw_GBps 85
expect_json .status ok
cf audit --format json --expect-gbps 1600 "$f"; expect_rc 0
expect_json .expected_busbw_GBps 170
expect_json '[.findings[].code] | index("BUSBW_BELOW_LINK_RATE") != null' true
cf audit --expect-gbps abc "$f"; expect_rc 2
cf audit --expect-gbps 100 --offering x "$f"; expect_rc 2
cf audit --format json --expect-gbps 800 "$SHARED/cases/24-ib-gdr-forced-one-side-gather-dropoff-topo-ibstat.txt"
expect_json .expected_busbw_GBps 90
expect_json .expected_source expect-gbps
