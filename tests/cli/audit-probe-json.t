# audit reads the probe's JSON (clusterfit probe --format json) as one more
# input part: its RDMA ports are the node's NICs, which drive the expected
# busbw (lib/audit/probe_in.c); states in ibstat's words ("Active", "Disabled"), so the
# audit's port rules read them alike. A file that starts with '{' but is no probe
# report is routed as usual.
D=$ROOT/tests/data/probe
C=$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt
"$CF" probe --sysroot "$D/h100-ib" --format json > "$T/healthy.json"
"$CF" probe --sysroot "$D/h100-ib-faulty" --format json > "$T/faulty.json"
cf audit "$T/faulty.json" --format json; expect_rc 0
expect_json '[.parts[].kind] | join(" ")' probe
expect_json '.parts[0].ports | length' 8
expect_json '.parts[0].ports[5] | [.ca, .state, .rate_gbps, .link_layer] | map(tostring) | join(" ")' "mlx5_5 Active 200 InfiniBand"
expect_json '.parts[0].ports[3] | [.state, .physical_state] | join(" ")' "Down Disabled"
expect_json '.parts[0].ports[3].active' false
expect_json .node_nics 7
expect_json .node_nics_source probe
# Beside an nccl-tests run: the node's active ports give the expected busbw
# (8 x 400 G healthy, 6 x 400 + 200 faulty; no GPU shown: the line rate / 8 x
# ETA_IB, 352 and 286 GB/s at 0.88).
cf audit "$C" --format json; expect_json .expected_busbw_GBps null
cf audit "$C" "$T/healthy.json" --format json
expect_json .expected_source probe
expect_json .node_nics 8
expect_near "$(jq -r .expected_busbw_GBps "$T/out")" "$(calc "3200 / 8 * $(K ETA_IB)")" 0.005
cf audit "$C" "$T/faulty.json" --format json
expect_near "$(jq -r .expected_busbw_GBps "$T/out")" "$(calc "2600 / 8 * $(K ETA_IB)")" 0.005
# On standard input too.
cf_in "$T/healthy.json" audit --format json; expect_json .node_nics 8
# A cluster report: the node with the fewest active Gbit/s bounds the ring.
jq -n --slurpfile a "$T/healthy.json" --slurpfile b "$T/faulty.json" \
    '{kind: "cluster", ranks: 2, nodes: [$a[0], $b[0]], pairs: [], findings: []}' > "$T/cluster.json"
cf audit "$C" "$T/cluster.json" --format json
expect_json .node_nics 7
expect_json .expected_source probe
# Not a probe report: JSON of another kind, and a log whose first line is '{'.
printf '{"kind": "other", "findings": []}\n' > "$T/other.json"
cf audit "$T/other.json" --format json; expect_rc 1
expect_json '[.findings[].code] | join(" ")' NO_RECOGNIZED_INPUT
{ printf '{\n'; cat "$C"; } > "$T/brace.txt"
cf audit "$T/brace.txt" --format json
expect_json .busbw_GBps 95.1
expect_json '[.parts[].kind] | join(" ")' nccl-tests
