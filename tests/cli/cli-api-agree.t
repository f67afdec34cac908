# The CLI and the web API run the same bad input through the same library
# setters and model, so they refuse it alike: `predict collective` exits 2
# and GET /api/predict/collective answers 400, both with the library's
# reason, each naming the parameter in its own spelling (--gpus-per-node,
# parameter 'gpus_per_node'). One case per disagreement the two front ends
# had before the library owned the rules (issue 8: the one-node rule, the
# gpus_per_node and nics bounds, the message when the model refuses,
# `multinode any`, the plan options of `plan` and POST /api/plan, and
# "today" as the UTC date).
serve_start "$T/serve.err"

FAB="--gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4"
QFAB="gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4"

# api QUERY — GET /api/predict/collective?QUERY: status in $HS, body in
# $T/api.json, the error message (if any) in $HM.
api() {
    HS=$(curl -s -o "$T/api.json" -w '%{http_code}' "$BASE/api/predict/collective?$1")
    HM=$(jq -r '.error.message // empty' "$T/api.json")
}
# agree PARAM FLAG HAS — the CLI (last `cf`) exited 2 and the API (last
# `api` or `api_plan`) answered 400 with the same library reason, which
# holds HAS: the API says "parameter 'PARAM': REASON", the CLI "clusterfit
# $ACMD: REASON" (ACMD: the command, predict collective unless set) with
# PARAM written FLAG.
ACMD="predict collective"
agree() {
    param=$1; flag=$2; has=$3
    [ "$RC" = 2 ] || fail "$param: CLI exit $RC, expected 2"
    [ "$HS" = 400 ] || fail "$param: API status $HS, expected 400 ($HM)"
    cm=$(sed -n "1s/^clusterfit $ACMD: //p" "$T/err")
    case "$cm" in *"$flag"*) ;; *) fail "$param: the CLI does not name $flag: $cm";; esac
    case "$HM" in "parameter '$param': "*) ;; *) fail "$param: the API does not name '$param': $HM";; esac
    rest=${HM#"parameter '$param': "}
    # The CLI's line with its flag written back as the library's name is the
    # API's reason (whose leading name, when there is one, the API drops).
    lib=$(printf '%s' "$cm" | sed "s/$flag/$param/")
    [ "$lib" = "$rest" ] || [ "$lib" = "$param $rest" ] || fail "$param: the reasons differ: CLI '$cm', API '$HM'"
    case "$rest" in *"$has"*) ;; *) fail "$param: the reason lacks '$has': $HM";; esac
}

# 1. An offering that does not state its network (lambda-od-8x-h100): one
#    node needs none, and both answer it, with the same numbers.
cf predict collective --collective all_reduce --bytes 1G --nodes 1 --offering lambda-od-8x-h100 --format json
expect_rc 0
api "collective=all_reduce&bytes=1G&nodes=1&offering=lambda-od-8x-h100"
[ "$HS" = 200 ] || fail "API on one node of lambda-od-8x-h100: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API differ: $(cat "$T/out") vs $(cat "$T/api.json")"
expect_json .nodes 1; expect_json .ranks 8; expect_json .bottleneck intra_node
# ... and on two nodes both refuse, the offering named: one node works.
cf predict collective --collective all_reduce --bytes 1G --nodes 2 --offering lambda-od-8x-h100
api "collective=all_reduce&bytes=1G&nodes=2&offering=lambda-od-8x-h100"
agree offering --offering "lambda-od-8x-h100: 2 nodes need the network between them"
expect_err "one node works"

# 2. gpus_per_node: 1..576 for both (the CLI took at most 1024).
cf predict collective --collective all_reduce --bytes 1G --nodes 1 $FAB --gpus-per-node 5000 --network none
api "collective=all_reduce&bytes=1G&nodes=1&gpu=H100-SXM&gpus_per_node=5000&intra=nvswitch-nvlink4&network=none&nics=8&nic_gbps=400"
agree gpus_per_node --gpus-per-node "expects an integer from 1 to 576, got '5000'"
cf predict collective --collective all_reduce --bytes 1G --nodes 1 --gpu H100-SXM --gpus-per-node 576 \
    --intra nvswitch-nvlink4 --network none --format json
