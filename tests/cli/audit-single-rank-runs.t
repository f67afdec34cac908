# nccl-tests built without MPI, launched with mpirun -np 2: each process prints its own
# 1-rank run ("Rank 0" twice, busbw 0): invalid, SINGLE_RANK_RUNS.
cat > "$T/s.txt" <<'X'
# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1
#
# Using devices
# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1
#
# Using devices
#   Rank  0 Pid   1320 on node01 device  0 [0x00] Tesla V100-SXM2-16GB
#   Rank  0 Pid   2066 on node02 device  0 [0x00] Tesla V100-SXM2-16GB
#
#                                                       out-of-place                       in-place
#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
  1310720000     327680000     float     sum    50000   26.21    0.00  0e+00    50000   26.21    0.00  0e+00
X
cf audit --format json "$T/s.txt"; expect_rc 1
expect_json .status invalid
expect_json '[.findings[].code] | index("SINGLE_RANK_RUNS") != null' true
expect_json '.parts[0].layout' error-column
