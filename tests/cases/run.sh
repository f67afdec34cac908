#!/bin/sh
# run.sh CLUSTERFIT — checks `clusterfit audit --format json` on every case
# of two sets: the shared reference set (tests/data/shared/cases/expect.tsv)
# and the audit's own collected cases (tests/data/cases/expect.tsv, issue
# 11), each row giving network, gdr, busbw_GBps, status, required and
# forbidden codes ('-' none, ',' all must hold, '|' alternatives); then the
# extra facts each INDEX.md states in words.
# Prints "cases: N passed, N failed" (CASES_ONLY=shared|own runs one set).
set -u
CF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${CLUSTERFIT_SHARED:-$ROOT/tests/data/shared}
CASES=$SHARED/cases
OWN=$ROOT/tests/data/cases
pass=0; fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# one_of VALUE "a|b|c" — VALUE equals one alternative ('-' means null)
one_of() {
    v=$1; alts=$2
    old_ifs=$IFS; IFS='|'
    for x in $alts; do
        [ "$x" = "-" ] && x=null
        if [ "$v" = "$x" ]; then IFS=$old_ifs; return 0; fi
    done
    IFS=$old_ifs
    return 1
}

# codes_hold JSON "A,B|C" — every ','-part has one '|'-alternative present
codes_hold() {
    codes=$(jq -r '[.findings[].code] | join(" ")' "$1")
    old_ifs=$IFS; IFS=','
    for group in $2; do
        IFS='|'; ok=1
        for c in $group; do
            case " $codes " in *" $c "*) ok=0;; esac
        done
        IFS=','
        [ $ok -eq 0 ] || { IFS=$old_ifs; echo "missing $group"; return 1; }
    done
    IFS=$old_ifs
    return 0
}

codes_absent() {
    codes=$(jq -r '[.findings[].code] | join(" ")' "$1")
    old_ifs=$IFS; IFS=','
    for c in $2; do
        case " $codes " in *" $c "*) IFS=$old_ifs; echo "forbidden $c present"; return 1;; esac
    done
    IFS=$old_ifs
    return 0
}

check_row() {
    id=$1 net=$2 gdr=$3 bw=$4 status=$5 req=$6 forb=$7
    f=$(ls "$CASES"/"$id"-*.txt 2>/dev/null | head -n 1)
    [ -n "$f" ] || { echo "  case $id: no file"; return 1; }
    out=$T/$id.json
    "$CF" audit --format json "$f" > "$out" 2> "$T/$id.err"
    rc=$?
    jq -e . "$out" > /dev/null 2>&1 || { echo "  case $id: not JSON (rc $rc)"; return 1; }
    v=$(jq -r '.network' "$out"); one_of "$v" "$net" || { echo "  case $id: network $v, expected $net"; return 1; }
    v=$(jq -r '.gdr' "$out"); one_of "$v" "$gdr" || { echo "  case $id: gdr $v, expected $gdr"; return 1; }
    v=$(jq -r '.status' "$out"); one_of "$v" "$status" || { echo "  case $id: status $v, expected $status"; return 1; }
    v=$(jq -r '.busbw_GBps' "$out")
    if [ "$bw" = "-" ]; then
        [ "$v" = null ] || { echo "  case $id: busbw $v, expected none"; return 1; }
    else
        awk -v a="$v" -v b="$bw" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "null" && d < 0.005) }' \
            || { echo "  case $id: busbw $v, expected $bw"; return 1; }
    fi
    if [ "$req" != "-" ]; then codes_hold "$out" "$req" > "$T/msg" || { echo "  case $id: $(cat "$T/msg")"; return 1; }; fi
    if [ "$forb" != "-" ]; then codes_absent "$out" "$forb" > "$T/msg" || { echo "  case $id: $(cat "$T/msg")"; return 1; }; fi
    # exit code follows the status (DESIGN §6)
    s=$(jq -r '.status' "$out")
    case $s in
        failed|invalid) [ $rc -eq 1 ] || { echo "  case $id: exit $rc for $s"; return 1; } ;;
        unjudged) [ $rc -eq 6 ] || { echo "  case $id: exit $rc for $s"; return 1; } ;;
        *) [ $rc -eq 0 ] || { echo "  case $id: exit $rc for $s"; return 1; } ;;
    esac
    return 0
}

tab=$(printf '\t')
# run_set DIR LABEL — every row of DIR/expect.tsv
run_set() {
    CASES=$1
    if [ ! -f "$CASES/expect.tsv" ]; then
        echo "cases: $CASES/expect.tsv not found"; fail=$((fail + 1)); return
    fi
    while IFS="$tab" read -r id net gdr bw status req forb; do
        [ "$id" = file ] && continue
        [ -n "$id" ] || continue
        case $id in \#*) continue;; esac
        if check_row "$id" "$net" "$gdr" "$bw" "$status" "$req" "$forb"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL: $2/$id"
        fi
    done < "$CASES/expect.tsv"
}
ONLY=${CASES_ONLY:-}
[ "$ONLY" = own ] || run_set "$SHARED/cases" cases
[ "$ONLY" = shared ] || run_set "$OWN" own
CASES=$SHARED/cases

