# fabrics for a serve workload (issue 25): the worth premium of each family
# from requests/s per node at one cluster size; InfiniBand's DeepEP
# all-to-all is worth more than TCP for DeepSeek-V3's EP decode.
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 12 --format json; expect_rc 0
expect_json .kind serve; expect_json .nodes 12; expect_json .premium_basis requests_per_s
expect_json '[.fabrics[].network] | join(",")' "ib,roce,efa,tcpxo,tcpx,tcp"
expect_json '.fabrics[] | select(.network == "tcp") | .worth_premium_pct' 0
expect_json_true '(.fabrics[] | select(.network == "ib") | .worth_premium_pct) > 50'
expect_json_true 'all(.fabrics[]; .nodes <= 12 and .decode_tpot_ms <= 50 + 1e-9)'
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --nodes 12; expect_rc 0
expect_out "premium"; expect_out "DeepEP"
cf fabrics --workload deepseek-v3-serve --gpu H100-SXM --deadline 10; expect_rc 2; expect_err "deadline"
