# fabrics as sold (issue 23, item 4): besides every family at one line
# rate, `fabrics` compares the bundles the catalog actually sells with the
# GPU, each naming the offerings that sell it and their cheapest price. The
# expectations are read from the catalog itself (`list`, `show --format
# json`), never a price or a row written here: other work edits
# data/offerings.csv.
cf list --format json; expect_rc 0
cp "$T/out" "$T/list.json"
# The bundles of a GPU from the catalog, as "net|nics|gbps" lines (nics
# "null" when not stated): multi-node offerings whose network, Gbit/s per
# node and GPUs per node are stated.
bundles_of() {  # GPU GPUS_PER_NODE
    jq -r --arg g "$1" --argjson k "$2" '[.[] | select(((.gpu // "") | ascii_downcase) == ($g | ascii_downcase)
        and .multinode != "no" and .network != null and .network != "none"
        and .network_gbps_per_node != null and .network_gbps_per_node > 0 and .gpus_per_node == $k)
        | "\(.network)|\(.nics_per_node)|\(.network_gbps_per_node)"] | unique | .[]' "$T/list.json"
}

cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16 --format json; expect_rc 0
cp "$T/out" "$T/h100.json"
# Every bundle of the catalog, and no other.
want=$(bundles_of H100-SXM 8 | sort)
got=$(jq -r '.sold.bundles[] | "\(.network)|\(.nics_stated)|\(.gbps_per_node)"' "$T/h100.json" | sort)
[ -n "$want" ] || fail "the catalog sells no H100-SXM bundle with a stated line rate"
[ "$want" = "$got" ] || fail "bundles differ from the catalog's: want [$want] got [$got]"
# Each offering a bundle names exists and sells it; the bundle's price is
# the cheapest USD list price (on-demand, else reserved) among them.
n=$(jq '.sold.bundles | length' "$T/h100.json")
i=0
while [ "$i" -lt "$n" ]; do
    b=$(jq -c ".sold.bundles[$i]" "$T/h100.json")
    cheapest=""
    for id in $(printf '%s' "$b" | jq -r '.offerings[]'); do
        cf show "$id" --format json; expect_rc 0
        expect_json '.gpu' H100-SXM
        expect_json '.network' "$(printf '%s' "$b" | jq -r .network)"
        expect_json '.network_gbps_per_node' "$(printf '%s' "$b" | jq -r .gbps_per_node)"
        expect_json '.nics_per_node' "$(printf '%s' "$b" | jq -r .nics_stated)"
        p=$(jq -r 'if .currency != "USD" then empty else (.price_on_demand_gpu_hr // .price_reserved_gpu_hr // empty) end' "$T/out")
        if [ -n "$p" ] && { [ -z "$cheapest" ] || awk -v a="$p" -v b="$cheapest" 'BEGIN { exit !(a < b) }'; }; then
            cheapest=$p
        fi
    done
    shown=$(printf '%s' "$b" | jq -r '.price_gpu_hr')
    [ "$shown" = "${cheapest:-null}" ] || fail "bundle $i: price $shown, cheapest of its offerings ${cheapest:-none}"
    i=$((i + 1))
done
# The money against the baseline bundle: break-even = price_b x G_b / G_f,
# worth = break-even - price_b, job cost = price x GPU-hours (the JSON
# writes 10 significant digits: relative tolerances).
jq -e '.sold as $s | $s.bundles[$s.baseline] as $b | $b.price_gpu_hr != null and
       ([$s.bundles[] | select(.gpu_hours != null) |
         ((.break_even_price_gpu_hr - $b.price_gpu_hr * $b.gpu_hours / .gpu_hours) | fabs) < 1e-8 * .break_even_price_gpu_hr and
         ((.worth_gpu_hr - (.break_even_price_gpu_hr - $b.price_gpu_hr)) | fabs) < 1e-8 * .break_even_price_gpu_hr and
         (.price_gpu_hr == null or ((.job_cost - .price_gpu_hr * .gpu_hours) | fabs) < 1e-6 * .job_cost)] | all)' \
    "$T/h100.json" > /dev/null || fail "the money does not follow its formula"
