# All shared cases in one file: each run, log, matrix and port dump is its own part.
cat "$SHARED"/cases/[0-9]*.txt > "$T/all.txt"
cf audit --format json "$T/all.txt"; expect_rc 1
expect_json '[.parts[] | select(.kind == "topo")] | length' 4
expect_json '[.parts[] | select(.kind == "ibstat")] | length' 2
expect_json '[.parts[] | select(.kind == "nccl-tests" and .rows_total > 0) | .busbw_GBps] | join(",")' '95.74,3.11,10.91,95.1'
expect_json .busbw_GBps 95.1
expect_json .status failed
expect_json '[.findings[].code] | index("COMPLETION_ERROR") != null' true
# the same as several files: one nccl-log part per file that has NCCL lines
cf audit --format json "$SHARED"/cases/[0-9]*.txt; expect_rc 1
expect_json '[.parts[] | select(.kind == "nccl-log")] | length' 8
expect_json '[.parts[].file] | unique | length' 13
