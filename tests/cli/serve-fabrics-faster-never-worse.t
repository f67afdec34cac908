# A faster fabric never serves worse (new-user trial: `fabrics --workload
# deepseek-v3-serve --nodes 4` ranked InfiniBand below GPUDirect-TCPX; the
# IB search kept only the prefill pool best per GPU, a 4-node one that left
# no room for a decode pool, and missed the disaggregated layout TCPX found).
# The layout search is the same for every family, so over every serve
# preset, node count and line rate: ib >= roce >= each of efa, tcpx, tcpxo
# >= tcp in output tokens/s per GPU. The only slack is the deployment's own
# near-tie rule (CF_PLAN_NEAR_TIE_PCT: within it the fewest nodes win).
tie=$(sed -n 's/^#define CF_PLAN_NEAR_TIE_PCT *\([0-9.]*\).*/\1/p' "$ROOT/include/clusterfit/plan.h")
[ -n "$tie" ] || fail "CF_PLAN_NEAR_TIE_PCT not found"
for wl in deepseek-v3-serve llama3-70b-serve llama3-405b-serve qwen3-235b-serve; do
    for gpu in H100-SXM B200; do
        for nodes in 2 3 4 8 16; do
            for rate in "8 400" "1 100" "2 200"; do
                set -- $rate
                cf fabrics --workload "$wl" --gpu "$gpu" --nodes "$nodes" --nics "$1" --nic-gbps "$2" --format json
                expect_rc 0
                jq -e --argjson tie "$tie" '
                    .gpus_per_node as $g | (1 - $tie / 100) as $k |
                    (.fabrics | map({key: .network, value: (if .nodes then
                        .output_tokens_per_s / (.nodes * $g) else 0 end)}) | from_entries) as $p |
                    $p.ib >= $p.roce * $k and
                    ([$p.efa, $p.tcpx, $p.tcpxo] | all(. <= $p.roce / $k and . >= $p.tcp * $k))' \
                    "$T/out" > /dev/null || fail "$wl on $nodes x $gpu at $1 x $2 Gbit/s: a faster fabric serves worse"
            done
        done
    done
done
# the trial's case: InfiniBand at least as good as GPUDirect-TCPX, and the
# disaggregated layout found on both
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 4 --format json; expect_rc 0
expect_json '[.fabrics[] | select(.network == "ib" or .network == "tcpx") | .mode] | unique | join(",")' disaggregated
