# Trial 2026-12-b fault 3: expected interruptions are fractional and said
# as expected ("(0 interruptions)" beside "restarts +0.1 %" read as a
# contradiction); the storage assumption says the per-node write cap and
# the file system's total apart.
cf scale --workload llama3-8b --offering crusoe-h100-ib --format json; expect_rc 0
n=$(jq '.[0].goodput_detail.failures.interruptions' "$T/out")
expect_json_true ".[0].goodput_detail.failures.interruptions < 10"
cf scale --workload llama3-8b --offering crusoe-h100-ib; expect_rc 0
expect_text "($(printf '%.1f' "$n") expected interruptions)"
expect_no_out " (0 interruptions)"
expect_text "write 2 GB/s per node at most,"
expect_text "GB/s for the whole file system"
expect_no_out "GB/s in all (write)"
# the goodput command says the same count
cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 1 --format json
n=$(jq '.goodput_detail.failures.interruptions' "$T/out")
cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 1
expect_text "$(printf '%.1f' "$n") interruptions expected"
