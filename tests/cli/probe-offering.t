# clusterfit probe --offering ID: the node against the catalog's promise.
D=$ROOT/tests/data/probe
# The healthy tree is what azure-nd96isr-h100-v5 promises (8 x H100, 8 x 400G IB, GDR).
cf probe --sysroot "$D/h100-ib" --offering azure-nd96isr-h100-v5 --format json; expect_rc 0
expect_json '.findings | length' 0
expect_json .offering azure-nd96isr-h100-v5
expect_json '[.offering_check[] | .fact + "=" + .verdict] | join(" ")' \
    "gpus_per_node=ok gpu=ok nics_per_node=ok network_gbps_per_node=ok gpudirect_rdma=ok"
# The faulty one: 2600 of 3200 Gbit/s active (81 %), GDR promised and off.
cf probe --sysroot "$D/h100-ib-faulty" --offering azure-nd96isr-h100-v5 --format json; expect_rc 0
expect_json '[.findings[].code] | join(" ")' "PORT_DOWN NIC_RATE_MISMATCH GDR_DISABLED OFFER_BANDWIDTH OFFER_GDR"
expect_json '[.findings[] | select(.code == "OFFER_BANDWIDTH") | .message] | .[0]' \
    "active InfiniBand ports give 2600 Gbit/s, 81 % of the 3200 the offering azure-nd96isr-h100-v5 promises"
expect_json '[.offering_check[] | select(.fact == "network_gbps_per_node") | .found] | .[0]' 2600
# EFA: the p5 tree is an aws-p5-48xlarge (32 EFA NICs, 3200 Gbit/s) ...
cf probe --sysroot "$D/p5-efa" --offering aws-p5-48xlarge --format json; expect_rc 0
expect_json '.findings | length' 0
# ... but not an aws-p5e-48xlarge (H200): exit 1 (an error finding).
cf probe --sysroot "$D/p5-efa" --offering aws-p5e-48xlarge --format json; expect_rc 1
expect_json '[.findings[].code] | join(" ")' OFFER_GPU_MODEL
expect_json '.findings[0].message' "GPU 0000:18:00.0 is H100-SXM (NVIDIA H100 80GB HBM3), the offering aws-p5e-48xlarge has H200-SXM"
# An InfiniBand node rented as EFA: no EFA port, no bandwidth.
cf probe --sysroot "$D/h100-ib" --offering aws-p5-48xlarge --format json; expect_rc 1
expect_json '[.findings[].code] | join(" ")' "OFFER_NIC_COUNT OFFER_BANDWIDTH"
# GPUDirect-TCPXO NICs are not RDMA devices: said, not judged.
cf probe --sysroot "$D/h100-ib" --offering gcp-a3-megagpu-8g --format json; expect_rc 0
expect_json '[.offering_check[] | select(.fact == "nics_per_node") | .verdict] | .[0]' "not compared (not RDMA devices)"
cf probe --sysroot "$D/h100-ib" --offering nope; expect_rc 2
expect_err "no offering 'nope'"
cf probe --sysroot "$D/h100-ib-faulty" --offering azure-nd96isr-h100-v5; expect_rc 0
expect_out "offering azure-nd96isr-h100-v5: 5 fact(s) compared"
expect_text "warning OFFER_GDR: GPUDirect RDMA is off, the offering azure-nd96isr-h100-v5 promises it"
