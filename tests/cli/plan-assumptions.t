# plan: a row's flags are stated in words on the row, not only in JSON.
# sfcompute-h100-market has only a reserved (market) price and no stated
# largest cluster or NIC count (data/offerings), so its row must say so.
cf plan --workload llama3-70b --format json
expect_rc 0
expect_json '[.ranked[] | select(.offering_id == "sfcompute-h100-market") | .flags | index("reserved_price") != null] | .[0]' true
expect_json '[.ranked[] | select(.offering_id == "sfcompute-h100-market") | .flags | index("max_cluster_unknown") != null] | .[0]' true
# Every ranked row with flags gets an "assumes:" line: count both.
NF=$(jq '[.ranked[] | select((.flags | length) > 0)] | length' "$T/out")
cf plan --workload llama3-70b
expect_rc 0
NA=$(grep -c '^   assumes: ' "$T/out")
[ "$NF" = "$NA" ] || fail "$NF rows with flags, $NA assumes lines"
# The sfcompute row's assumes text, its wrapped lines joined.
SF=$(awk '/^[ 0-9][0-9][ *]sfcompute-h100-market / { f = 1; next } f && /^[ 0-9][0-9][ *][a-z]/ { exit }
          f && /assumes:/ { a = 1 } f && a { sub(/^ *(assumes:)? */, ""); printf "%s ", $0 }' "$T/out")
case "$SF" in *"reserved price (on-demand unknown)"*) ;; *) fail "no reserved price words: $SF" ;; esac
case "$SF" in *"largest cluster not stated, capped at 16,384 GPUs"*) ;; *) fail "no cap words: $SF" ;; esac
# The cap follows --max-gpus.
cf plan --workload llama3-70b --max-gpus 4096
expect_rc 0; expect_out "capped at 4,096 GPUs"
awk 'length > 79 { print; bad = 1 } END { exit bad }' "$T/out" || fail "a line is wider than 79 columns"
# An LLM row on a GPU with no published training row behind its compute
# efficiency for its framework class (MI300X: model/efficiency.c) says so;
# an H100 row does not, nor a B200 row of the Megatron class (ZeRO below 3).
cf plan --workload llama3-70b --format json
expect_rc 0
expect_json '[.ranked[] | select(.offering_id == "oci-bm-gpu-mi300x-8") | .flags | index("compute_efficiency_unvalidated") != null] | .[0]' true
expect_json_true '[.ranked[] | select(.offering_id == "nebius-b200-cluster") | (.flags | index("compute_efficiency_unvalidated") != null) == (.zero == 3)] | all' 
expect_json '[.ranked[] | select(.offering_id == "sfcompute-h100-market") | .flags | index("compute_efficiency_unvalidated") != null] | .[0]' false
cf plan --workload llama3-70b
expect_rc 0
tr "\n" " " < "$T/out" | tr -s " " | grep -q "no published training row for this GPU, compute efficiency of the nearest validated generation assumed" || fail "no unvalidated words"
cf plan --workload resnet50-dp --format json
expect_rc 0
expect_json '[.ranked[] | .flags | index("compute_efficiency_unvalidated") == null] | all' true
