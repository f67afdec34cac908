# list --format csv neutralises cells a spreadsheet would run as a formula
# (OWASP CSV injection: leading = + - @ TAB CR get a leading '), and import
# reads them back as they were.
printf 'id,provider,offering,gpu,gpus_per_node,network,multinode,notes,source_url,as_of\nx-formula,"=HYPERLINK(""http://example.com"")",@SUM(A1),H100-SXM,8,ib,yes,-2+3 cmd|calc,https://example.com/x,2026-11\n' > "$T/x.csv"
cf import "$T/x.csv"; expect_rc 0
cf list --provider '=HYPERLINK("http://example.com")' --format csv; expect_rc 0
row=$(sed -n 2p "$T/out")
case "$row" in *"\"'=HYPERLINK(\"\"http://example.com\"\")\""*) ;; *) fail "provider not neutralised: $row";; esac
case "$row" in *"'@SUM(A1)"*) ;; *) fail "offering not neutralised: $row";; esac
case "$row" in *"'-2+3 cmd|calc"*) ;; *) fail "notes not neutralised: $row";; esac
# no cell of the export starts with a formula character
awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) if ($i ~ /^[=+@-]/) { print $i; bad = 1 } } END { exit bad }' "$T/out" \
    || fail "a cell starts with a formula character"
# round trip: import the export, the values are back without the quote
cp "$T/out" "$T/back.csv"
cf import "$T/back.csv"; expect_rc 0
cf show x-formula --format json; expect_rc 0
expect_json .provider '=HYPERLINK("http://example.com")'
expect_json .offering '@SUM(A1)'
expect_json .notes '-2+3 cmd|calc'
