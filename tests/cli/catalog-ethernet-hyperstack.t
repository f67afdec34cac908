# Issue 22 item 3: Hyperstack's 8x H100 SXM VM (a type Shadeform's snapshot
# lists) is sold multi-node over SR-IOV Ethernet, up to 350 Gbit/s per VM
# (Hyperstack's flavor docs and SR-IOV blog, in the row's source_url): a
# plain-Ethernet multi-node row that `plan` ranks on more than one node, with
# the cluster size it does not know flagged.
cf list --multinode yes --network tcp --format json; expect_rc 0
expect_json '[.[] | select(.id == "hyperstack-h100-sxm") | .network_gbps_per_node] | .[0]' 350
expect_json '[.[] | select(.id == "hyperstack-h100-sxm") | .gpus_per_node] | .[0]' 8
cf plan --workload llama3-70b --deadline 2160 --provider Hyperstack --format json; expect_rc 0
expect_json '[.ranked[] | select(.offering_id == "hyperstack-h100-sxm") | .nodes > 1] | .[0]' true
expect_json '[.ranked[] | select(.offering_id == "hyperstack-h100-sxm") | .sticker_price_gpu_hr] | .[0]' 3.2
expect_json_true '[.ranked[] | select(.offering_id == "hyperstack-h100-sxm") | .flags | index("max_cluster_unknown") != null] | .[0]'