# The same premium formula as the equal-rate rows, against the baseline bundle.
jq -e '.sold as $s | $s.bundles[$s.baseline] as $b |
       [$s.bundles[] | select(.time_to_train_h != null) |
        ((.worth_premium_pct - 100 * ($b.time_to_train_h / .time_to_train_h - 1)) | fabs) < 1e-6] | all' \
    "$T/h100.json" > /dev/null || fail "a bundle's premium is not T_base / T - 1"
# The headline names the line rates it compares and offerings that sell them.
best=$(jq -c '.sold.bundles[.sold.best]' "$T/h100.json")
base=$(jq -c '.sold.bundles[.sold.baseline]' "$T/h100.json")
# A bundle whose NICs are not stated is named by its Gbit/s per node alone.
words() { printf '%s' "$1" | jq -r 'if .nics_stated == null
    then "\(.gbps_per_node) Gbit/s (NICs not stated) (\(.offerings[0])"
    else "\(.nics_stated) x \(.nic_gbps) Gbit/s (\(.offerings[0])" end'; }
h=$(jq -r '.sold.headline' "$T/h100.json")
case "$h" in *"$(words "$best")"*"over "*"$(words "$base")"*) ;; *) fail "headline lacks the line rates: $h" ;; esac
case "$h" in *"USD/GPU-h"*) ;; *) fail "headline has no price: $h" ;; esac
# The text: the headline wrapped, a row per bundle, every line in 79 columns.
cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16; expect_rc 0
expect_text "$(printf '%s' "$h" | cut -c1-60)"
expect_text "At equal line rate: llama3-8b on 16 nodes"
sed -n '/^fabric  NICs/,/^As sold: each/p' "$T/out" > "$T/sold"
[ "$(grep -c '^[a-z]' "$T/sold")" = "$((n + 1))" ] || fail "not one text row per bundle"
first=$(printf '%s' "$best" | jq -r '.offerings[0]')
grep -qF "$first" "$T/sold" || fail "the table lacks $first"
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 79 for l in open(sys.argv[1], encoding="utf-8")))' "$T/out" ||
    fail "a line is wider than 79 columns"
# A family the catalog names without a line rate is said so, not modelled.
for net in $(jq -r '.sold.not_sold[] | select(.n_unstated > 0) | .network' "$T/h100.json"); do
    id=$(jq -r ".sold.not_sold[] | select(.network == \"$net\") | .unstated_offerings[0]" "$T/h100.json")
    cf show "$id" --format json; expect_rc 0
    expect_json '.network' "$net"
    expect_json_true '.network_gbps_per_node == null or .gpus_per_node == null'
done

# A GPU the catalog sells with one family only: the answer says there is no
# as-sold comparison and names the families not sold (the GPU is found in
# the catalog, not written here).
one=""
for g in $(jq -r '[.[] | select(.multinode != "no" and .network_gbps_per_node != null and .gpus_per_node != null
                         and .network != null and .network != "none" and .gpu != null) | .gpu] | unique | .[]' "$T/list.json"); do
    k=$(jq -r --arg g "$g" '[.[] | select(.gpu == $g and .gpus_per_node != null)] | .[0].gpus_per_node' "$T/list.json")
    fams=$(bundles_of "$g" "$k" | cut -d'|' -f1 | sort -u | wc -l)
    nb=$(bundles_of "$g" "$k" | wc -l)
    if [ "$fams" = 1 ] && [ "$nb" = 1 ]; then one=$g; break; fi