expect_rc 0; expect_json .ranks 576
api "collective=all_reduce&bytes=1G&nodes=1&gpu=H100-SXM&gpus_per_node=576&intra=nvswitch-nvlink4&network=none&nics=8&nic_gbps=400"
[ "$HS" = 200 ] || fail "API gpus_per_node=576: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API differ on 576 GPUs per node"

# 3. nics: 1..1024 for both (the API took 0).
cf predict collective --collective all_reduce --bytes 1G --nodes 2 $FAB --network ib --nics 0 --nic-gbps 400
api "collective=all_reduce&bytes=1G&nodes=2&$QFAB&network=ib&nics=0&nic_gbps=400"
agree nics --nics "expects an integer from 1 to 1024, got '0'"
cf predict collective --collective all_reduce --bytes 1G --nodes 2 $FAB --network ib --nics 1025 --nic-gbps 400
api "collective=all_reduce&bytes=1G&nodes=2&$QFAB&network=ib&nics=1025&nic_gbps=400"
agree nics --nics "got '1025'"

# ... and network none needs no NICs, in both (the API wanted nics, and 0).
cf predict collective --collective all_reduce --bytes 1G --nodes 1 $FAB --network none --format json
expect_rc 0
api "collective=all_reduce&bytes=1G&nodes=1&$QFAB&network=none"
[ "$HS" = 200 ] || fail "API network=none without nics: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API differ on network none"
cf predict collective --collective all_reduce --bytes 1G --nodes 1 $FAB --network none --nics 0 --nic-gbps 400
api "collective=all_reduce&bytes=1G&nodes=1&$QFAB&network=none&nics=0&nic_gbps=400"
agree nics --nics "got '0'"
api "collective=all_reduce&bytes=1G&nodes=2&$QFAB&network=ib&nic_gbps=400"
[ "$HS" = 400 ] || fail "API network=ib without nics: $HS"
case "$HM" in *"parameter 'nics' is required"*) ;; *) fail "API network=ib without nics: $HM";; esac
cf predict collective --collective all_reduce --bytes 1G --nodes 2 $FAB --network ib --nic-gbps 400
expect_rc 2; expect_err "--network ib needs --nics and --nic-gbps"

# 4. The model's refusals, told by the model: several nodes on network none
#    (the CLI had its own check, the API re-derived the model's) ...
cf predict collective --collective all_reduce --bytes 1G --nodes 2 $FAB --network none
api "collective=all_reduce&bytes=1G&nodes=2&$QFAB&network=none"
agree nodes --nodes "2 needs a network between the nodes; the fabric's network is none (for several nodes: ib, roce"
# ... an algorithm that cannot run (the CLI guessed a list of causes) ...
cf predict collective --collective all_reduce --bytes 1G --nodes 2 $FAB --network ib --nics 8 --nic-gbps 400 --algo nvls
api "collective=all_reduce&bytes=1G&nodes=2&$QFAB&network=ib&nics=8&nic_gbps=400&algo=nvls"
agree algo --algo "the model cannot run algo nvls for all_reduce on this fabric: nvls runs within one node"
# ... more ranks per node than the node has GPUs.
cf predict collective --collective all_reduce --bytes 1G --nodes 1 $FAB --network none --ranks-per-node 16
api "collective=all_reduce&bytes=1G&nodes=1&$QFAB&network=none&nics=8&nic_gbps=400&ranks_per_node=16"
agree ranks_per_node --ranks-per-node "16 exceeds the node's 8 GPUs"

# 5. An unknown GPU: the accepted names, from the hardware table.
cf predict collective --collective all_reduce --bytes 1G --nodes 1 --gpu H100-SMX --gpus-per-node 8 \
    --intra nvswitch-nvlink4 --network none
api "collective=all_reduce&bytes=1G&nodes=1&gpu=H100-SMX&gpus_per_node=8&intra=nvswitch-nvlink4&network=none&nics=8&nic_gbps=400"
agree gpu --gpu "unknown gpu 'H100-SMX'; did you mean H100-SXM? (accepted: "
expect_err "unknown --gpu 'H100-SMX'"; expect_err "H100-SXM"

