# Issue 22 item 2: the snapshots of the SkyPilot clouds shipped in the second
# pipeline pass (runpod, simplepod, cudo, mithril, shadeform, primeintellect).
# A mapped type whose AcceleratorCount contradicts its offering fails
# data/check.py with FILE:LINE; a type the map lists without an offering (a
# resale or auction price) prices nothing, so its count is not checked, and
# such an entry must say why; the shipped rows show where their price is from.
command -v python3 > /dev/null || exit 0
mkdir -p "$T/data"
cp data/gpus.csv data/offerings.csv data/skypilot-map.csv data/providers.csv "$T/data/"
cp -r data/prices "$T/data/"
python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "the copy failed: $(cat "$T/err")"
# simplepod-rtx4090 is one GPU: its mapped type counting two is refused at its line.
line=$(grep -n '^gpu_1x_rtx4090_32,RTX4090,1,' "$T/data/prices/simplepod/vms.csv" | cut -d: -f1)
sed -i 's/^gpu_1x_rtx4090_32,RTX4090,1,/gpu_1x_rtx4090_32,RTX4090,2,/' "$T/data/prices/simplepod/vms.csv"
! python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "a contradicting count passed"
grep -q "data/prices/simplepod/vms.csv:$line:3: AcceleratorCount 2 contradicts offering 'simplepod-rtx4090'" "$T/err" \
    || fail "message: $(cat "$T/err")"
cp data/prices/simplepod/vms.csv "$T/data/prices/simplepod/"
# Shadeform's resale of Hyperstack's 8x H100 SXM maps to no offering: a
# changed count there prices and contradicts nothing.
sed -i 's/^hyperstack_H100-sxm5x8,H100,8.0,/hyperstack_H100-sxm5x8,H100,4.0,/' "$T/data/prices/shadeform/vms.csv"
python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "an unmapped type was checked: $(cat "$T/err")"
# A listed type without an offering and without the reason is refused.
sed -i 's/^\(instance,mithril\/h100-80gb.sxm.8x_104cpu,,\)[^,]*,/\1,/' "$T/data/skypilot-map.csv"
! python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "an unmapped type without notes passed"
grep -q "skypilot-map.csv:[0-9]*:4: notes: an instance type mapped to no offering says why" "$T/err" \
    || fail "message: $(cat "$T/err")"
# cudo-l40s had no price of its own: the Cudo snapshot's L40S row prices it.
cf show cudo-l40s --format json; expect_rc 0; cp "$T/out" "$T/cudo.json"
python3 - "$T/cudo.json" <<'PY' || fail "cudo-l40s price"
import json, sys
o = json.load(open(sys.argv[1]))
o = o[0] if isinstance(o, list) else o
assert abs(o["price_on_demand_gpu_hr"] - 0.8994) < 1e-9, o["price_on_demand_gpu_hr"]
assert o["price_source"].startswith("pipeline snapshot skypilot-catalog@16f33dd5f241 (cudo "), o["price_source"]
PY
# A pod priced on RunPod's page within six months keeps that price.
cf show runpod-secure-pod-h100-sxm; expect_rc 0
expect_out "price_source             provider page"
