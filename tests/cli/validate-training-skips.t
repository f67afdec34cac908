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
# The framework column: blank = by the row's ZeRO stage, megatron or fsdp name
# the class whose compute efficiency predicts the row (model/efficiency.c),
# another name skips the row with the reason. t03 (A100, ZeRO-0) is one line.
{ head -1 "$SHARED/data/validation/training.csv" | sed 's/\r$//; s/$/,framework/'
  grep '^t03,' "$SHARED/data/validation/training.csv" | sed 's/\r$//; s/$/,/'
  grep '^t03,' "$SHARED/data/validation/training.csv" | sed 's/\r$//; s/^t03,/t03m,/; s/$/,megatron/'
  grep '^t03,' "$SHARED/data/validation/training.csv" | sed 's/\r$//; s/^t03,/t03f,/; s/$/,FSDP/'
  grep '^t03,' "$SHARED/data/validation/training.csv" | sed 's/\r$//; s/^t03,/t03x,/; s/$/,jax/'
} > "$T/fw.csv"
cf validate training "$T/fw.csv" --format json
expect_rc 0
expect_json '.rows | length' 3
expect_json '[.skipped[] | select(.id == "t03x")][0].reason' "framework 'jax' not one of megatron, fsdp"
# t03 is ZeRO-0: blank is megatron, the same prediction as the stated one.
expect_json_true '([.rows[] | select(.id == "t03")][0].predicted) == ([.rows[] | select(.id == "t03m")][0].predicted)'
# On Ampere the FSDP cell (1.02) computes faster than the Megatron one (0.91),
# by at most their ratio (communication does not scale).
expect_json_true '([.rows[] | select(.id == "t03f")][0].predicted) / ([.rows[] | select(.id == "t03m")][0].predicted) | . > 1.02 and . <= 1.02 / 0.91 + 1e-9'
cf validate training "$T/fw.csv"
expect_rc 0; expect_out "megatron (by ZeRO stage)"; expect_out "; fsdp"
