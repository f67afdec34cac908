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

# Multi-node fabrics apart from all networks: TestGamma's tcp and ib rows
# are not multi-node, so it has none ("-"); TestBeta's are roce and efa.
cf providers --format json
expect_json '[.[] | select(.provider == "TestBeta")][0].multinode_networks | join(",")' "roce,efa"
expect_json '[.[] | select(.provider == "TestGamma")][0].multinode_networks | join(",")' ""
cf providers
grep -q '^TestBeta  *2  *2  roce, efa  *roce, efa  *1$' "$T/out" || fail "TestBeta table row"
grep -q '^TestGamma  *2  *0  -  *ib, tcp  *0$' "$T/out" || fail "TestGamma table row"
# A provider shaped like RunPod's rows: multi-node clusters whose fabric no
# source states, and single-node pods on tcp. tcp is not their cluster
# fabric: the multi-node column says unknown.
printf 'id,provider,offering,network,multinode,source_url,as_of\ntp-cluster-a,TestPods,Cluster A,,yes,https://example.com/p,2026-11\ntp-cluster-b,TestPods,Cluster B,,yes,https://example.com/p,2026-11\ntp-pod,TestPods,Pod,tcp,no,https://example.com/p,2026-11\n' > "$T/pods.csv"
cf import "$T/pods.csv"; expect_rc 0
cf providers --format json
expect_json '[.[] | select(.provider == "TestPods")][0] | [.offerings, .multinode_offerings, (.networks | join(",")), (.multinode_networks | length)] | join(" ")' "3 2 tcp 0"
cf providers
grep -q '^TestPods  *3  *2  unknown  *tcp  *0$' "$T/out" || fail "TestPods table row"
