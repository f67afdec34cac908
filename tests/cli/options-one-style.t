# Every command tells a bad option the same way (one parse loop, src/opts.c):
# "clusterfit CMD: unknown option '--x'" or "clusterfit CMD: --x needs a
# value", then the --help hint, exit 2 — no getopt diagnostic before it.
for c in list show providers import plan scale fit "predict collective" "predict step" \
         "validate collectives" "validate training" audit serve; do
    # shellcheck disable=SC2086
    cf $c --frobnicate
    expect_rc 2
    [ "$(head -n 1 "$T/err")" = "clusterfit $c: unknown option '--frobnicate'" ] ||
        fail "$c: first line '$(head -n 1 "$T/err")'"
    [ "$(sed -n 2p "$T/err")" = "Try 'clusterfit $c --help'." ] || fail "$c: no help hint: $(cat "$T/err")"
    [ "$(wc -l < "$T/err")" -eq 2 ] || fail "$c: more than two lines: $(cat "$T/err")"
done
for c in list show providers plan scale fit "predict collective" "predict step" \
         "validate collectives" "validate training" audit; do
    # shellcheck disable=SC2086
    cf $c --format
    expect_rc 2
    [ "$(head -n 1 "$T/err")" = "clusterfit $c: --format needs a value" ] ||
        fail "$c: first line '$(head -n 1 "$T/err")'"
done
cf serve --port; expect_rc 2; expect_err "clusterfit serve: --port needs a value"
cf predict step -x; expect_rc 2; expect_err "clusterfit predict step: unknown option '-x'"
