# An empty file is not an audit input: status invalid, NO_RECOGNIZED_INPUT, exit 1, no crash.
: > "$T/empty.txt"
cf audit --format json "$T/empty.txt"; expect_rc 1
expect_json .status invalid
expect_json '[.findings[].code] | join(",")' NO_RECOGNIZED_INPUT
expect_json '.findings[0].message' "the input is empty"
expect_json '.parts | length' 0
cf audit "$T/empty.txt"; expect_rc 1; expect_out "verdict: invalid"; expect_out "action:"
