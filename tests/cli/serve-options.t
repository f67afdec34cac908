# serve: option errors are usage errors (exit 2) and never start a server.
cf serve --help; expect_rc 0; expect_out "--bind"; expect_out "--port"
cf serve --port 70000; expect_rc 2; expect_err "--port"
cf serve --port abc; expect_rc 2; expect_err "--port"
cf serve --bind not-an-address --port 0; expect_rc 2; expect_err "--bind"
cf serve extra; expect_rc 2; expect_err "unexpected argument"
cf serve --frobnicate; expect_rc 2; expect_err "unknown option"
