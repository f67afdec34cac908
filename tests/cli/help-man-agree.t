# STYLE.md (curl test 1139): every long option a command's --help lists
# appears in the man page, and every command appears in the man page and in
# clusterfit --help; every --help fits an 80-column terminal.
MAN="$(dirname "$CF")/docs/clusterfit.1"
[ -f "$MAN" ] || fail "no man page at $MAN"
cf --help
cmds=$(sed -n 's/^  \([a-z]*\)  .*/\1/p' "$T/out")
[ -n "$cmds" ] || fail "clusterfit --help lists no commands"
for c in $cmds; do
    "$CF" "$c" --help > "$T/h" 2>&1
    if grep -q "not implemented yet" "$T/h"; then continue; fi
    [ -s "$T/h" ] || fail "$c --help printed nothing"
    awk 'length > 80 { exit 1 }' "$T/h" || fail "$c --help has lines wider than 80 columns"
    grep -q "^\.SS.*$c" "$MAN" || fail "man page has no section for '$c'"
    for o in $(grep -o -- '--[a-z][a-z-]*' "$T/h" | sort -u); do
        grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$MAN" || grep -qF -- "$o" "$MAN" || \
            fail "$c --help lists $o but the man page does not"
    done
done
