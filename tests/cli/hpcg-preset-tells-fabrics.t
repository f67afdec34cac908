# issue 23: cfd-stencil is too small to ask the fabrics question (at 2 nodes
# every fabric ties within ~1 %). hpcg-3d-stencil is sized as HPCG's
# reference problem (hpcg-benchmark/hpcg bin/hpcg.dat: 100^3 cells per
# process; 512 processes), and fabrics for it tells InfiniBand from TCP at
# every node count; the README's HPC example uses it.
P=data/workloads/hpcg-3d-stencil.json
[ -f "$P" ] || fail "no $P"
jq -e '.source | test("github.com/hpcg-benchmark/hpcg")' "$P" > /dev/null || fail "the preset does not cite HPCG"
# the grid is HPCG's local 100^3 on ref_gpus processes, the halo one fp64 face
jq -e '.shape.cells == 100 * 100 * 100 * .shape.ref_gpus and .shape.halo_bytes_per_neighbour == 100 * 100 * 8
       and .shape.decomposed_dims == 3 and .shape.flops_per_cell == 2 * 27' "$P" > /dev/null ||
    fail "the shape does not follow HPCG's reference problem: $(jq -c .shape "$P")"
prem() {  # WORKLOAD NODES FABRIC: its worth premium over tcp, percent
    "$CF" fabrics --workload "$1" --gpu H100-SXM --nodes "$2" --format json |
        jq -r --arg f "$3" '.fabrics[] | select(.network == $f) | .worth_premium_pct'
}
for n in 2 4 8 16; do
    ib=$(prem hpcg-3d-stencil "$n" ib); tcpx=$(prem hpcg-3d-stencil "$n" tcpx); small=$(prem cfd-stencil "$n" ib)
    [ -n "$ib" ] && [ -n "$small" ] || fail "no premium at $n nodes"
    awk -v a="$ib" 'BEGIN { exit !(a >= 5) }' || fail "at $n nodes InfiniBand is worth only +$ib % over TCP"
    awk -v a="$ib" -v b="$tcpx" 'BEGIN { exit !(a > b && b > 0) }' || fail "at $n nodes: ib $ib, tcpx $tcpx"
    awk -v a="$ib" -v b="$small" 'BEGIN { exit !(a > b) }' || fail "at $n nodes the HPCG-sized run ($ib) tells less than cfd-stencil ($small)"
done
# the communication is a real share of the iteration at 16 nodes over TCP
cf predict step --workload hpcg-3d-stencil --tp 1 --pp 1 --dp 128 --gpu H100-SXM --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network tcp --nics 8 --nic-gbps 400 --format json; expect_rc 0
expect_json_true '.breakdown.dp_comm_exposed_s / .step_time_s > 0.25'
grep -q 'fabrics --workload hpcg-3d-stencil' README.md || fail "the README's HPC example does not use hpcg-3d-stencil"
grep -q '`hpcg-3d-stencil`' docs/workloads.md || fail "docs/workloads.md does not list the preset"
