# serve: option errors are usage errors (exit 2) and never start a server;
# neither do a port in use or a bad --db, each told once.
cf serve --help; expect_rc 0; expect_out "--bind"; expect_out "--port"
cf serve --port 70000; expect_rc 2; expect_err "--port"
cf serve --port abc; expect_rc 2; expect_err "--port"
cf serve --bind not-an-address --port 0; expect_rc 2; expect_err "--bind"
cf serve extra; expect_rc 2; expect_err "unexpected argument"
cf serve --frobnicate; expect_rc 2; expect_err "unknown option"
# A port already in use: one message (not libmicrohttpd's and ours), exit 2.
"$CF" serve --port 0 2> "$T/first.err" &
first=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    grep -q "listening on" "$T/first.err" && break
    sleep 0.5
done
port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/first.err")
[ -n "$port" ] || { kill "$first"; fail "the first server did not start: $(cat "$T/first.err")"; }
cf serve --port "$port"
kill "$first"; wait "$first" 2>/dev/null
expect_rc 2
expect_err "cannot listen on 127.0.0.1 port $port: Address already in use"
[ "$(grep -c . "$T/err")" = 1 ] || fail "the error was printed $(grep -c . "$T/err") times"
# A --db that is a directory: told once, exit 2, no server started.
cf --db "$T" serve --port 0; expect_rc 2; expect_err "is a directory"
[ "$(grep -c . "$T/err")" = 1 ] || fail "the catalog error was printed more than once"
