# serve: option errors are usage errors (exit 2) and never start a server;
# neither do a port in use or a bad --db, each told once.
cf serve --help; expect_rc 0; expect_out "--bind"; expect_out "--port"
cf serve --port 70000; expect_rc 2; expect_err "--port"
cf serve --port abc; expect_rc 2; expect_err "--port"
cf serve --bind not-an-address --port 0; expect_rc 2; expect_err "--bind"
# An address of no interface (192.0.2.1, TEST-NET-1, RFC 5737): exit 2 with
# the --bind hint on any port, --port 0 included (issue 23: it exited 4 with
# libmicrohttpd's raw message there). timeout: a server that did start
# must not hang the suite.
for p in 0 8999; do
    timeout 10 "$CF" serve --bind 192.0.2.1 --port "$p" > "$T/out" 2> "$T/err"; RC=$?
    expect_rc 2
    expect_err "cannot listen on 192.0.2.1 port $p: Cannot assign requested address (no interface of this machine has that address; see --bind)"
    [ "$(grep -c . "$T/err")" = 1 ] || fail "the bind error was printed more than once"
done
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
# --allow-host (issue 15): a name, repeatable; the server answers to it in
# Host (with or without its port) and refuses every other name.
cf serve --allow-host 'a b' --port 0; expect_rc 2; expect_err "--allow-host expects a host name"
CLUSTERFIT_SERVE_DEADLINE_S=x "$CF" serve --port 0 > "$T/out" 2> "$T/err"; RC=$?
expect_rc 2; expect_err "CLUSTERFIT_SERVE_DEADLINE_S: expected seconds"
serve_start "$T/allow.err" env CLUSTERFIT_SERVE_DEADLINE_S=2
# (a valid CLUSTERFIT_SERVE_DEADLINE_S starts the server: serve_start fails otherwise)
serve_stop
"$CF" serve --port 0 --allow-host cf.example --allow-host other.example 2> "$T/a.err" & apid=$!
i=0; APORT=
while [ $i -lt 100 ] && [ -z "$APORT" ]; do
    APORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/a.err"); sleep 0.1; i=$((i + 1))
done
h1=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: cf.example:$APORT" "http://127.0.0.1:$APORT/healthz")
h2=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: other.example" "http://127.0.0.1:$APORT/healthz")
h3=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: evil.example" "http://127.0.0.1:$APORT/healthz")
h4=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: cf.example:1" "http://127.0.0.1:$APORT/healthz")
kill $apid; wait $apid 2>/dev/null
[ "$h1 $h2 $h3 $h4" = "200 200 403 403" ] || fail "allow-host: got $h1 $h2 $h3 $h4, expected 200 200 403 403"
