# Open MPI --tag-output prefixes on every line ([1,N]<stdout>:): EFA through AWS Libfabric.
cf audit --format json "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt"; expect_rc 0
expect_json .network efa
expect_json .busbw_GBps 3.11
expect_json .nccl_version 2.12.7
expect_json '[.findings[].code] | index("EFA_NOT_USED")' null
# the same lines behind srun labels, rank tags and ISO timestamps read the same
sed -e 's/^\[1,\([0-9]\)\]<stdout>:/\1: [\1] 2024-05-01T12:00:00.123Z /' "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt" > "$T/p.txt"
cf audit --format json "$T/p.txt"; expect_rc 0
expect_json .network efa
expect_json .busbw_GBps 3.11
expect_json .nodes 2
