# A 10 MB line in the middle of a log is cut, not buffered; the rest still reads.
head -n 40 "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt" > "$T/l.txt"
awk 'BEGIN { s = "x"; for (i = 0; i < 23; i++) s = s s; print substr(s s, 1, 10485760) }' >> "$T/l.txt"
tail -n +41 "$SHARED/cases/08-efa-eks-t4-mpi-prefixed.txt" >> "$T/l.txt"
cf audit --format json "$T/l.txt"; expect_rc 0
expect_json .network efa
expect_json .busbw_GBps 3.11
# a cut last line is reported
awk 'BEGIN { s = "y"; for (i = 0; i < 17; i++) s = s s; printf "%s", s }' >> "$T/l.txt"
cf audit --format json "$T/l.txt"
expect_json '[.findings[].code] | index("TRUNCATED_INPUT") != null' true