# 6. predict step (the API has no step endpoint): a layout that does not
#    fill whole nodes is the model's refusal, with the GPU counts.
cf predict step --workload llama3-8b --tp 1 --pp 1 --dp 12 $FAB --network ib --nics 8 --nic-gbps 400
expect_rc 2
expect_err "clusterfit predict step: tp*pp*dp*cp = 12 does not equal nodes*gpus_per_node = 2*8 = 16; 12 is not a multiple of 8 GPUs per node"
# and the one-node rule of the offering holds for steps too.
cf predict step --offering lambda-od-8x-h100 --workload llama3-8b --tp 8 --pp 1 --dp 1 --format json
expect_rc 0; expect_json_true '.step_time_s > 0'
cf predict step --offering lambda-od-8x-h100 --workload llama3-8b --tp 8 --pp 1 --dp 2
expect_rc 2
expect_err "clusterfit predict step: --offering lambda-od-8x-h100: 2 nodes need the network between them"
# 7. `multinode any` (no filter) is the library's word for both: the same
#    offerings from `list` and GET /api/offerings.
cf list --multinode any --format json
expect_rc 0
n_cli=$(jq length "$T/out")
n_api=$(curl -s "$BASE/api/offerings?multinode=any" | jq length)
[ "$n_cli" -gt 100 ] || fail "list --multinode any gave $n_cli offerings"
[ "$n_cli" = "$n_api" ] || fail "multinode any: CLI $n_cli offerings, API $n_api"

# 8. The plan options go through cf_plan_opts_set for `plan`'s flags and
#    POST /api/plan's members alike, with one set of bounds (limits.h);
#    --deadline is the library's deadline_h.
# api_plan BODY — POST /api/plan with the JSON BODY: status in $HS, body
# in $T/api.json, the error message (if any) in $HM.
api_plan() {
    HS=$(curl -s -o "$T/api.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        --data "$1" "$BASE/api/plan")
    HM=$(jq -r '.error.message // empty' "$T/api.json")
}
ACMD=plan
PW="--workload llama3-8b --top 1"
# An objective that is neither cost nor time.
cf plan $PW --objective speed
api_plan '{"workload": "llama3-8b", "top": 1, "objective": "speed"}'
agree objective --objective "expects cost or time, got 'speed'"
# A deadline past 10^7 h (the CLI took up to 10^9) and below 0.001 h (the
# CLI took 10^-6): both refuse, naming the bounds.
cf plan $PW --deadline 20000000
api_plan '{"workload": "llama3-8b", "top": 1, "deadline_h": 20000000}'
agree deadline_h --deadline "expects a number of hours from 0.001 to 1e+07, got '20000000'"
cf plan $PW --deadline 0.0001
api_plan '{"workload": "llama3-8b", "top": 1, "deadline_h": 0.0001}'
agree deadline_h --deadline "got '0.0001'"
# A margin past 100 %: --margin is the library's margin_pct.
cf plan $PW --deadline 100 --margin 150
api_plan '{"workload": "llama3-8b", "top": 1, "deadline_h": 100, "margin_pct": 150}'
agree margin_pct --margin "expects a percentage from 0 to 100, got '150'"
# The goodput options (issue 24): an MTBF or checkpoint interval of zero,
# below zero or not a number is refused by both, naming it.
cf plan $PW --mtbf-gpu-h 0
api_plan '{"workload": "llama3-8b", "top": 1, "mtbf_gpu_h": 0}'
agree mtbf_gpu_h --mtbf-gpu-h "expects a number of GPU-hours from 1 to 1e+12, got '0'"
cf plan $PW --ckpt-interval -60
api_plan '{"workload": "llama3-8b", "top": 1, "ckpt_interval": -60}'
agree ckpt_interval --ckpt-interval "expects a number of seconds from 1 to 1e+07, got '-60'"
api_plan '{"workload": "llama3-8b", "top": 1, "no_failures": true}'
[ "$HS" = 200 ] || fail "no_failures true: API status $HS ($HM)"
jq -e '[.ranked[] | .goodput == 1] | all' "$T/api.json" > /dev/null || fail "no_failures: a row's goodput is not 1"
# known_only in the API takes true or false; a string of another word is refused.
api_plan '{"workload": "llama3-8b", "top": 1, "known_only": "maybe"}'
[ "$HS" = 400 ] || fail "known_only maybe: API status $HS"
case "$HM" in "parameter 'known_only': "*"expects true or false, got 'maybe'"*) ;; *) fail "known_only: $HM";; esac
api_plan '{"workload": "llama3-8b", "top": 1, "known_only": true}'
[ "$HS" = 200 ] || fail "known_only true: API status $HS ($HM)"
jq -e '[.ranked[] | .rests_on_assumptions == false] | all' "$T/api.json" > /dev/null || fail "known_only: a row rests on assumptions"
# top 0 (both refused it, with different words).
cf plan --workload llama3-8b --top 0
api_plan '{"workload": "llama3-8b", "top": 0}'
agree top --top "expects an integer from 1 to 100000 (rows), got '0'"
# max_gpus past 2^20 (the CLI took up to 10^7).
cf plan $PW --max-gpus 2000000
api_plan '{"workload": "llama3-8b", "top": 1, "max_gpus": 2000000}'
agree max_gpus --max-gpus "expects an integer from 1 to 1048576 (GPUs), got '2000000'"
# A budget of 10^16 (the API took at most 10^15): both plan, alike.
cf plan $PW --budget 1e16 --objective cost --format json
expect_rc 0
api_plan '{"workload": "llama3-8b", "top": 1, "budget": 1e16, "objective": "cost"}'
[ "$HS" = 200 ] || fail "API budget 1e16: $HS $HM"
[ "$(jq -c .ranked "$T/out")" = "$(jq -c .ranked "$T/api.json")" ] || fail "CLI and API differ on budget 1e16"
jq -e '.ranked | length == 1' "$T/out" > /dev/null || fail "budget 1e16 ranked nothing"
# A budget alone asks for the fastest plan within it, in both (the API
# ranked by cost): the same row as with objective time, faster than the
# cheapest one within the budget.
api_plan '{"workload": "llama3-8b", "top": 1, "budget": 2000000, "objective": "cost"}'
[ "$HS" = 200 ] || fail "API budget with objective cost: $HS $HM"
cost_row=$(jq -c '.ranked[0]' "$T/api.json")
api_plan '{"workload": "llama3-8b", "top": 1, "budget": 2000000, "objective": "time"}'
[ "$HS" = 200 ] || fail "API budget with objective time: $HS $HM"
time_row=$(jq -c '.ranked[0]' "$T/api.json")
api_plan '{"workload": "llama3-8b", "top": 1, "budget": 2000000}'
[ "$HS" = 200 ] || fail "API budget alone: $HS $HM"
api_row=$(jq -c '.ranked[0]' "$T/api.json")
cf plan $PW --budget 2000000 --format json
expect_rc 0
cli_row=$(jq -c '.ranked[0]' "$T/out")
[ "$time_row" != null ] || fail "nothing ranked within a budget of 2,000,000"
[ "$api_row" = "$time_row" ] || fail "API budget alone is not the time objective: $api_row vs $time_row"
[ "$cli_row" = "$time_row" ] || fail "CLI budget alone is not the API's: $cli_row vs $time_row"
[ "$cost_row" != "$time_row" ] || fail "the cost and time objectives give the same row: the case shows nothing"
jq -n --argjson c "$cost_row" --argjson t "$time_row" -e '$t.time_to_train_h < $c.time_to_train_h and $t.cost <= 2000000' \
    > /dev/null || fail "the budget-alone row is not the faster one within the budget: $time_row vs $cost_row"
