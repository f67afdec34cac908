# `import --format skypilot`: real excerpts of skypilot-org/skypilot-catalog
# v7 vms.csv files (tests/data/import/skypilot/, provenance in its README).
# A mapped instance type updates only the prices of its offering (lowest
# on-demand per GPU-hour across regions, SpotPrice into price_spot_gpu_hr,
# price_as_of = --as-of) as an overlay that survives rebuilds; an unmapped
# GPU type becomes a user row; CPU rows and unknown accelerators are counted.
. tests/cli/catalog-lib.sh
SKY=tests/data/import/skypilot
DB=$CLUSTERFIT_DB
# The plan's cost of the Nebius H100 cluster on shipped prices, for later.
cf plan --workload llama3-8b --provider Nebius --format json; expect_rc 0
cost_before=$(jq '.ranked[] | select(.offering_id == "nebius-h100-cluster") | .cost' "$T/out")
price_before=$(jq '.ranked[] | select(.offering_id == "nebius-h100-cluster") | .sticker_price_gpu_hr' "$T/out")
[ -n "$cost_before" ] && [ "$cost_before" != null ] || fail "nebius-h100-cluster not ranked before the import"
# AWS: p5.48xlarge at 98.32 USD per 8-GPU node in us-east-1 (and us-east-2,
# later in the file), spot 14.3773 in us-east-2; p5e has no on-demand price.
cf import --format skypilot "$SKY/aws/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "prices dated 2026-11-30 (--as-of)"
expect_out "aws-p5-48xlarge            12.29 USD/GPU-h on-demand (us-east-1), spot 1.797 (us-east-2)"
expect_out "aws-p4d-24xlarge           4.097 USD/GPU-h on-demand (us-east-1), spot 0.8489 (us-east-1)"
expect_out "aws-p5e-48xlarge           no on-demand price in the file (the catalog's prices are kept)"
expect_out "added 1 offering of your own"
expect_out "skipped: 2 rows without an accelerator"
expect_out "1 row without any price"
# 12.29 is 79 % above the shipped 6.88 (dated 2026-11-09): applied, with a
# warning naming both prices and dates; p4d's change stays under 50 %.
expect_out "warning: aws-p5-48xlarge: on-demand price 6.88 (2026-11-09) -> 12.29 USD/GPU-h (2026-11-30), +79 %"
grep -q "warning: aws-p4d" "$T/out" && fail "a price change under 50 % warned"
# The unmapped type's GPU: the map's name, with what it does not say.
expect_out "skypilot-aws-p3dn.24xlarge         V100-32GB (form factor not stated) x8 3.901 USD/GPU-h"
cf show aws-p5-48xlarge --format json; expect_rc 0
# The shipped notes and the import's note, joined with "; ".
expect_json '.notes | test("other regions exist; Prices from a SkyPilot catalog")' true
expect_json '.price_on_demand_gpu_hr' 12.29
expect_json '.price_spot_gpu_hr' 1.7971625
expect_json '.price_as_of' 2026-11-30
expect_json '.price_reserved_gpu_hr' 5.191
expect_json '.origin' shipped
expect_json '.as_of' 2026-11-09
expect_json '.notes | test("SkyPilot catalog .*p5.48xlarge H100.*lowest on-demand 12.29 USD per GPU-hour \\(us-east-1\\)")' true
# p3dn.24xlarge is not mapped: a user row, V100-32GB does not say SXM2 or
# PCIe (gpu unknown), 31.212 / 8 in us-east-1, spot 3.8094 / 8.
cf show skypilot-aws-p3dn.24xlarge --format json; expect_rc 0
expect_json '.origin' user
expect_json '.gpu' null
expect_json '.gpus_per_node' 8
expect_json '.multinode' null
expect_json '.price_on_demand_gpu_hr' 3.9015
expect_json '.price_spot_gpu_hr' 0.476175
expect_json '.currency' USD
expect_json '.provisioning | join(",")' on-demand,spot
expect_json '.regions | join(",")' ap-northeast-1,us-east-1,us-west-2
expect_json '.source_url' https://github.com/skypilot-org/skypilot-catalog/blob/master/catalogs/v7/aws/vms.csv
# The overlay survives a rebuild of the shipped rows.
sqlite3 "$DB" "UPDATE meta SET value = 'stale' WHERE key = 'shipped_hash'"
cf show aws-p5-48xlarge --format json; expect_json '.price_on_demand_gpu_hr' 12.29
[ "$(sqlite3 "$DB" "SELECT price_on_demand_gpu_hr FROM offering WHERE id = 'aws-p5-48xlarge' AND origin = 'shipped'")" = 6.88 ] || fail "the shipped row itself was changed"
# A later file with p5 at 32 USD per node (4 per GPU-hour): 67 % below the
# 12.29 just imported, warned the other way, and applied.
mkdir -p "$T/aws"; sed 's/,98.32,/,32.0,/' "$SKY/aws/vms.csv" > "$T/aws/vms.csv"
cf import --format skypilot "$T/aws/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "warning: aws-p5-48xlarge: on-demand price 12.29 (2026-11-30) -> 4 USD/GPU-h (2026-11-30), -67 %"
cf show aws-p5-48xlarge --format json; expect_json '.price_on_demand_gpu_hr' 4
cf import --format skypilot "$SKY/aws/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "warning: aws-p5-48xlarge: on-demand price 4 (2026-11-30) -> 12.29 USD/GPU-h (2026-11-30), +207 %"
# Lambda with CRLF line ends and the cloud given: A6000 is not in gpus.csv.
sed 's/$/\r/' "$SKY/lambda/vms.csv" > "$T/lambda-crlf.csv"
cf import --format skypilot "$T/lambda-crlf.csv" --cloud lambda --as-of 2026-11-30; expect_rc 0
expect_out "lambda-od-8x-h100          2.99 USD/GPU-h on-demand (europe-central-1)"
expect_out "2 rows with an accelerator"; expect_out "outside data/gpus.csv (A6000)"
cf show lambda-od-8x-h100 --format json; expect_json '.price_on_demand_gpu_hr' 2.99
# Nebius as published (CRLF): the plan ranks the clusters by the imported prices.
cf import --format skypilot "$SKY/nebius/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "nebius-h100-cluster        2.95 USD/GPU-h on-demand (eu-north1), spot 1.25 (eu-north1)"
expect_out "skipped: 40 rows without an accelerator"
cf list --provider Nebius --format json
expect_json '[.[] | select(.gpu == "L40S" and .origin == "user")] | length' 12
cf plan --workload llama3-8b --provider Nebius --format json; expect_rc 0
expect_json '.ranked[] | select(.offering_id == "nebius-h100-cluster") | .sticker_price_gpu_hr' 2.95
cost_after=$(jq '.ranked[] | select(.offering_id == "nebius-h100-cluster") | .cost' "$T/out")
expect_near "$cost_after" "$(awk -v c="$cost_before" -v p="$price_before" 'BEGIN { printf "%.6f", c * 2.95 / p }')" 0.01
# An --as-of older than the catalog's own prices does not overwrite them.
cf import --format skypilot "$SKY/aws/vms.csv" --as-of 2025-01-01; expect_rc 0
expect_out "aws-p5-48xlarge            the catalog's prices are dated after --as-of"
# Default --as-of: today (CLUSTERFIT_NOW), said in the output.
cf import --format skypilot "$SKY/nebius/vms.csv"; expect_rc 0
expect_out "prices dated 2026-12-02 (today: give --as-of for the file's own date)"
# GCP (tests/data/import/skypilot/gcp): A3 host rows carry no accelerator;
# the GPUs are priced in rows of their own (InstanceType empty). A paired
# type (data/skypilot-map.csv host_gpus) costs host + GPUs of the same
# region: a3-highgpu-8g in us-central1 (9.46006 + 36.56073) / 8 = 5.7526,
# spot lowest in us-east4 (1.70352 + 14.1056) / 8 = 1.97614.
cf import --format skypilot "$SKY/gcp/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "gcp-a3-highgpu-8g          5.753 USD/GPU-h on-demand (us-central1), spot 1.976 (us-east4)"
expect_out "gcp-a3-megagpu-8g          11.53 USD/GPU-h on-demand (us-central1), spot 2.075 (us-east4)"
expect_out "skipped: 4 rows without an accelerator"
expect_out "host rows priced with their GPUs' row of the same region (data/skypilot-map.csv host_gpus): 8"
cf show gcp-a3-highgpu-8g --format json; expect_rc 0
expect_json '.price_on_demand_gpu_hr' 5.75259875
expect_json '.price_spot_gpu_hr' 1.97614
expect_json '.notes | test("host row \\+ GPU row of the same region")' true
# A3 Ultra: host rows only, no H200 GPU row in the file: its reserved list
# price stays and nothing is overlaid.
cf show gcp-a3-ultragpu-8g --format json; expect_json '.notes | test("SkyPilot")' false
# Azure: Standard_ND96isr_H100_v5 is published with AcceleratorCount 12 (the
# VM has 8 GPUs): not applied rather than priced 12.29 * 8 / 12.
cf import --format skypilot "$SKY/azure/vms.csv" --as-of 2026-11-30; expect_rc 0
expect_out "azure-nd96asr-a100-v4      3.4 USD/GPU-h on-demand (eastus), spot 0.374 (eastus)"
expect_out "azure-nd96isr-h100-v5      the file's accelerator count differs from the offering's gpus_per_node"
expect_out "outside data/gpus.csv (K80, Radeon MI25)"
cf show azure-nd96amsr-a100-v4 --format json; expect_json '.price_on_demand_gpu_hr' 4.09625
cf show azure-nd96isr-h100-v5 --format json; expect_json '.price_on_demand_gpu_hr' 12.29
# The plan ranks the GCP offering at the imported price.
cf plan --workload llama3-8b --provider "Google Cloud" --format json; expect_rc 0
expect_json '.ranked[] | select(.offering_id == "gcp-a3-highgpu-8g") | .sticker_price_gpu_hr' 5.75259875
