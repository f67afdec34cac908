# validate collectives: a malformed file is bad input (exit 3, FILE:LINE:COLUMN
# naming the column); a missing file too; usage errors exit 2.
printf 'id,gpu,gpus_per_node,nodes,collective,busbw_GBps\nx1,H100-SXM,8,one,all_reduce,480\n' > "$T/bad.csv"
cf validate collectives "$T/bad.csv"
expect_rc 3; expect_err "$T/bad.csv:2:4: nodes: expected a number, got 'one'"
printf 'id,gpu,nodes\n' > "$T/nohead.csv"
cf validate collectives "$T/nohead.csv"
expect_rc 3; expect_err "missing column 'gpus_per_node'"
cf validate collectives "$T/absent.csv"; expect_rc 3; expect_err "cannot open"
cf validate collectives; expect_rc 2
cf validate bogus x.csv; expect_rc 2; expect_err "unknown kind 'bogus'"
cf validate --help; expect_rc 0; expect_out "Usage: clusterfit validate collectives"
cf validate collectives --help; expect_rc 0; expect_out "--format"
# A cell with an embedded NUL is refused where it is (issue 15), not cut at
# the NUL ("480\0junk" was read as 480).
printf 'id,gpu,gpus_per_node,nodes,collective,busbw_GBps\nx1,H100-SXM,8,2,all_reduce,480\000junk\n' > "$T/nul.csv"
cf validate collectives "$T/nul.csv"
expect_rc 3; expect_err "$T/nul.csv:2:6: field contains a NUL byte"
