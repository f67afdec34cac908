# fabrics as sold (fixes of issue 23 item 4): an offering's max_cluster_gpus
# bounds the node count its bundle is evaluated at. A bundle whose every
# offering states its largest cluster carries largest_sold_nodes (the
# largest / GPUs per node); at --nodes beyond it the row is flagged
# larger_than_sold and its note says no such cluster is sold; under
# --deadline its search stops there (deadline_needs_more_than_sold when the
# deadline needs more). A bundle priced only in another currency shows that
# price in its own currency, never compared (docs/fabrics.md). The
# expectations come from the catalog (`list`), not from numbers written here.
cf import tests/data/fabrics-sold-limits.csv; expect_rc 0
cf list --format json; expect_rc 0
cp "$T/out" "$T/list.json"
# Per bundle "net|nics|gbps" -> the largest nodes sold, or null when an
# offering of it states no largest cluster.
limits() {
    jq -r '[.[] | select(.gpu == "H100-SXM" and .multinode != "no" and .network != null
        and .network != "none" and .network_gbps_per_node != null and .network_gbps_per_node > 0
        and .gpus_per_node == 8)] | group_by("\(.network)|\(.nics_per_node)|\(.network_gbps_per_node)")
        | .[] | "\(.[0].network)|\(.[0].nics_per_node)|\(.[0].network_gbps_per_node)=\(
          if any(.[]; (.max_cluster_gpus // 0) < 1) then null
          else ([.[].max_cluster_gpus] | max / 8 | floor) end)"' "$T/list.json" | sort
}
want=$(limits)
printf '%s\n' "$want" | grep -q '^roce|4|1600=4$' || fail "test set-up: the imported bundle is not bounded at 4: $want"

cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16 --format json; expect_rc 0
cp "$T/out" "$T/n16.json"
got=$(jq -r '.sold.bundles[] | "\(.network)|\(.nics_stated)|\(.gbps_per_node)=\(.largest_sold_nodes)"' "$T/n16.json" | sort)
[ "$want" = "$got" ] || fail "largest_sold_nodes differ from the catalog's: want [$want] got [$got]"
# Flagged exactly when evaluated beyond what is sold, with a note that says so.
expect_json_true '[.sold.bundles[] | ((.largest_sold_nodes != null and .nodes != null and .nodes > .largest_sold_nodes)
    == (.flags | index("larger_than_sold") != null))] | all'
expect_json_true '[.sold.bundles[] | select(.flags | index("larger_than_sold")) | .note | test("more than any of its offerings rents")] | all'
expect_json_true '[.sold.bundles[] | select(.network == "roce" and .nics_stated == 4) | .flags | index("larger_than_sold")] | .[0] != null'
# At 2 nodes the imported bundle is within what is sold.
cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 2 --format json; expect_rc 0
expect_json_true '[.sold.bundles[] | select(.network == "roce" and .nics_stated == 4) | .flags | index("larger_than_sold")] | .[0] == null'
# Under a deadline no bounded bundle is chosen at more nodes than sold; one
# whose deadline needs more says so.
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 720 --format json; expect_rc 0
expect_json_true '[.sold.bundles[] | select(.largest_sold_nodes != null) | .nodes == null or .nodes <= .largest_sold_nodes] | all'
expect_json_true '[.sold.bundles[] | select(.network == "roce" and .nics_stated == 4) |
    (.nodes != null) or (.flags | index("deadline_needs_more_than_sold") != null)] | .[0]'
expect_json_true '[.sold.bundles[] | select(.flags | index("deadline_needs_more_than_sold")) | .note | test("the deadline needs more")] | all'

# Priced only in EUR: no USD price, the EUR one shown beside, not compared
# (worth stays the USD a renter may pay over the baseline's USD price).
expect_json_true '[.sold.bundles[] | select(.network == "roce" and .nics_stated == 4)] | .[0] |
    .price_gpu_hr == null and .price_other.currency == "EUR"
    and .price_other.price_gpu_hr == 2.1 and .price_other.offering == "testz-h100-roce-eur"
    and (.note | test("priced only in EUR .*not compared"))'
# Every bundle with a USD price has no other one.
expect_json_true '[.sold.bundles[] | select(.price_gpu_hr != null) | .price_other == null] | all'
cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16; expect_rc 0
expect_out "2.10 EUR"
expect_out "priced only in"
expect_out "more than any of its"
