# serve: option errors are usage errors (exit 2) and never start a server;
# neither do a port in use or a bad --db, each told once.
cf serve --help; expect_rc 0; expect_out "--bind"; expect_out "--port"
cf serve --port 70000; expect_rc 2; expect_err "--port"
cf serve --port abc; expect_rc 2; expect_err "--port"
cf serve --bind not-an-address --port 0; expect_rc 2; expect_err "--bind"
cf serve extra; expect_rc 2; expect_err "unexpected argument"
cf serve --frobnicate; expect_rc 2; expect_err "unknown option"
# A port already in use: one message (not libmicrohttpd's and ours), exit 2.
serve_start "$T/first.err"
port=$PORT
cf serve --port "$port"
serve_stop
expect_rc 2
expect_err "cannot listen on 127.0.0.1 port $port: Address already in use"
[ "$(grep -c . "$T/err")" = 1 ] || fail "the error was printed $(grep -c . "$T/err") times"
# A --db that is a directory: told once, exit 2, no server started.
cf --db "$T" serve --port 0; expect_rc 2; expect_err "is a directory"
[ "$(grep -c . "$T/err")" = 1 ] || fail "the catalog error was printed more than once"