# Extra assertions from INDEX.md (facts stated in words there).
CASES=$SHARED/cases
# extra NAME ID JQ-EXPR — the expression must be true on the case's report
extra() {
    name=$1; id=$2; expr=$3
    f=$(ls "$CASES"/"$id"-*.txt 2>/dev/null | head -n 1)
    if [ -n "$f" ] && "$CF" audit --format json "$f" 2>/dev/null | jq -e "$expr" > /dev/null 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: cases/$id-$name: $expr"
    fi
}
if [ "$ONLY" != own ]; then
# 01: linear-step table, busbw 95.74 out-of-place (95.94 in-place), peak 96.69 (in-place), Avg 84.8558
extra busbw 01 '.busbw_GBps == 95.74 and .parts[0].busbw_in_place_GBps == 95.94 and ([.parts[0].rows[].in_place_busbw_GBps] | max) == 96.69 and .parts[0].avg_busbw_GBps == 84.8558 and .collective == "all_reduce"'
extra rows 01 '.parts[0].rows_total == 6 and .parts[0].rows[0].size_bytes == 127926280 and .ranks == 24 and .nodes == null'
# 03: "use ring PXN 0 GDR 1" with NET/Socket is not GPUDirect; table cut mid-row at 128 B
extra not-gdr 03 '.gdr == "na" and ([.findings[].code] | index("TRUNCATED_INPUT")) != null and .nccl_version == "2.25.1"'
extra nodes 03 '.nodes == 2 and .ranks == 2'
# 05: the NET/Socket bootstrap line is not a socket fallback; GDR off for distance 3 >= 2
extra distance 05 '([.findings[] | select(.code == "GDR_DISABLED") | .message] | .[0] | test("distance 3")) and .nccl_version == "2.4.7"'
# 07: both HCAs RoCE, GDR disabled for both
extra hcas 07 '[.parts[] | select(.kind == "nccl-log") | .ib_devices[].link_layer] == ["Ethernet","Ethernet"] and .ranks == 16'
# 08: EFA via AWS Libfabric, 1 GiB busbw 3.11 (in-place 3.12), 2 ranks on 2 nodes
extra efa 08 '.busbw_GBps == 3.11 and .parts[0].busbw_in_place_GBps == 3.12 and .nodes == 2 and .ranks == 2 and .parts[0].largest_bytes == 1073741824'
# 11: single node, 2 GPUs in one process; PCIe-only T4 topology
extra single-node 11 '.nodes == 1 and ([.parts[] | select(.kind == "topo")] | length) == 1 and ([.parts[] | select(.kind == "topo") | .gpus][0] == 4)'
# 13: RoCE v2 GIDs; status 12 = retry exceeded is the first cause; 64 ranks
extra retry 13 '([.findings[] | select(.code == "COMPLETION_ERROR") | .message][0] | test("status=12")) and .ranks == 64'
# 17: only GPU2-mlx5_0 and GPU5-mlx5_1 are PIX
extra pix 17 '[.parts[] | select(.kind == "topo") | .gpu_nic_paths[] | select(.nearest_nic_link == "PIX") | .gpu] == ["GPU2","GPU5"]'
# 18: ports at 400 Gb/s InfiniBand; the third CA cut after its physical state
extra ports 18 '[.parts[0].ports[] | .rate_gbps] == [400,400,null] and ([.findings[].code] | index("TRUNCATED_INPUT")) != null'
# 20: NV2 between every GPU pair, one NIC at NODE distance
extra nvlink 20 '.parts[0].nvlink == true and [.parts[0].gpu_nic_paths[].nearest_nic_link] == ["NODE","NODE","NODE","NODE"]'
# 22: GDR forced with NCCL_NET_GDR_LEVEL=SYS
extra forced 22 '([.findings[].code] | index("GDR_FORCED")) != null'
# 24: IB on mlx5_2 (200G, NET/IB/1) with GDR partial; 10.91 (10.87 in-place); ~88% at mid sizes
extra partial 24 '.network == "ib" and .gdr == "partial" and .collective == "gather" and .parts[0].busbw_in_place_GBps == 10.87'
extra expected 24 '.expected_source == "ports" and .expected_busbw_GBps > 20 and .expected_busbw_GBps < 25'
extra ports 24 '([.parts[] | select(.kind == "ibstat") | .ports[] | select(.active) | .ca]) == ["mlx5_0","mlx5_2"]'
# 26: header cut to "in-place" (the collective read from the count column), 8 GiB busbw 95.10, Avg 95.3009
extra fragment 26 '.collective == "all_reduce" and .busbw_GBps == 95.1 and .parts[0].avg_busbw_GBps == 95.3009 and .parts[0].largest_bytes == 8589934592'
fi

# extra_with NAME ID "ARGS" JQ-EXPR — as extra, the audit run with ARGS
# (e.g. --offering ID); ARGS split on blanks
extra_with() {
    name=$1; id=$2; args=$3; expr=$4
    f=$(ls "$CASES"/"$id"-*.txt 2>/dev/null | head -n 1)
    # shellcheck disable=SC2086
    if [ -n "$f" ] && "$CF" audit --format json $args "$f" 2>/dev/null | jq -e "$expr" > /dev/null 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: own/$id-$name: $args $expr"
    fi
}

# Extra facts of the audit's own cases (tests/data/cases/INDEX.md).
CASES=$OWN
if [ "$ONLY" != shared ]; then
. "$OWN/extra.sh"
fi

echo "cases: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
