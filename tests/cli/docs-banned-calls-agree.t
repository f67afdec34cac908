# The banned calls docs/architecture.md lists ("The build also enforces:
# banned calls (...)") are exactly the ones tools/checksrc.sh bans (the
# alternation of its match() pattern) and its header comment names.
cd "$ROOT" || fail "cannot enter $ROOT"
: > "$T/out"; : > "$T/err"
# checksrc's pattern: match(rest, /(^|[^A-Za-z0-9_])(sprintf|...)[ \t]*\(/)
grep 'while (match(rest,' tools/checksrc.sh | sed 's/.*\[^A-Za-z0-9_\])(\([a-z|]*\)).*/\1/' |
    tr '|' '\n' | sort > "$T/code"
# its header: "#  banned   no sprintf, vsprintf, ... or gets call in ..."
sed -n '/^#  banned/,/call in/p' tools/checksrc.sh | tr -s ' ,\n' '\n' | grep -E '^[a-z]+$' |
    grep -vE '^(banned|no|or|call|in)$' | sort > "$T/comment"
# the doc: every `name` between "banned calls (" and the closing ")".
tr '\n' ' ' < docs/architecture.md | sed 's/.*banned calls (\([^)]*\)).*/\1/' | sed 's/;.*//' |
    grep -oE '`[a-z]+`' | tr -d '`' | sort > "$T/doc"
[ "$(wc -l < "$T/code")" -ge 10 ] || fail "found $(wc -l < "$T/code") banned calls in tools/checksrc.sh"
cmp -s "$T/code" "$T/doc" ||
    fail "docs/architecture.md lists [$(tr '\n' ' ' < "$T/doc")], checksrc bans [$(tr '\n' ' ' < "$T/code")]"
cmp -s "$T/code" "$T/comment" ||
    fail "checksrc.sh's header names [$(tr '\n' ' ' < "$T/comment")], its pattern bans [$(tr '\n' ' ' < "$T/code")]"
