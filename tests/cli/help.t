# Every command answers --help with a usage line and exit 0; a bad command is a usage error.
cf --help; expect_rc 0; expect_out "Usage: clusterfit"
cf --version; expect_rc 0; expect_out "clusterfit "
cf no-such-command; expect_rc 2; expect_err "unknown command"