cf plan $PW --budget 2000000
expect_rc 0; expect_out "Fastest first (costs in USD), costing at most 2,000,000 USD, among node counts"
ACMD="predict collective"

# 10. fabrics (issue 9): `clusterfit fabrics` and POST /api/fabrics take
#     the same names through cf_fabrics_query_set and answer the same
#     document; --deadline is deadline_h, as for plan.
api_fab() {
    HS=$(curl -s -o "$T/api.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        --data "$1" "$BASE/api/fabrics")
    HM=$(jq -r '.error.message // empty' "$T/api.json")
}
ACMD=fabrics
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 64 --format json; expect_rc 0
api_fab '{"workload": "llama3-70b", "gpu": "H100-SXM", "nodes": 64}'
[ "$HS" = 200 ] || fail "API fabrics at 64 nodes: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API fabrics differ at 64 nodes"
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --baseline ib --non-blocking yes \
    --nics 4 --nic-gbps 200 --format json; expect_rc 0
api_fab '{"workload": "llama3-8b", "gpu": "H100-SXM", "deadline_h": 720, "baseline": "ib",
          "non_blocking": "yes", "nics": 4, "nic_gbps": 200}'
[ "$HS" = 200 ] || fail "API fabrics under a deadline: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API fabrics differ under a deadline"
# --margin is margin_pct (issue 23: the deadline margin of plan), the
# as-sold bundles from the same catalog.
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --margin 5 --format json; expect_rc 0
api_fab '{"workload": "llama3-8b", "gpu": "H100-SXM", "deadline_h": 720, "margin_pct": 5}'
[ "$HS" = 200 ] || fail "API fabrics with a margin: $HS $HM"
[ "$(jq -c . "$T/out")" = "$(jq -c . "$T/api.json")" ] || fail "CLI and API fabrics differ with a margin"
jq -e '.margin_pct == 5 and (.sold.bundles | length) > 0' "$T/api.json" > /dev/null || fail "the API's margin or bundles are missing"
cf fabrics --workload llama3-8b --gpu H100-SXM --deadline 720 --margin 101
api_fab '{"workload": "llama3-8b", "gpu": "H100-SXM", "deadline_h": 720, "margin_pct": 101}'
agree margin_pct --margin "expects a percentage from 0 to 100, got '101'"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 0
api_fab '{"workload": "llama3-70b", "gpu": "H100-SXM", "nodes": 0}'
agree nodes --nodes "expects an integer from 1 to 1000000, got '0'"
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline 0.0001
api_fab '{"workload": "llama3-70b", "gpu": "H100-SXM", "deadline_h": 0.0001}'
agree deadline_h --deadline "expects a number of hours from 0.001 to 1e+07, got '0.0001'"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --baseline rdma
api_fab '{"workload": "llama3-70b", "gpu": "H100-SXM", "nodes": 4, "baseline": "rdma"}'
agree baseline --baseline "unknown baseline 'rdma' (accepted: ib, roce, efa, tcpxo, tcpx, tcp)"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --rail-optimized maybe
api_fab '{"workload": "llama3-70b", "gpu": "H100-SXM", "nodes": 4, "rail_optimized": "maybe"}'
agree rail_optimized --rail-optimized "unknown rail_optimized 'maybe' (accepted: no, yes, unknown)"
cf fabrics --workload llama3-70b --gpu H100-SMX --nodes 4
api_fab '{"workload": "llama3-70b", "gpu": "H100-SMX", "nodes": 4}'
agree gpu --gpu "unknown gpu 'H100-SMX'; did you mean H100-SXM? (accepted: "
cf fabrics --workload llama3-8b --gpu T4 --nodes 4
api_fab '{"workload": "llama3-8b", "gpu": "T4", "nodes": 4}'
agree nic_gbps --nic-gbps "not given, and no offering of T4 in the shipped catalog states"
ACMD="predict collective"

