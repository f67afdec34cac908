# Plurals and terms by workload kind (issue 23): "1 GPUs", "1 ranks" and
# "DP all-reduce" in a stencil's why line. A stencil's ranks are not
# data-parallel replicas: its exposed term is the halo exchange and the
# residual's all-reduce.
cf plan --workload cfd-stencil --multinode yes --objective time --top 3; expect_rc 0
expect_no_out "DP all-reduce"
tr '\n' ' ' < "$T/out" | grep -qE "why: MPI halo exchange and all-reduce over [0-9]+ Gbit/s" || fail "no halo-exchange words"
cf plan --workload batch-inference; expect_rc 0
expect_no_out " 1 GPUs"
expect_no_out " 1 ranks"
expect_out "   1 GPU;"
# The data-parallel kinds keep DP.
cf plan --workload llama3-70b --deadline 2160 --top 5; expect_rc 0
expect_no_out "MPI halo"
