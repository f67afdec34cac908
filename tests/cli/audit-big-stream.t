# A 512 MB stream (2 GB with CLUSTERFIT_BIG_TESTS=1) is read in chunks: peak memory stays
# flat (well under 64 MB) whatever the size.
mb=512; [ "${CLUSTERFIT_BIG_TESTS:-0}" = 1 ] && mb=2048
{ head -n 60 "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt"
  yes 'node01:21:27 [0] NCCL INFO Channel 00/0 : 1[f5000] -> 0[35000] [receive] via NET/AWS Libfabric/0' | head -c $((mb * 1048576)); } |
    /usr/bin/time -f '%M' -o "$T/rss" "$CF" audit --format json > "$T/out" 2> "$T/err"
RC=$?
expect_rc 0
expect_json .network efa
rss=$(tail -n 1 "$T/rss")
[ "$rss" -lt 65536 ] || fail "peak RSS $rss KB for a $mb MB stream"
