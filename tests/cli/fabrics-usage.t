# fabrics: what is required, and every refusal names the flag and the
# accepted values (the library's reasons, as POST /api/fabrics gives them).
cf fabrics; expect_rc 2; expect_err "--workload is required"
cf fabrics --workload llama3-70b --nodes 4; expect_rc 2; expect_err "--gpu is required"
cf fabrics --workload llama3-70b --gpu H100-SXM; expect_rc 2; expect_err "give either --nodes N or --deadline HOURS"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --deadline 9; expect_rc 2
expect_err "give either --nodes N or --deadline HOURS"
cf fabrics --workload llama3-70b --gpu H100-SMX --nodes 4; expect_rc 2; expect_err "unknown --gpu 'H100-SMX'; did you mean H100-SXM? (accepted: "
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 0; expect_rc 2
expect_err "--nodes expects an integer from 1 to 1000000, got '0'"
cf fabrics --workload llama3-70b --gpu H100-SXM --deadline -1; expect_rc 2
expect_err "--deadline expects a number of hours from 0.001 to 1e+07, got '-1'"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --baseline rdma; expect_rc 2
expect_err "unknown --baseline 'rdma' (accepted: ib, roce, efa, tcpxo, tcpx, tcp)"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --non-blocking maybe; expect_rc 2
expect_err "unknown --non-blocking 'maybe' (accepted: no, yes, unknown)"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --nic-gbps 0; expect_rc 2
expect_err "--nic-gbps expects a number from 0.001 to 1e+06"
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --network ib; expect_rc 2
# A GPU no shipped offering states NICs for needs --nic-gbps.
cf fabrics --workload llama3-8b --gpu T4 --nodes 4; expect_rc 2
expect_err "--nic-gbps not given, and no offering of T4"
cf fabrics --workload llama3-8b --gpu T4 --nodes 4 --nic-gbps 100 --format json; expect_rc 0
expect_json '.fabrics[0].nic_gbps' 100
expect_json_true '.assumes | any(startswith("nics 8: one NIC per GPU"))'
cf fabrics --workload llama3-70b --gpu H100-SXM --nodes 4 --format csv; expect_rc 2
cf fabrics --help; expect_rc 0; expect_out "--deadline HOURS"
# Given values are kept, and not assumed; the baseline row is 0 %.
cf fabrics --workload llama3-8b --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --nics 4 \
    --nic-gbps 200 --nodes 8 --baseline ib --non-blocking yes --rail-optimized yes --format json; expect_rc 0
expect_json '.baseline' ib
expect_json '[.assumes[] | select(startswith("nics") or startswith("nic_gbps") or startswith("gpus_per_node"))] | length' 0
expect_json '.fabrics[0].worth_premium_pct' 0
expect_json '[.fabrics[] | .nics] | unique | join(",")' 4
expect_json '.fabrics[0].flags | length' 0