serve_stop

# 9. "today" is the UTC date for both (cf_today): without CLUSTERFIT_NOW the
#    CLI in a zone 14 hours east of UTC and in one 12 hours west (whose local
#    dates always differ) and a server started without it count the same
#    age_days (the CLI used its local date, the server UTC).
env -u CLUSTERFIT_NOW TZ=AAA-14 "$CF" show aws-p5-48xlarge --format json > "$T/east.json" || fail "show (east)"
env -u CLUSTERFIT_NOW TZ=BBB+12 "$CF" show aws-p5-48xlarge --format json > "$T/west.json" || fail "show (west)"
east=$(jq .age_days "$T/east.json"); west=$(jq .age_days "$T/west.json")
serve_start "$T/serve2.err" env -u CLUSTERFIT_NOW TZ=AAA-14
api_age=$(curl -s "$BASE/api/offerings/aws-p5-48xlarge" | jq .age_days)
serve_stop
utc=$(date -u +%Y-%m-%d)
[ "$east" -gt 0 ] || fail "age_days east: $east"
[ "$east" = "$west" ] || fail "age_days depends on the CLI's time zone: $east (UTC+14) vs $west (UTC-12)"
[ "$east" = "$api_age" ] || fail "age_days: CLI $east, API $api_age"
# ... and it is counted from the UTC date.
as_of=$(jq -r .as_of "$T/east.json")
CLUSTERFIT_NOW=$utc "$CF" show aws-p5-48xlarge --format json > "$T/utc.json"
[ "$(jq .age_days "$T/utc.json")" = "$east" ] || fail "age_days from $as_of: $east, but $(jq .age_days "$T/utc.json") from the UTC date $utc"
