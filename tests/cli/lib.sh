# lib.sh — helpers for CLI test cases (tests/cli/*.t), sourced by run.sh.
# A case runs commands with `cf ARGS...` (stdout in $OUT, stderr in $ERR,
# exit code in $RC) and checks them with the expect_* functions; the first
# failed expectation fails the case with a message.

cf() {
    "$CF" "$@" > "$T/out" 2> "$T/err"
    RC=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
}
# cf_in FILE ARGS... — like cf with FILE on standard input.
cf_in() {
    f=$1; shift
    "$CF" "$@" < "$f" > "$T/out" 2> "$T/err"
    RC=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
}
fail() { echo "  $CASE: $*"; echo "    stdout: $(head -c 600 "$T/out")"; echo "    stderr: $(head -c 600 "$T/err")"; exit 1; }
expect_rc() { [ "$RC" = "$1" ] || fail "exit code $RC, expected $1"; }
expect_out() { grep -qF -- "$1" "$T/out" || fail "stdout lacks '$1'"; }
# expect_text PHRASE — stdout, a text report wrapped at 80 columns, holds
# PHRASE once its lines are joined and runs of blanks squeezed.
expect_text() {
    tr '\n' ' ' < "$T/out" | tr -s ' ' | grep -qF -- "$(printf '%s' "$1" | tr -s ' ')" || fail "text lacks '$1'"
}
expect_no_out() { ! grep -qF -- "$1" "$T/out" || fail "stdout has '$1'"; }
expect_err() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }
# expect_json JQ_EXPR VALUE — jq -r of stdout must equal VALUE.
expect_json() {
    v=$(jq -r "$1" < "$T/out" 2>&1) || fail "jq '$1' failed: $v"
    [ "$v" = "$2" ] || fail "jq '$1' = '$v', expected '$2'"
}
# expect_json_true JQ_EXPR — the expression must be true.
expect_json_true() { expect_json "$1" true; }
# expect_near VALUE EXPECTED TOLERANCE — |VALUE-EXPECTED| <= TOLERANCE.
expect_near() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }' \
        || fail "$1 not within $3 of $2"
}
# K NAME — the value of the model constant NAME as lib/model/constants.def
# gives it (the unit tests' K("NAME")), so an expectation written from a
# fitted constant follows the next refit; nothing when there is no such row.
K() { sed -n "s/^CF_CONSTANT($1, *\([^,]*\),.*/\1/p" "$ROOT/lib/model/constants.def"; }
# calc EXPR — EXPR (K's values inside it) evaluated by awk, printed with 10
# significant digits; nothing (awk's syntax error) when a K value is missing,
# which expect_near refuses.
calc() { awk "BEGIN { printf \"%.10g\", $1 }" 2>/dev/null; }
# serve_start LOG [PREFIX...] — starts `clusterfit serve --port 0` in the
# background (PREFIX, e.g. `env TZ=...`, runs it), stderr to LOG, waits up to
# 10 s for "listening on", and sets $srv (its pid), $BASE
# (http://127.0.0.1:PORT) and $PORT; the case fails if it does not start.
# serve_stop kills it. An EXIT trap kills it if the case fails first.
serve_start() {
    log=$1; shift
    "$@" "$CF" serve --port 0 2> "$log" &
    srv=$!
    trap 'kill "$srv" 2>/dev/null' EXIT
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        grep -qs "listening on" "$log" && break
        sleep 0.5
    done
    BASE=$(sed -n 's|.*listening on \(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$log")
    PORT=${BASE##*:}
    [ -n "$BASE" ] || { kill "$srv" 2>/dev/null; fail "the server did not start: $(cat "$log")"; }
}
serve_stop() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; trap - EXIT; }
