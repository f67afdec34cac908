# Congestion and topology as stated facts (issue 9, item 2): where a
# fabric leaves non_blocking or rail_optimized unknown beyond 2 nodes (the
# congestion model's one rule for every family), predict, scale and plan rows say so in `flags` (and the text on an
# assumes: line); hand fabrics state them with --non-blocking and
# --rail-optimized; GET /api/predict/collective takes the same names.
HAND="--gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --nics 8 --nic-gbps 400"
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network ib --format json; expect_rc 0
expect_json '.flags | join(",")' "non_blocking_unknown,rail_optimized_unknown"
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network ib; expect_rc 0
expect_out "assumes: non_blocking unknown: taken as not non-blocking"
expect_out "assumes: rail_optimized unknown"
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network ib \
    --non-blocking yes --rail-optimized unknown --format json; expect_rc 0
expect_json '.flags | join(",")' "rail_optimized_unknown"
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network ib \
    --non-blocking yes --rail-optimized yes; expect_rc 0
expect_no_out "assumes:"
# Stating a blocking fabric is a fact, not an assumption.
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network roce \
    --non-blocking no --rail-optimized no --format json; expect_rc 0
expect_json '.flags | length' 0
# EFA and TCP are held to the same rule (no silent difference between
# families); 2 nodes share a leaf switch, one node crosses no network.
cf predict collective --collective all_reduce --bytes 8 --nodes 64 $HAND --network efa --format json
expect_json '.flags | join(",")' "non_blocking_unknown,rail_optimized_unknown"
cf predict collective --collective all_reduce --bytes 8 --nodes 2 $HAND --network ib --format json
expect_json '.flags | length' 0
cf predict collective --collective all_reduce --bytes 8 --nodes 1 $HAND --network ib --format json
expect_json '.flags | length' 0
cf predict collective --collective all_reduce --bytes 8 --nodes 4 $HAND --network ib --non-blocking perhaps
expect_rc 2; expect_err "unknown --non-blocking 'perhaps' (accepted: no, yes, unknown)"
# An offering's topology is the catalog's.
cf predict collective --collective all_reduce --bytes 8 --nodes 4 --offering crusoe-h100-ib --non-blocking yes
expect_rc 2; expect_err "--offering excludes the fabric flags"

# predict step: the same flags at the layout's node count.
cf predict step --workload llama3-8b --tp 8 --pp 1 --dp 4 $HAND --network ib --format json; expect_rc 0
expect_json '.flags | join(",")' "non_blocking_unknown,rail_optimized_unknown"
cf predict step --workload llama3-8b --tp 8 --pp 1 --dp 4 $HAND --network ib --non-blocking yes \
    --rail-optimized yes --format json; expect_rc 0
expect_json '.flags | length' 0
cf predict step --workload llama3-8b --tp 8 --pp 1 --dp 4 $HAND --network ib; expect_rc 0
expect_out "assumes: non_blocking unknown"

# scale: per row; the catalog's crusoe-h100-ib states both yes.
cf scale --workload llama3-8b --offering sfcompute-h100-market --nodes 1,4 --format json; expect_rc 0
expect_json '[.[] | .flags | length] | join(",")' "0,2"
cf scale --workload llama3-8b --offering sfcompute-h100-market --nodes 1,4; expect_rc 0
expect_out "assumes: non_blocking unknown"
cf scale --workload llama3-8b --offering crusoe-h100-ib --nodes 1,4 --format json; expect_rc 0
expect_json '[.[] | .flags | length] | join(",")' "0,0"

# plan: ranked rows on such a fabric carry the codes; the text says it.
cf plan --workload llama3-8b --network ib --top 3 --format json; expect_rc 0
expect_json_true '[.ranked[] | select(.offering_id == "sfcompute-h100-market") | .flags | index("non_blocking_unknown")] | .[0] != null'
expect_json_true '[.ranked[] | select(.offering_id == "crusoe-h100-ib") | .flags | index("non_blocking_unknown")] | .[0] == null'

# The web API takes the same names and says the same.
serve_start "$T/serve.log"
Q="collective=all_reduce&bytes=8&nodes=64&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=ib&nics=8&nic_gbps=400"
curl -s "$BASE/api/predict/collective?$Q" > "$T/out"
expect_json '.flags | join(",")' "non_blocking_unknown,rail_optimized_unknown"
curl -s "$BASE/api/predict/collective?$Q&non_blocking=yes&rail_optimized=yes" > "$T/out"
expect_json '.flags | length' 0
code=$(curl -s -o "$T/out" -w '%{http_code}' "$BASE/api/predict/collective?$Q&non_blocking=maybe")
[ "$code" = 400 ] || fail "non_blocking=maybe: HTTP $code"
expect_json '.error.message' "parameter 'non_blocking': unknown non_blocking 'maybe' (accepted: no, yes, unknown)"
code=$(curl -s -o "$T/out" -w '%{http_code}' "$BASE/api/predict/collective?collective=all_reduce&bytes=8&nodes=4&offering=crusoe-h100-ib&non_blocking=yes")
[ "$code" = 400 ] || fail "offering with non_blocking: HTTP $code"
serve_stop