done
[ -n "$one" ] || fail "the catalog has no GPU sold with a single bundle to test"
# The equal-rate view needs a line rate; the GPU found may state none per NIC.
cf fabrics --workload llama3-8b --gpu "$one" --nics 8 --nic-gbps 400 --nodes 4 --format json; expect_rc 0
expect_json '.sold.bundles | length' 1
expect_json '.sold.best' null
# Every family but the one sold is listed as not sold.
expect_json_true '[.sold.bundles[0].network] as $b | ([.sold.not_sold[].network] | index($b[0])) == null and (.sold.not_sold | length) >= 5'
cf fabrics --workload llama3-8b --gpu "$one" --nics 8 --nic-gbps 400 --nodes 4; expect_rc 0
expect_text "no other bundle with a stated line rate, so there is no as-sold comparison"
expect_text "Not sold with $one as a multi-node bundle with a stated line rate:"

# A GPU with no bundle at all: nothing invented.
cf fabrics --workload cfd-stencil --gpu L4 --nics 1 --nic-gbps 100 --nodes 4 --format json; expect_rc 0
if [ -z "$(bundles_of L4 8)" ]; then
    expect_json '.sold.bundles | length' 0
    expect_json '.sold.baseline' null
    expect_json '.sold.not_sold | length' 6
fi

# A user's import is part of the catalog the bundles come from.
cf import tests/data/plan-stale-price.csv; expect_rc 0
cf list --provider TestYpsilon --format json; expect_rc 0
uid=$(jq -r '.[0].id' "$T/out"); ugpu=$(jq -r '.[0].gpu' "$T/out"); unet=$(jq -r '.[0].network' "$T/out")
ugbps=$(jq -r '.[0].network_gbps_per_node' "$T/out"); umulti=$(jq -r '.[0].multinode' "$T/out")
if [ "$unet" != null ] && [ "$ugbps" != null ] && [ "$umulti" != no ]; then
    cf fabrics --workload llama3-8b --gpu "$ugpu" --nodes 4 --format json; expect_rc 0
    expect_json_true "[.sold.bundles[] | .offerings | index(\"$uid\")] | any(. != null)"
fi

# --margin: plan's deadline rule. The default is plan's for the workload;
# every chosen row meets the deadline with it; a bad value is refused as
# plan refuses it.
cf plan --workload llama3-8b --deadline 720 --top 1 --format json
pm=$(jq -r .margin_pct "$T/out")
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --format json; expect_rc 0
expect_json .margin_pct "$pm"
expect_json_true "[.fabrics[], .sold.bundles[] | select(.time_to_train_h != null) | .time_to_train_h * (1 + $pm / 100) <= 720] | all"
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --margin 0 --format json; expect_rc 0
expect_json .margin_pct 0
# With no margin no family needs more nodes than with it.
cp "$T/out" "$T/m0.json"
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --format json
jq -e --slurpfile z "$T/m0.json" '[range(0; .fabrics | length) as $i | (.fabrics[$i].nodes // 1e9) >= ($z[0].fabrics[$i].nodes // 1e9)] | all' \
    "$T/out" > /dev/null || fail "a margin lowered a node count"
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --margin 500
expect_rc 2; expect_err "--margin"
cf plan --workload llama3-8b --deadline 720 --margin 500
perr=$(cat "$T/err" | head -1 | sed 's/clusterfit plan: //')
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --margin 500
expect_err "$perr"

# Under a deadline a bundle may train in time on no node count: the
# baseline is then a bundle with a result, whenever one has a result; when
# none has, the headline says so (no worth against a row without one).
for dl in 720 2160 5000; do
    cf fabrics --workload deepseek-v3 --gpu H100-SXM --deadline "$dl" --format json; expect_rc 0
    if jq -e '[.sold.bundles[] | .nodes != null] | any' "$T/out" > /dev/null; then
        expect_json_true '.sold.bundles[.sold.baseline].nodes != null'
    else
        expect_json_true '.sold.best == null and (.sold.headline | test("^As sold: none of the [0-9]+ bundles? the catalog sells with H100-SXM has a result here"))'
    fi
done
