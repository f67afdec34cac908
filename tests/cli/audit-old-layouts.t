# Old nccl-tests layouts: "error" column without root, no redop at all, tagged root -1[0],
# extra leading columns, N/A under -c 0; several runs in one file: busbw of the last.
cat > "$T/o.txt" <<'X'
# nThread 1 nGpus 8 minBytes 4096 maxBytes 536870912 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error
        4096          1024     float     sum    93.73    0.04    0.09  1e-06    93.15    0.04    0.09  1e-06
   536870912     134217728     float     sum   5000.0  107.37  187.90  1e-06   5000.0  107.37  187.90  1e-06
# Avg bus bandwidth    : 94.0
# nThread 1 nGpus 1 minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 validation: 0
2024-05-01 12:00:00,001 rank7        8             2     float     sum   -1[0]    12.90    0.00    0.00    N/A    12.87    0.00    0.00    N/A
2024-05-01 12:00:00,002 rank7  268435456      67108864     float     sum   -1[0]   3000.0   89.48  156.59    N/A   3001.0   89.45  156.54    N/A
X
# no link rate: the busbw is shown but not judged (status unjudged, exit 6)
cf audit --format json "$T/o.txt"; expect_rc 6
expect_json .status unjudged
expect_json '[.parts[] | select(.kind == "nccl-tests") | .busbw_GBps] | join(",")' '187.9,156.59'
expect_json .busbw_GBps 156.59
expect_json '.parts[0].layout' error-column
expect_json '.parts[1].rows[1].wrong' null
