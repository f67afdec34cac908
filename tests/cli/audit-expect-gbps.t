# --expect-gbps N: per-node line rate. Where the input shows no GPU or node count the model
# cannot be asked: the ring's bound N/8 x eta, eta of the model's table (ETA_RDMA 0.90 when
# the input does not show the network, ETA_IB on IB: 0.88 at this fit), named line_rate.
f="$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt"
cf audit --format json --expect-gbps 800 "$f"; expect_rc 0
expect_json .expected_busbw_GBps 90
expect_json '[.expected_algo, .expected_protocol, .expected_algo_source] | tostring' '["ring",null,"line_rate"]'
expect_json .status ok
cf audit --format json --expect-gbps 1600 "$f"; expect_rc 0
expect_json .expected_busbw_GBps 180
expect_json '[.findings[].code] | index("BUSBW_BELOW_LINK_RATE") != null' true
cf audit --expect-gbps abc "$f"; expect_rc 2
cf audit --expect-gbps 100 --offering x "$f"; expect_rc 2
# case 24 shows GPU, nodes and collective: the collective model answers, as predict collective
# (gather, 1 rank/node: ring only, 800/8 x ETA_IB (88 GB/s at 0.88) less its latency term at
# 11.4 GB)
cf audit --format json --expect-gbps 800 "$SHARED/cases/24-ib-gdr-forced-one-side-gather-dropoff-topo-ibstat.txt"
expect_near "$(jq -r .expected_busbw_GBps "$T/out")" "$(calc "800 / 8 * $(K ETA_IB)")" 0.5
expect_json .expected_source expect-gbps
expect_json '[.expected_algo, .expected_protocol, .expected_algo_source] | tostring' '["ring","Simple","model"]'
# --offering: the catalog's fabric through the collective model
cf audit --format json --offering no-such-offering "$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt"; expect_rc 2
# case 26 (2 x 4 H100, 4 x 200G) judged against an 8 x 400G HGX H100 offering (IB): nodes are
# not shown, so the ring reference is 3200/8 x ETA_IB (352 GB/s at 0.88) and 95.10 is far below it
cf audit --format json --offering coreweave-hgx-h100 "$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt"; expect_rc 0
expect_json .expected_source offering
expect_near "$(jq -r .expected_busbw_GBps "$T/out")" "$(calc "3200 / 8 * $(K ETA_IB)")" 0.005
expect_json '[.findings[].code] | index("BUSBW_BELOW_LINK_RATE") != null' true
