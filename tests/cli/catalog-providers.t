# `providers`: per provider, offerings, multi-node offerings and networks
# (counted by hand from tests/data/catalog-small.csv).
. tests/cli/catalog-lib.sh
import_small
cf providers --format json; expect_rc 0
expect_json '[.[] | select(.provider == "TestAlpha")][0] | [.offerings, .multinode_offerings, (.networks | join(","))] | join(" ")' "2 2 ib"
expect_json '[.[] | select(.provider == "TestBeta")][0] | [.offerings, .multinode_offerings, (.networks | join(","))] | join(" ")' "2 2 roce,efa"
expect_json '[.[] | select(.provider == "TestGamma")][0] | [.offerings, .multinode_offerings, (.networks | join(","))] | join(" ")' "2 0 ib,tcp"
expect_json '[.[] | select(.provider == "TestDelta")][0] | [.offerings, .multinode_offerings, (.networks | join(","))] | join(" ")' "2 0 roce,none"
# The counts agree with list.
cf list --format json; total=$(jq length "$T/out"); multi=$(jq '[.[] | select(.multinode == "yes")] | length' "$T/out")
cf providers --format json
expect_json '[.[].offerings] | add' "$total"
expect_json '[.[].multinode_offerings] | add' "$multi"
cf providers; expect_rc 0
expect_out "Provider"; expect_out "Multi-node"
grep -q '^TestBeta  *2  *2  roce, efa$' "$T/out" || fail "TestBeta table row"
