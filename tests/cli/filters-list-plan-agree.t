# `list` and `plan` read the catalog filters with one parser, the library's
# cf_filter_set: a bad value is the same usage error from both (exit 2, the
# library's reason under the option's spelling, the command's --help hint),
# and the same values select the same offerings (plan's default is no
# multinode filter, as `any` in both: every offering is planned, one that
# states no network on one node).
. tests/cli/catalog-lib.sh
import_small
# same OPTION VALUE: `list OPTION VALUE` and `plan ... OPTION VALUE` both
# exit 2 with the same one-line reason after the command's name, into $l.
same() {
    cf list "$1" "$2"; expect_rc 2
    expect_err "Try 'clusterfit list --help'."
    l=$(sed -n 's/^clusterfit list: //p' "$T/err")
    cf plan --workload llama3-8b "$1" "$2"; expect_rc 2
    expect_err "Try 'clusterfit plan --help'."
    p=$(sed -n 's/^clusterfit plan: //p' "$T/err")
    [ -n "$l" ] && [ "$p" = "$l" ] || fail "plan $1 $2: '$p', but list says '$l'"
}
# agree OPTION VALUE REASON: as same, and the line is "OPTION: REASON".
agree() {
    same "$1" "$2"
    [ "$l" = "$1: $3" ] || fail "$1 $2: '$l', expected '$1: $3'"
}
agree --gdr maybe 'expected one of yes, no, got "maybe"'
agree --rdma any 'expected one of yes, no, got "any"'
agree --multinode sometimes 'expected one of yes, no, got "sometimes" (or any for no filter)'
agree --network ethernet 'expected one of ib, roce, efa, tcpx, tcpxo, tcp, rdma, none, unknown (or infiniband for ib), got "ethernet"'
agree --provisioning spot-ish 'expected comma-separated values of on-demand, spot, reserved, waitlist, flex, got "spot-ish"'
agree --orchestration slurm,pbs 'expected comma-separated values of slurm, kubernetes, vm, managed, got "slurm,pbs"'
agree --storage no 'expected yes, got "no"'
agree --min-gbps fast 'expected a number from 0 to 1.024e+09, got "fast"'
agree --max-price -1 'expected a number from 0 to 1e+09, got "-1"'
agree --provider '' 'expected a provider name, got ""'
# GPU names come from data/gpus.csv: the reason lists them.
same --gpu H100
case "$l" in '--gpu: expected one of '*', H100-SXM, '*', got "H100"') ;; *) fail "--gpu H100: '$l'" ;; esac
# plan's --currency is the planning currency, checked as the currency filter.
agree --currency 12x 'expected an ISO 4217 code such as USD or EUR, got "12x"'

# plan_ids ARGS...: the Test rows `plan ARGS` considers (ranked or unranked),
# sorted; list_ids ARGS...: those `list ARGS` gives, sorted.
plan_ids() {
    cf plan --workload llama3-8b "$@" --format json; expect_rc 0
    jq -r '[.ranked[].offering_id, .unranked[].offering_id] | map(select(startswith("test"))) | sort | join(" ")' < "$T/out"
}
list_ids() {
    cf list "$@" --format json; expect_rc 0
    jq -r '[.[] | select(.provider | startswith("Test")) | .id] | sort | join(" ")' < "$T/out"
}
ALL="testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testc-h100-unknown testc-l40s-tcp testd-h100-pcie-single testd-mi300x-roce"
MULTI="testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce"
[ "$(list_ids --multinode any)" = "$ALL" ] || fail "list --multinode any: not every Test row"
[ "$(plan_ids --multinode any)" = "$ALL" ] || fail "plan --multinode any: not every Test row"
[ "$(list_ids --multinode yes)" = "$MULTI" ] || fail "list --multinode yes: not the multi-node rows"
[ "$(plan_ids)" = "$ALL" ] || fail "plan: the default is not every offering (no multinode filter)"
[ "$(plan_ids --multinode no)" = "testc-l40s-tcp testd-h100-pcie-single" ] || fail "plan --multinode no"
# Values the library spells its own way mean the same to both: infiniband is ib.
IB="testa-a100-ib-eur testa-h100-ib testc-h100-unknown"
[ "$(list_ids --network infiniband)" = "$IB" ] || fail "list --network infiniband"
[ "$(plan_ids --multinode any --network infiniband)" = "$IB" ] || fail "plan --network infiniband"
[ "$(plan_ids --multinode any --provider testalpha)" = "testa-a100-ib-eur testa-h100-ib" ] || fail "plan --provider testalpha"
