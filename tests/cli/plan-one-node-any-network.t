# One-node plans rank every offering whose node holds the job, whatever its
# network: inside one node the scale-out network does not matter (the
# library's one-node rule). Single 8 x H100 boxes that state no network
# (Vultr, DigitalOcean in data/offerings.csv) are ranked on one
# node, flagged network_unknown and said so in words; a job that needs two
# nodes leaves them unranked with that reason.
cf plan --workload llama3-8b --format json; expect_rc 0
for id in vultr-bm-8x-h100 digitalocean-gpu-droplet-h100x8; do
    expect_json "[.ranked[] | select(.offering_id == \"$id\") | .nodes] | .[0]" 1
    expect_json_true "[.ranked[] | select(.offering_id == \"$id\") | .flags | index(\"network_unknown\") != null] | .[0]"
done
# Every offering is either ranked or unranked: the default has no multinode filter.
n=$(jq '(.ranked | length) + (.unranked | length)' "$T/out")
cf list --format json; expect_rc 0
[ "$n" = "$(jq length "$T/out")" ] || fail "plan covers $n offerings, list has $(jq length "$T/out")"
cf plan --workload llama3-8b; expect_rc 0
expect_out "network between nodes not stated: one node only"
# llama3-70b needs two H100 nodes: the box without a stated network cannot serve it.
cf plan --workload llama3-70b --format json; expect_rc 0
expect_json '[.unranked[] | select(.offering_id == "vultr-bm-8x-h100") | .reasons[0]] | .[0]' \
    "does not fit in memory on one node; one node only: the network between nodes is not stated (network unknown)"
