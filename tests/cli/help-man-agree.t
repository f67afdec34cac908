# docs/architecture.md, "Where a new piece goes" (curl test 1139): every
# long option a command's --help lists appears in the man page, and every
# command appears in the man page and in clusterfit --help; every --help
# fits an 80-column terminal.
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
# One source for the options (src/opts.h): every option in a command's table
# (the `.name = "..."` entries of src/cmd_CMD.c) is documented in its man
# fragment docs/man/NN-CMD.man, in the synopsis (from .SS to the first .PP
# or .TP) or in a .TP tag, and every option the fragment documents there is
# in the table. --help is documented once for all commands (00-head.man).
# The table is read from the source (as curl's test 1139 reads its sources),
# so a table not written that way fails here rather than passing unchecked.
man_opts() {
    awk 'FNR == 1 { syn = 1 }
         syn && (/^\.PP/ || /^\.TP/) { syn = 0 }
         syn { print; next }
         tag { print; tag = 0 }
         /^\.TP/ { tag = 1 }' "$1" |
        sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u
}
ncmd=0; : > "$T/bad"
for src in "$ROOT"/src/cmd_*.c; do
    name=$(basename "$src" .c); name=${name#cmd_}
    set -- "$ROOT"/docs/man/[0-9][0-9]-"$name".man
    [ $# = 1 ] && [ -f "$1" ] || fail "src/cmd_$name.c has no man fragment docs/man/NN-$name.man"
    frag=$1
    grep -o '\.name = "[a-z][a-z0-9-]*"' "$src" | sed 's/.*"\(.*\)"/\1/' | sort -u > "$T/table"
    grep -qx help "$T/table" || fail "src/cmd_$name.c: no --help in its option table (or no table)"
    [ "$(grep -cvx help "$T/table")" -gt 0 ] || fail "src/cmd_$name.c: no options found in its table"
    man_opts "$frag" > "$T/man"
    for o in $(grep -vx help "$T/table"); do
        grep -qx -- "$o" "$T/man" || echo "--$o is in the table of src/cmd_$name.c but not documented in $(basename "$frag")" >> "$T/bad"
    done
    for o in $(cat "$T/man"); do
        grep -qx -- "$o" "$T/table" || echo "$(basename "$frag") documents --$o, which the table of src/cmd_$name.c lacks" >> "$T/bad"
    done
    ncmd=$((ncmd + 1))
done
[ -s "$T/bad" ] && fail "table and man page disagree: $(cat "$T/bad")"
[ "$ncmd" -ge 12 ] || fail "checked $ncmd command files, expected the 12 cmd_*.c"
