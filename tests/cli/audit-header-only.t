# nccl-tests output cut before its first result row: a clear invalid verdict.
head -n 12 "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt" | grep -v 'NCCL INFO' > "$T/h.txt"
printf '%s\n' '#                                                              out-of-place                       in-place' \
 '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong' >> "$T/h.txt"
cf audit --format json "$T/h.txt"; expect_rc 1
expect_json .status invalid
expect_json '.findings[0].code' NO_RECOGNIZED_INPUT
expect_json '.findings[0].message | test("header only")' true
expect_json '.busbw_GBps' null
