# Every finding object of --format json carries the one-line fix the text
# report shows ("action"), in findings[] and in parts[].findings.
for f in "$SHARED"/cases/[0-9]*.txt; do
    cf audit --format json "$f"
    expect_json '[.findings[], .parts[].findings[]] | all(.action | type == "string" and length > 20)' true
done
# the text report prints the same action
cf audit --format json "$SHARED"/cases/24-*.txt
act=$(jq -r '[.findings[] | select(.code == "GDR_PARTIAL")][0].action' "$T/out")
cf audit "$SHARED"/cases/24-*.txt
expect_text "action: $act"
