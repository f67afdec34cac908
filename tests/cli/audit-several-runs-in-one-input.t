# All shared cases in one invocation, as separate files and as one
# concatenated file: every case's required codes stay in findings[] at a
# line of that case; the top level describes one run (the last nccl-tests
# table's) with a plausible shape; the input says it holds several runs.
# Each case alone still holds one run and no SEVERAL_RUNS.
tab=$(printf '\t')

# check_case_codes JSON FILE FIRST LAST REQ — every ','-group of REQ has one
# '|'-alternative among the findings located in FILE:FIRST..LAST
check_case_codes() {
    codes=$(jq -r --arg f "$2" --argjson a "$3" --argjson b "$4" \
        '[.findings[] | select(.file == $f and .line >= $a and .line <= $b) | .code] | join(" ")' "$1")
    old_ifs=$IFS; IFS=','
    for group in $5; do
        IFS='|'; ok=1
        for c in $group; do case " $codes " in *" $c "*) ok=0;; esac; done
        IFS=','
        [ $ok -eq 0 ] || { IFS=$old_ifs; fail "$2:$3-$4 lacks $group (has: $codes)"; }
    done
    IFS=$old_ifs
}

# the top level is one run's facts: consistent shape, collective and busbw of run_facts[run]
check_top() {
    expect_json '.runs > 1' true
    expect_json '[.findings[].code] | index("SEVERAL_RUNS") != null' true
    expect_json '.gpus_per_node == null or (.gpus_per_node <= 16 and .gpus_per_node * .nodes == .ranks)' true
    expect_json '(.run_facts[.run - 1] | [.collective, .busbw_GBps, .ranks, .nodes, .gpus_per_node, .nccl_version, .network, .gdr, .expected_busbw_GBps])
                 == [.collective, .busbw_GBps, .ranks, .nodes, .gpus_per_node, .nccl_version, .network, .gdr, .expected_busbw_GBps]' true
    expect_json '[.run_facts[] | select(.gpus_per_node != null) | select(.gpus_per_node > 16 or .gpus_per_node * .nodes != .ranks)] | length' 0
    # the last nccl-tests table is case 26's: busbw 95.10 with its own collective (all_reduce,
    # from its count column), not case 24's gather, and no expected rate taken from other
    # files' ibstat
    expect_json '[.busbw_GBps, .collective, .expected_busbw_GBps, .nccl_version]' '[
  95.1,
  "all_reduce",
  null,
  null
]'
    # case 24's run keeps its own judgement against its own ports
    expect_json '[.run_facts[] | select(.collective == "gather") | [.busbw_GBps, .expected_source, (.findings | index("BUSBW_BELOW_LINK_RATE") != null)]][0]' '[
  10.91,
  "ports",
  true
]'
}

# 1) separate files
cf audit --format json "$SHARED"/cases/[0-9]*.txt; expect_rc 1
cp "$T/out" "$T/sep.json"
check_top
while IFS="$tab" read -r id net gdr bw status req forb; do
    [ "$id" = file ] && continue
    [ "$req" = "-" ] && continue
    f=$(ls "$SHARED"/cases/"$id"-*.txt)
    check_case_codes "$T/sep.json" "$f" 1 1000000 "$req"
done < "$SHARED/cases/expect.tsv"

# 2) one concatenated file: line ranges of each case inside it
: > "$T/all.txt"; : > "$T/ranges"
start=1
for f in "$SHARED"/cases/[0-9]*.txt; do
    n=$(wc -l < "$f")
    cat "$f" >> "$T/all.txt"
    echo "$(basename "$f" | cut -c1-2) $start $((start + n - 1))" >> "$T/ranges"
    start=$((start + n))
done
cf audit --format json "$T/all.txt"; expect_rc 1
cp "$T/out" "$T/cat.json"
check_top
while IFS="$tab" read -r id net gdr bw status req forb; do
    [ "$id" = file ] && continue
    [ "$req" = "-" ] && continue
    set -- $(grep "^$id " "$T/ranges")
    check_case_codes "$T/cat.json" "$T/all.txt" "$2" "$3" "$req"
done < "$SHARED/cases/expect.tsv"
# the five NCCL versions are five runs, each with its own version
expect_json '[.run_facts[].nccl_version | select(. != null)]' '[
  "2.25.1",
  "2.4.7",
  "2.12.7",
  "2.8.3",
  "2.16.5"
]'

# 3) each case alone is one run: no SEVERAL_RUNS
for f in "$SHARED"/cases/[0-9]*.txt; do
    cf audit --format json "$f"
    expect_json '.runs <= 1 and ([.findings[].code] | index("SEVERAL_RUNS") == null)' true
done
