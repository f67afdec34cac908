# scale: required options, bad node lists, unknown offerings.
cf scale --workload llama3-8b; expect_rc 2; expect_err "required"
cf scale --workload llama3-8b --offering aws-p5-48xlarge --nodes 0,2; expect_rc 2
cf scale --workload llama3-8b --offering aws-p5-48xlarge --nodes 2,,4; expect_rc 2
cf scale --help; expect_rc 0; expect_out "Usage: clusterfit scale"
printf '{"name": "t", "kind": "llm", "shape": {"model": "llama", "layers": 2, "hidden": 256, "ffn_hidden": 1024, "heads": 4, "kv_heads": 4, "seq": 1024, "vocab": 1000}, "batch": 8, "tokens": 1e6}' > "$T/w.json"
cf scale --workload "$T/w.json" --offering no-such-offering; expect_rc 2; expect_err "no offering"
