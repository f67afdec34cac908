# Imported counts that feed the plan's arithmetic are bounded (issue 15):
# max_cluster_gpus >= 2^32 once made `plan`, `scale` and POST /api/plan die
# with SIGFPE. Import refuses them with FILE:LINE:COLUMN (exit 3), and a
# value stored past the bound (a hand-edited file) skips that row with its
# id and column instead of disabling the catalog.
H='id,provider,offering,gpu,gpus_per_node,gpu_memory_gb,intra_link,network,network_gbps_per_node,nics_per_node,rdma,gpudirect_rdma,max_cluster_gpus,multinode,price_on_demand_gpu_hr,currency,source_url,as_of'
row() { printf '%s\n%s,Ext,huge cluster,H100-SXM,%s,80,nvswitch-nvlink4,ib,3200,%s,yes,yes,%s,yes,0.5,USD,https://example.com,2025-01\n' "$H" "$1" "$2" "$3" "$4" > "$T/$1.csv"; }
row big 8 8 4294967296
cf import "$T/big.csv"; expect_rc 3
expect_err "big.csv:2:13: max_cluster_gpus: expected a whole number from 1 to 10000000, got \"4294967296\""
row wide 8192 8 64
cf import "$T/wide.csv"; expect_rc 3; expect_err "gpus_per_node: expected a whole number from 1 to 576"
row nics 8 4096 64
cf import "$T/nics.csv"; expect_rc 3; expect_err "nics_per_node: expected a whole number from 0 to 1024"
# The bounds themselves are accepted.
row edge 576 1024 10000000
cf import "$T/edge.csv"; expect_rc 0
cf scale --workload resnet50-dp --offering edge --nodes 1024 --format json; expect_rc 0
cf plan --workload llama3-8b --top 3; expect_rc 0
# A stored value past the bound: that row is skipped and named, the others
# are served; plan and scale still answer.
row ok 8 8 64
cf import "$T/ok.csv"; expect_rc 0
sqlite3 "$CLUSTERFIT_DB" "UPDATE offering SET max_cluster_gpus = 4294967296 WHERE id = 'ok'"
cf list --provider Ext --format json; expect_rc 0
expect_json 'map(.id) | join(",")' "edge"
expect_err "warning: catalog $CLUSTERFIT_DB: a stored row fails its checks and is skipped: offering 'ok': max_cluster_gpus: expected a whole number from 1 to 10000000"
cf plan --workload llama3-8b --top 3 --format json; expect_rc 0; expect_err "offering 'ok'"
cf scale --workload llama3-8b --offering ok; expect_rc 2; expect_err "offering 'ok': max_cluster_gpus"
# A bad word in a stored cell: the same (the whole catalog used to exit 4).
sqlite3 "$CLUSTERFIT_DB" "UPDATE offering SET max_cluster_gpus = 64, network = 'bogus' WHERE id = 'ok'"
cf list; expect_rc 0; expect_out "aws-p5-48xlarge"; expect_err "offering 'ok': network"
cf show aws-p5-48xlarge; expect_rc 0
