# NCCL_NET_GDR_LEVEL in front of mpirun reaches only the launching node (GDR partial);
# forwarded with -x it reaches every rank (GDR on, still forced).
f="$SHARED/cases/24-ib-gdr-forced-one-side-gather-dropoff-topo-ibstat.txt"
cf audit --format json "$f"
expect_json .gdr partial
expect_json '[.findings[].code] | (index("GDR_PARTIAL") != null) and (index("GDR_FORCED") != null)' true
sed 's/-x CUDA_HOME/-x NCCL_NET_GDR_LEVEL -x CUDA_HOME/' "$f" > "$T/x.txt"
cf audit --format json "$T/x.txt"
expect_json .gdr on
expect_json '[.findings[].code] | (index("GDR_PARTIAL") == null) and (index("GDR_FORCED") != null)' true
