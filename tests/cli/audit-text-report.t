# The default text report: verdict, facts, findings with an action and FILE:LINE.
f="$SHARED/cases/05-ib-gdr-disabled-distance-nccl247.txt"
cf audit "$f"; expect_rc 0
expect_out "verdict: warning"
expect_out "network: ib   gdr: off   nccl: 2.4.7"
expect_out "GDR_DISABLED"
# the cause is PCI distance (distance 3 >= 2): the action is about topology, not the module
expect_out "action: topology: run each rank on a GPU whose NIC sits under the same PCIe switch"
expect_no_out "modprobe nvidia_peermem"
expect_out "at: $f:19"
cf audit --help; expect_rc 0; expect_out "Usage: clusterfit audit"
cf audit --bogus; expect_rc 2
cf audit "$T/does-not-exist.txt"; expect_rc 3; expect_err "cannot open"
cf audit --format csv "$f"; expect_rc 2
