# The as-sold headline leads with the renter's answer: the bundle whose job
# costs least (price x GPU-hours), computed here from the JSON's own bundles,
# and says plainly when it is also faster than the baseline (the new-user
# trial, 2026-12-b: the headline featured a bundle dearer than the baseline
# and never named the cheapest, InfiniBand at 2.11 USD/GPU-h).
words() { printf '%s' "$1" | jq -r 'if .nics_stated == null
    then "\(.gbps_per_node) Gbit/s (NICs not stated) (\(.offerings[0])"
    else "\(.nics_stated) x \(.nic_gbps) Gbit/s (\(.offerings[0])" end'; }
for wl in llama3-8b hpcg-3d-stencil; do
    cf fabrics --workload $wl --gpu H100-SXM --nodes 64 --format json; expect_rc 0
    cp "$T/out" "$T/$wl.json"
    ch=$(jq '.sold.bundles | to_entries | map(select(.value.job_cost != null and .value.job_cost > 0))
             | min_by(.value.job_cost) | .key' "$T/$wl.json")
    [ "$ch" != null ] || fail "$wl: no priced bundle to test"
    expect_json '.sold.cheapest' "$ch"
    c=$(jq -c ".sold.bundles[$ch]" "$T/$wl.json"); b=$(jq -c '.sold.bundles[.sold.baseline]' "$T/$wl.json")
    h=$(jq -r '.sold.headline' "$T/$wl.json")
    case "$h" in "As sold with H100-SXM: the job costs least on "*"$(words "$c")"*) ;;
        *) fail "$wl: the headline does not lead with the cheapest bundle: $h" ;; esac
    case "$h" in *"least on"*"at $(printf '%.2f' "$(printf '%s' "$c" | jq '.price_gpu_hr')") USD/GPU-h"*) ;;
        *) fail "$wl: the headline lacks the cheapest price: $h" ;; esac
    faster=$(jq -n --argjson c "$c" --argjson b "$b" '$c.time_to_train_h < $b.time_to_train_h and $c.job_cost < $b.job_cost and $c.is_baseline == false')
    if [ "$faster" = true ]; then
        case "$h" in *"faster than the baseline and cheaper outright"*) ;; *) fail "$wl: not said cheaper outright: $h" ;; esac
    fi
    case "$h" in *best*) fail "$wl: the headline calls a bundle best: $h" ;; esac
    cf fabrics --workload $wl --gpu H100-SXM --nodes 64; expect_rc 0
    expect_text "As sold with H100-SXM: the job costs least on"
done
