# An offering that states its network family (ib) but not its Gbit/s per node
# is planned on one node, and every reason and flag says what is missing: the
# line rate, not the network (the trial's together-h100-cluster,
# coreweave-hgx-h200 and fluidstack-h200-cluster were told "the network
# between nodes is not stated (network unknown)"). The row is a user import,
# tests/data/plan-network-gbps-unknown.csv (invented: provider TestZeta,
# network ib, network_gbps_per_node and nics_per_node empty).
ROWS=tests/data/plan-network-gbps-unknown.csv
cf import "$ROWS"; expect_rc 0; expect_out "imported 1 offering"
# llama3-8b fits one H100 node: ranked there, both flags (network_unknown
# stays for what every one-node-for-want-of-a-network row has).
cf plan --workload llama3-8b --provider TestZeta --format json; expect_rc 0
expect_json '.ranked[0].offering_id' testz-h100-ib-nogbps
expect_json '.ranked[0].nodes' 1
expect_json_true '.ranked[0].flags | index("network_unknown") != null'
expect_json_true '.ranked[0].flags | index("network_gbps_unknown") != null'
cf plan --workload llama3-8b --provider TestZeta; expect_rc 0
expect_out "network's Gbit/s per node not"
expect_no_out "network between nodes not stated"
# llama3-70b needs two nodes: unranked, the reason names the line rate.
cf plan --workload llama3-70b --provider TestZeta --format json; expect_rc 0
expect_json '.unranked[0].reasons[0]' \
    "does not fit in memory on one node; one node only: the network's Gbit/s per node is not stated (network ib, network_gbps_per_node unknown)"
expect_json '.ranked | length' 0
# A deadline one node misses: the same words inside the parentheses.
cf plan --workload llama3-8b --provider TestZeta --deadline 24 --format json; expect_rc 0
expect_json '.unranked[0].reasons[0]' \
    "deadline 24 h not met on one node (the network's Gbit/s per node is not stated: network ib, network_gbps_per_node unknown)"
# A shipped box with no network at all keeps the old words and no gbps flag.
cf plan --workload llama3-8b --format json; expect_rc 0
expect_json_true '[.ranked[] | select(.offering_id == "vultr-bm-8x-h100") | .flags | index("network_gbps_unknown") == null] | .[0]'
# scale says the same in its note.
cf scale --workload llama3-8b --offering testz-h100-ib-nogbps; expect_rc 0
expect_out "states its ib network but not its"
