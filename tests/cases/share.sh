#!/bin/sh
# share.sh CLUSTERFIT [CASES_DIR] — the share of expected conclusions a build
# meets on a case set (default: the audit's own, tests/data/cases): per row of
# expect.tsv, five conclusions — network, gdr, status, codes (required and
# forbidden together), busbw — each met or not. Prints per-field counts and
# the total as "share: M of N (P %)". Measures; never fails (run.sh checks).
set -u
CF=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${2:-$ROOT/tests/data/cases}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tab=$(printf '\t')
one_of() {
    v=$1; alts=$2; old_ifs=$IFS; IFS='|'
    for x in $alts; do [ "$x" = "-" ] && x=null; if [ "$v" = "$x" ]; then IFS=$old_ifs; return 0; fi; done
    IFS=$old_ifs; return 1
}
codes_ok() {
    codes=" $(jq -r '[.findings[].code] | join(" ")' "$1") "
    if [ "$2" != "-" ]; then
        old_ifs=$IFS; IFS=','
        for group in $2; do
            IFS='|'; ok=1
            for c in $group; do case $codes in *" $c "*) ok=0;; esac; done
            IFS=','
            [ $ok -eq 0 ] || { IFS=$old_ifs; return 1; }
        done
        IFS=$old_ifs
    fi
    if [ "$3" != "-" ]; then
        old_ifs=$IFS; IFS=','
        for c in $3; do case $codes in *" $c "*) IFS=$old_ifs; return 1;; esac; done
        IFS=$old_ifs
    fi
    return 0
}
n_net=0; n_gdr=0; n_st=0; n_codes=0; n_bw=0; rows=0
while IFS="$tab" read -r id net gdr bw status req forb; do
    [ "$id" = file ] && continue
    [ -n "$id" ] || continue
    f=$(ls "$DIR"/"$id"-*.txt 2>/dev/null | head -n 1)
    [ -n "$f" ] || continue
    rows=$((rows + 1))
    "$CF" audit --format json "$f" > "$T/o.json" 2> /dev/null
    jq -e . "$T/o.json" > /dev/null 2>&1 || continue
    one_of "$(jq -r .network "$T/o.json")" "$net" && n_net=$((n_net + 1))
    one_of "$(jq -r .gdr "$T/o.json")" "$gdr" && n_gdr=$((n_gdr + 1))
    one_of "$(jq -r .status "$T/o.json")" "$status" && n_st=$((n_st + 1))
    codes_ok "$T/o.json" "$req" "$forb" && n_codes=$((n_codes + 1))
    v=$(jq -r .busbw_GBps "$T/o.json")
    if [ "$bw" = "-" ]; then [ "$v" = null ] && n_bw=$((n_bw + 1))
    else awk -v a="$v" -v b="$bw" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "null" && d < 0.005) }' && n_bw=$((n_bw + 1)); fi
done < "$DIR/expect.tsv"
met=$((n_net + n_gdr + n_st + n_codes + n_bw))
echo "cases: $rows; network $n_net, gdr $n_gdr, status $n_st, codes $n_codes, busbw $n_bw (each of $rows)"
awk -v m="$met" -v n="$((rows * 5))" 'BEGIN { printf "share: %d of %d (%.1f %%)\n", m, n, n ? 100 * m / n : 0 }'
