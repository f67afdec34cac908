# tests/container/run.sh (make check, issue 26) without a container
# runtime: the image check is skipped with a message and exit 0, while the
# checks that need none (the systemd unit, the runtime stage's packages)
# still run; a runtime named but not answering is a failure, not a skip.
B=$(dirname "$CF")
CONTAINER_RUNTIME=none sh tests/container/run.sh "$B" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0; expect_out "container: skipped the image check: no docker or podman"
expect_out " 0 failed, "
grep -q "container: [1-9][0-9]* passed" "$T/out" || fail "no check ran without a runtime"
CONTAINER_RUNTIME=/nonexistent/docker sh tests/container/run.sh "$B" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 1; expect_out "container runtime '/nonexistent/docker' does not answer"
