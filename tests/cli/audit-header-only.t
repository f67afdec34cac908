# nccl-tests output cut before its first result row (issue #4): its facts
# (ranks, nodes, GPUs per node) plus TRUNCATED_INPUT, no bandwidth.
head -n 12 "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt" | grep -v 'NCCL INFO' > "$T/h.txt"
printf '%s\n' '#                                                              out-of-place                       in-place' \
 '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong' >> "$T/h.txt"
cf audit --format json "$T/h.txt"; expect_rc 0
expect_json .status ok
expect_json .ranks 2
expect_json .nodes 2
expect_json '[.findings[].code] | index("TRUNCATED_INPUT") != null' true
expect_json '[.findings[].code] | index("NO_RECOGNIZED_INPUT")' null
expect_json '.busbw_GBps' null
# Column headings alone show no fact at all: nothing recognised.
printf '%s\n' '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong' > "$T/h2.txt"
cf audit --format json "$T/h2.txt"; expect_rc 1
expect_json .status invalid
expect_json '.findings[0].code' NO_RECOGNIZED_INPUT
