# Issue 11's kinds of fault on the audit's own cases (tests/data/cases):
# the text report says what the JSON says, and the actions name the line.
C=$ROOT/tests/data/cases
# an EFA plugin that failed to initialise is not the job's end; no ib_write_bw
cf audit "$C"/c03-*.txt; expect_rc 0
expect_no_out "NCCL_ERROR"
expect_no_out "ib_write_bw"
expect_text "FI_PROVIDER=efa"
# nccl-tests without MPI: invalid, exit 1
cf audit "$C"/c01-*.txt; expect_rc 1
expect_text "verdict: invalid"
expect_text "busbw is 0.00 on every row"
# a single GPU on loopback: one node, no network
cf audit "$C"/c02-*.txt; expect_rc 0
expect_text "network: none"
expect_text "findings: none"
# soft RoCE stays roce, with its warning
cf audit "$C"/r03-*.txt; expect_rc 0
expect_text "network: roce"
expect_text "SOFT_ROCE: rxe0 is a software RoCE device"
# a Kubernetes pod without /dev/infiniband: the pod spec, not NCCL_IB_DISABLE
cf audit "$C"/r10-*.txt; expect_rc 0
expect_text "no RDMA device inside the pod (r10-recon-k8s-pod-without-dev-infiniband.txt:2)"
expect_no_out "unset NCCL_IB_DISABLE"
# a summary table with a node-count column: one run per row
cf audit "$C"/r08-*.txt; expect_rc 6
expect_text "runs: 4 separate runs"
# sockets where the ports show RDMA: an error
cf audit "$C"/c15-*.txt "$SHARED"/cases/18-*.txt
expect_rc 1
expect_text "RDMA_NOT_USED"
