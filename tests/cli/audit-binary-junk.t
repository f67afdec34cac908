# 2 MB of deterministic pseudo-random bytes (NULs, no newlines for long runs): invalid, exit 1.
awk 'BEGIN { srand(7); for (i = 0; i < 2097152; i++) printf "%c", int(rand() * 256) }' > "$T/junk.bin"
cf audit --format json "$T/junk.bin"; expect_rc 1
expect_json .status invalid
expect_json '[.findings[].code] | index("NO_RECOGNIZED_INPUT") != null' true
# junk in front of a real table does not hide it
cat "$T/junk.bin" "$SHARED/cases/26-h100-2node-ring-ok-after-acs-fix-fragment.txt" > "$T/mixed.bin"
cf audit --format json "$T/mixed.bin"
expect_json .busbw_GBps 95.1
