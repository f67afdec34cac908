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
expect_out "Provider"; expect_out "MN fabrics"; expect_out "MN: multi-node"

# Multi-node fabrics apart from all networks: TestGamma's tcp and ib rows
# are not multi-node, so it has none ("-"); TestBeta's are roce and efa.
cf providers --format json
expect_json '[.[] | select(.provider == "TestBeta")][0].multinode_networks | join(",")' "roce,efa"
expect_json '[.[] | select(.provider == "TestGamma")][0].multinode_networks | join(",")' ""
# The 80-column table drops Networks first (the multi-node fabrics, the
# Rating and the Terms columns stay; issue 22).
cf providers
grep -q '^TestBeta  *2  *2  roce, efa  *1  *-  *-$' "$T/out" || fail "TestBeta table row"
grep -q '^TestGamma  *2  *0  -  *0  *-  *-$' "$T/out" || fail "TestGamma table row"
# A provider shaped like RunPod's rows: multi-node clusters whose fabric no
# source states, and single-node pods on tcp. tcp is not their cluster
# fabric: the multi-node column says unknown.
printf 'id,provider,offering,network,multinode,source_url,as_of\ntp-cluster-a,TestPods,Cluster A,,yes,https://example.com/p,2026-11\ntp-cluster-b,TestPods,Cluster B,,yes,https://example.com/p,2026-11\ntp-pod,TestPods,Pod,tcp,no,https://example.com/p,2026-11\n' > "$T/pods.csv"
cf import "$T/pods.csv"; expect_rc 0
cf providers --format json
expect_json '[.[] | select(.provider == "TestPods")][0] | [.offerings, .multinode_offerings, (.networks | join(",")), (.multinode_networks | length)] | join(" ")' "3 2 tcp 0"
cf providers
grep -q '^TestPods  *3  *2  unknown  *0  *-  *-$' "$T/out" || fail "TestPods table row"

# --wide: every column, the Oldest date included, the fabric lists uncut.
printf 'id,provider,offering,network,multinode,source_url,as_of\ntw-a,TestWideProviderWithALongName,A,roce,yes,https://example.com/w,2026-10-01\ntw-b,TestWideProviderWithALongName,B,tcpx,yes,https://example.com/w,2026-09-02\ntw-c,TestWideProviderWithALongName,C,tcpxo,yes,https://example.com/w,2026-08-03\n' > "$T/wide.csv"
cf import "$T/wide.csv"; expect_rc 0
cf providers --wide; expect_rc 0
grep -q '^TestWideProviderWithALongName  *3  *3  roce, tcpx, tcpxo  *roce, tcpx, tcpxo  *2026-08-03  *0  *-  *-$' "$T/out" || fail "--wide row"
cf providers; expect_rc 0
grep -q 'TestWideProviderWithALongName' "$T/out" && fail "the 80-column table cuts a long provider name"
grep -q 'Oldest' "$T/out" && fail "the 80-column table leaves Oldest out when it does not fit"
sed 's/…/./g' "$T/out" | awk 'length > 80 { exit 1 }' || fail "a line over 80 columns (the ellipsis counted as one)"
