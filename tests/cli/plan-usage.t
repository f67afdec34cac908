# Usage errors exit 2; a bad workload file exits 3 and names the field.
cf plan; expect_rc 2; expect_err "--workload is required"
cf plan --workload llama3-70b --objective speed; expect_rc 2; expect_err "cost or time"
cf plan --workload llama3-70b --format csv; expect_rc 2; expect_err "accepted: text, json"
cf plan --workload llama3-70b --deadline -3; expect_rc 2
cf plan --workload llama3-70b --top 0; expect_rc 2
cf plan --workload llama3-70b --network ethernet; expect_rc 2; expect_err "plan: --network: expected one of ib, roce, efa"
cf plan --help; expect_rc 0; expect_out "Usage: clusterfit plan"
printf '{"name": "bad", "kind": "llm", "shape": {"model": "llama", "layers": "many"}}' > "$T/bad.json"
cf plan --workload "$T/bad.json"; expect_rc 3; expect_err "layers"
