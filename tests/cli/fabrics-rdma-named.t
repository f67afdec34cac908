# A bundle sold as RDMA whose fabric the offering does not name (family
# rdma, not one of the six compared) is said so in JSON, text, help and
# README alike (the new-user trial, 2026-12-b: an unexplained rdma row).
cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16 --format json; expect_rc 0
cp "$T/out" "$T/f.json"
fams=$(jq -c '[.fabrics[].network]' "$T/f.json")
expect_json_true '[.sold.bundles[] | .fabric_named == (.network as $n | '"$fams"' | index($n) != null)] | all'
n=$(jq '[.sold.bundles[] | select(.fabric_named == false)] | length' "$T/f.json")
[ "$n" -ge 1 ] || fail "the shipped catalog sells no unnamed-RDMA H100-SXM bundle to test"
expect_json_true '.sold.bundles[.sold.best].fabric_named'
expect_json_true '[.sold.assumes[] | test("rdma: RDMA, fabric not named")] | any'
cf fabrics --workload llama3-8b --gpu H100-SXM --nodes 16; expect_rc 0
expect_text "rdma: RDMA, fabric not named"
cf fabrics --help; expect_rc 0
expect_text "rdma: RDMA, fabric not named"
grep -q "rdma.*RDMA, fabric not named" "$ROOT/README.md" || fail "README does not name the rdma family"
