# Issue 22: a shipped price snapshot (data/prices/) whose AcceleratorCount
# contradicts the mapped offering fails data/check.py with FILE:LINE and the
# reason; the shipped rows say where each price comes from (price_source) and
# the provider table's facts reach `providers`, `show` and `plan`.
command -v python3 > /dev/null || exit 0
mkdir -p "$T/data/prices/nebius"
cp data/gpus.csv data/offerings.csv data/skypilot-map.csv data/providers.csv "$T/data/"
cp data/prices/nebius/vms.csv "$T/data/prices/nebius/"
grep '^cloud\|^nebius' data/prices/provenance.csv > "$T/data/prices/provenance.csv"
python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "the copy failed: $(cat "$T/err")"
line=$(grep -n 'gpu-h100-sxm_8gpu-128vcpu-1600gb,H100,8,' "$T/data/prices/nebius/vms.csv" | cut -d: -f1)
sed -i 's/gpu-h100-sxm_8gpu-128vcpu-1600gb,H100,8,/gpu-h100-sxm_8gpu-128vcpu-1600gb,H100,4,/' "$T/data/prices/nebius/vms.csv"
! python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "a contradicting count passed"
grep -q "data/prices/nebius/vms.csv:$line:3: AcceleratorCount 4 contradicts offering 'nebius-h100-cluster'" "$T/err" \
    || fail "message: $(cat "$T/err")"
# Every priced row names its price source; a row without a price names none.
cf list --format json; expect_rc 0; cp "$T/out" "$T/list.json"
python3 - "$T/list.json" <<'PY' || fail "price_source"
import json, sys
rows = json.load(open(sys.argv[1]))
for r in rows:
    priced = r["price_on_demand_gpu_hr"] is not None or r["price_reserved_gpu_hr"] is not None \
        or r["price_spot_gpu_hr"] is not None
    assert (r["price_source"] is not None) == priced, (r["id"], r["price_source"], priced)
PY
# The provider table: CoreWeave's published rating in providers, show and plan.
cf providers --format json; expect_rc 0; cp "$T/out" "$T/p.json"
python3 - "$T/p.json" <<'PY' || fail "providers rating"
import json, sys
p = {x["provider"]: x for x in json.load(open(sys.argv[1]))}
assert p["CoreWeave"]["rating"]["tier"] == "Platinum", p["CoreWeave"]
assert "sales-contact" in p["Crusoe"]["provisioning"], p["Crusoe"]
assert "waitlist" in p["NVIDIA DGX Cloud Lepton"]["provisioning"]
assert p["Hyperstack"]["offerings"] >= 0 and p["Hyperstack"]["multinode"] == "yes"
PY
cf show coreweave-hgx-h100; expect_rc 0
expect_out "ClusterMAX 2.0 Platinum, 2025-11-06"; expect_out "price_source             provider page"
cf plan --workload llama3-70b --provider CoreWeave --format json; expect_rc 0; cp "$T/out" "$T/plan.json"
python3 - "$T/plan.json" <<'PY' || fail "plan provider_rating"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranked"] and all(r["provider_rating"] == "ClusterMAX 2.0 Platinum, 2025-11-06" for r in d["ranked"])
assert all(r["price_source"] == "provider page" for r in d["ranked"])
PY
