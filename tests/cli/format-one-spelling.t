# --format has one spelling (issue 23: some commands said table|json, others
# text|json): every --help, man fragment and error message says "text" for
# the human format, and every command takes both "text" and "table" for it,
# giving the same output.
for c in list show providers "predict collective" "predict step" fit plan scale fabrics goodput \
    "validate collectives" "validate training" "validate serving" "validate refit" audit probe recipe version; do
    # shellcheck disable=SC2086
    cf $c --help; expect_rc 0
    grep -q -- '--format' "$T/out" || fail "$c --help names no --format"
    ! grep -qE 'table\|json|table \(default\)|table\|csv' "$T/out" || fail "$c --help spells the format 'table'"
    grep -qE 'text\|json|text \(default\)|text\|csv' "$T/out" || fail "$c --help does not spell it text"
done
! grep -nE 'table\|json|table\\fR\|' docs/man/*.man > "$T/m" || fail "a man fragment says table|json: $(cat "$T/m")"
# Both spellings give the same output, and the error names the one spelling.
run_both() {  # ARGS...: the command with --format text, then table
    cf "$@" --format text; expect_rc 0; cp "$T/out" "$T/text.out"
    cf "$@" --format table; expect_rc 0
    cmp -s "$T/out" "$T/text.out" || fail "$* --format table differs from --format text"
    cf "$@" --format yaml; expect_rc 2
    expect_err "unknown --format 'yaml' (accepted: text, "
    ! grep -q 'table' "$T/err" || fail "$*: the error says table: $ERR"
}
run_both list --multinode yes
run_both providers
run_both show aws-p5-48xlarge
run_both version
run_both fit --workload llama3-70b --gpu H100-SXM
run_both scale --workload llama3-70b --offering crusoe-h100-ib --nodes 2,4
run_both predict collective --collective all_reduce --bytes 1G --nodes 2 --offering aws-p5-48xlarge
run_both goodput --workload llama3-70b --offering crusoe-h100-ib --nodes 16
run_both audit tests/data/shared/cases/05-ib-gdr-disabled-distance-nccl247.txt
run_both recipe aws-p5-48xlarge --nodes 2
cf list --format yaml; expect_err "(accepted: text, csv, json)"
