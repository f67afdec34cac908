# Every command answers --help with a usage line and exit 0; a bad command is a usage error.
cf --help; expect_rc 0; expect_out "Usage: clusterfit"
cf --version; expect_rc 0; expect_out "clusterfit "
cf no-such-command; expect_rc 2; expect_err "unknown command"
# The top-level help lists every exit code of README's table, 5 included.
cf --help; expect_rc 0
expect_out "3 bad input file"; expect_out "4 internal error, 5 the environment"
