# validate training: blank nodes and a multi-node row without a fabric are skipped with the reason;
# a file without the needed columns is bad input (exit 3).
{ head -1 "$SHARED/data/validation/training.csv"
  grep '^t03,' "$SHARED/data/validation/training.csv"
  grep '^t03,' "$SHARED/data/validation/training.csv" | awk -F, -v OFS=, '{$1="nonodes"; $22=""; print}'
  grep '^t03,' "$SHARED/data/validation/training.csv" | awk -F, -v OFS=, '{$1="nofabric"; $24=""; print}'
} > "$T/rows.csv"
cf validate training "$T/rows.csv" --format json
expect_rc 0
expect_json '.rows | length' 1
expect_json '[.skipped[] | select(.id == "nonodes")][0].reason' "nodes not stated"
expect_json '[.skipped[] | select(.id == "nofabric")][0].reason' "fabric not stated for a multi-node row"
printf 'id,value\nx,1\n' > "$T/bad.csv"
cf validate training "$T/bad.csv"; expect_rc 3
cf validate training "$T/missing.csv"; expect_rc 3
