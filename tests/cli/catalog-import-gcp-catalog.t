# `import --format gcp-catalog`: a real page excerpt of GCP's Cloud Billing
# Catalog SKUs (tests/data/import/gcp-catalog/skus.json, provenance in its
# README): the A100 GPU, A2 core and A2 RAM SKUs price a2-highgpu-8g
# (data/skypilot-map.csv gcp_machine: 8 GPUs, 96 vCPUs, 680 GiB) per region;
# a bad price or a missing field is FILE:LINE:COLUMN with its JSON path,
# exit 3, catalog unchanged.
. tests/cli/catalog-lib.sh
F=tests/data/import/gcp-catalog/skus.json
cf list --format csv; cp "$T/out" "$T/before.csv"
# 8 x 2.933908 + 96 x 0.031611 + 680 x 0.004237 = 29.38708 per hour, / 8 =
# 3.673385 per GPU-hour (the same 29.38708 as SkyPilot's gcp vms.csv sum of
# the a2-highgpu-8g host row and the A100 x8 row in us-central1).
cf import --format gcp-catalog "$F" --as-of 2026-11-30; expect_rc 0
expect_out "(Cloud Billing Catalog SKUs, cloud gcp: Google Cloud), 3 SKUs; prices dated 2026-11-30 (--as-of)"
# No catalog offering is a2-highgpu-8g: nothing priced, said without a list.
expect_out "priced 0 offerings of the catalog (no type in the file maps to one)"
grep -q ':$' "$T/out" && grep -n ':$' "$T/out" | grep -v "of your own" && fail "a summary line ends in a dangling colon"
# The map names the GPU (A100 x8); gpus.csv's name needs the form factor.
expect_out "gcp-catalog-gcp-a2-highgpu-8g      A100 (form factor not stated) x8 3.673 USD/GPU-h on-demand"
expect_out "skipped: 0 SKUs of no machine in data/skypilot-map.csv (gcp_machine), 0 GPU SKUs of no mapped machine, 0 commitment SKUs, 0 regions missing a part"
cf show gcp-catalog-gcp-a2-highgpu-8g --format json; expect_rc 0
expect_json '.price_on_demand_gpu_hr' 3.673385
expect_json '.price_spot_gpu_hr' null
expect_json '.gpus_per_node' 8
expect_json '.multinode' null
expect_json '.regions | join(",")' us-central1,us-east1,us-west1
expect_json '.notes | test("GPU \\+ vCPU \\+ RAM SKUs of the same region")' true
cf import --reset; expect_rc 0
# Bad prices, at the field (line 29 is the A100's units, line 30 its nanos).
sed '0,/"units": "2"/s//"units": "2x"/' "$F" > "$T/bad.json"
cf import --format gcp-catalog "$T/bad.json"; expect_rc 3
expect_err "bad.json:29:34: skus[0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.units: expected a non-negative number of USD (a decimal string, as the API writes it), got the string \"2x\""
sed '0,/"nanos": 933908000/s//"nanos": "lots"/' "$F" > "$T/bad.json"
cf import --format gcp-catalog "$T/bad.json"; expect_rc 3
expect_err "bad.json:30:34: skus[0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.nanos: expected an integer number of nano-USD"
# A used SKU without its regions; not a page at all; broken JSON.
sed '0,/"serviceRegions"/s//"regions_"/' "$F" > "$T/bad.json"
cf import --format gcp-catalog "$T/bad.json"; expect_rc 3
expect_err "bad.json:3:9: skus[0].serviceRegions: required"
sed 's/"skus"/"items"/' "$F" > "$T/bad.json"
cf import --format gcp-catalog "$T/bad.json"; expect_rc 3
expect_err "bad.json:1:1: expected an object with a \"skus\" array"
head -c 300 "$F" > "$T/bad.json"
cf import --format gcp-catalog "$T/bad.json"; expect_rc 3; expect_err "bad.json:9:16: malformed JSON"
cf list --format csv; cmp -s "$T/before.csv" "$T/out" || fail "a rejected gcp-catalog import changed the catalog"
# A page with the RAM and core SKUs but not the GPU one: nothing priced.
jq '{skus: [.skus[1], .skus[2]]}' "$F" > "$T/cpu.json"
cf import --format gcp-catalog "$T/cpu.json" --as-of 2026-11-30; expect_rc 0
expect_out "added 0 offerings of your own"
# Usage: another cloud.
cf import --format gcp-catalog "$F" --cloud aws; expect_rc 2; expect_err "a Cloud Billing Catalog file is GCP's"
