# `list --multinode any` is no multinode filter, as in `plan`: every Test
# row, in the order of no filter (unknown multinode included). any is for
# multinode only, and a bad value says it is accepted.
. tests/cli/catalog-lib.sh
import_small
expect_ids --multinode any -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-h100-pcie-single testd-mi300x-roce testc-h100-unknown testc-l40s-tcp
expect_ids --multinode any --network roce -- testb-h200-roce testd-mi300x-roce
cf list --multinode maybe; expect_rc 2; expect_err '--multinode: expected one of yes, no, got "maybe" (or any for no filter)'
cf list --gdr any; expect_rc 2; expect_err '--gdr: expected one of yes, no, got "any"'
