# Every file of the repository that the documentation names exists: the
# paths under lib/, src/, server/, tests/, tools/, data/, include/, bench/
# and docs/ with a file extension (globs such as lib/model/validate*.c
# must match a file) in docs/*.md, README.md, bench/RESULTS.md and
# docs/man/*.man, so a move of files cannot leave the docs behind.
# Not checked: paths outside the repository (../shared/...; anything after
# a '/', so URLs and another project's src/... written as nccl/src/... are
# skipped too), folders, and placeholders (tests/fuzz/NAME.dict,
# docs/man/NN-CMD.man).
cd "$ROOT" || fail "cannot enter $ROOT"
: > "$T/out"; : > "$T/err"; : > "$T/paths"
export LC_ALL=C
for f in README.md bench/RESULTS.md docs/*.md docs/man/*.man; do
    [ -f "$f" ] || fail "$f is missing"
    # man fragments: drop the font escapes (\fI...\fR) and \- before matching.
    sed -e 's/\\f[A-Z]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' -e 's/\\&//g' "$f" |
        grep -oE '(^|[^A-Za-z0-9_./*-])(lib|src|server|tests|tools|data|include|bench|docs)/[A-Za-z0-9_./*-]*\.[A-Za-z0-9]+' |
        sed -e 's/^[^a-z]//' -e "s|^|$f |" >> "$T/paths"
done
n=0; missing=""
while read -r f p; do
    case $p in *NAME*|*CMD*|*NN-*) continue ;; esac
    n=$((n + 1))
    # shellcheck disable=SC2086
    set -- $p
    [ -e "$1" ] || missing="$missing
    $f: $p"
done < "$T/paths"
# The pattern must keep finding the docs' paths (128 today): a broken
# pattern that finds none would pass silently.
[ "$n" -ge 60 ] || fail "only $n repository paths found in the docs; the pattern is broken"
[ -z "$missing" ] || fail "the docs name files that do not exist:$missing"
