# An offering priced in EUR is never converted: planning in USD lists it as
# unranked with the reason "currency EUR" (Scaleway's rows are EUR-only).
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
cf plan --workload "$T/w.json" --multinode any --provider Scaleway --format json; expect_rc 0
expect_json '.ranked | length' 0
expect_json_true '.unranked | map(select(.offering_id == "scaleway-h100-sxm-8-80g")) | .[0].reasons | index("currency EUR") != null'
# Planning in EUR: the currency is no longer a reason; the unstated fabric is
# none either: the B300 box (multinode unknown) is planned on one node,
# flagged network_unknown; the H100 box is multinode=no since the cat-old pass
# (single instance), so it is planned on one node without that flag.
cf plan --workload "$T/w.json" --multinode any --provider Scaleway --currency EUR --format json; expect_rc 0
expect_json '.currency' EUR
expect_json_true '[.unranked[].reasons[] | select(startswith("currency"))] | length == 0'
expect_json_true '.ranked | map(select(.offering_id == "scaleway-b300-sxm-8-288g")) | .[0] | .nodes == 1 and (.flags | index("network_unknown") != null)'
expect_json_true '.ranked | map(select(.offering_id == "scaleway-h100-sxm-8-80g")) | .[0] | .nodes == 1 and (.flags | index("network_unknown") == null)'
