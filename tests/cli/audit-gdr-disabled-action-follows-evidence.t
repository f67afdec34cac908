# GDR_DISABLED's action follows the cause the input shows, not one fixed text.
# 05: "GPU Direct RDMA Disabled for GPU ... (distance 3 >= 2)" -> topology
cf audit --format json "$SHARED"/cases/05-*.txt; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED") | .action][0] | test("PCIe switch") and test("NCCL_NET_GDR_LEVEL") and (test("modprobe") | not)' true
# 07: both HCAs disabled while lsmod lists nvidia_peermem -> a driver/OFED/kernel mismatch or ACS/IOMMU
cf audit --format json "$SHARED"/cases/07-*.txt; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED")][0] | (.action | test("driver") and test("OFED") and test("ACS/IOMMU") and (test("modprobe") | not)) and (.message | test("nvidia_peermem"))' true
# the same HCA lines with an lsmod listing that lacks the module -> load it
grep 'GPU Direct RDMA Disabled' "$SHARED"/cases/07-*.txt > "$T/nomod.txt"
printf '# lsmod | grep nvidia\nnvidia_uvm           4911104  0\nnvidia              54571008  1 nvidia_uvm\n' >> "$T/nomod.txt"
cf audit --format json "$T/nomod.txt"; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED")][0] | (.action | test("modprobe nvidia_peermem")) and (.message | test("lists no nvidia_peermem"))' true
# with DMA-BUF available on the GPU (NCCL's own line) and no lsmod -> the NIC side of DMA-BUF
grep 'DMA-BUF is available' "$SHARED"/cases/24-*.txt > "$T/dmabuf.txt"
grep 'GPU Direct RDMA Disabled' "$SHARED"/cases/07-*.txt | sed 's/^node01:25668:27396/node01:101855:101885/' >> "$T/dmabuf.txt"
cf audit --format json "$T/dmabuf.txt"; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED")][0] | (.action | test("ibv_reg_dmabuf_mr")) and (.message | test("DMA-BUF is available"))' true
# NCCL_NET_GDR_LEVEL set to LOC by the user turns GDR off: the action is to unset it
sed -n '/NET\/IB : Using/p; /Using network IB/p' "$SHARED"/cases/24-*.txt > "$T/loc.txt"
echo 'node01:101855:101885 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC' >> "$T/loc.txt"
grep 'via NET/IB/1/GDRDMA$' "$SHARED"/cases/24-*.txt | sed 's#/GDRDMA##' >> "$T/loc.txt"
cf audit --format json "$T/loc.txt"; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED")][0] | (.action | test("unset NCCL_NET_GDR_LEVEL")) and (.message | test("LOC"))' true
# channels without /GDRDMA and nothing else: the generic action, which asks for the evidence
grep 'via NET/IB/1/GDRDMA$' "$SHARED"/cases/24-*.txt | sed 's#/GDRDMA##' > "$T/bare.txt"
cf audit --format json "$T/bare.txt"; expect_rc 0
expect_json '[.findings[] | select(.code == "GDR_DISABLED")][0].action | test("NCCL_DEBUG=INFO")' true
