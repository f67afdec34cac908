# clusterfit probe --sysroot on the saved host trees of tests/data/probe
# (tools/probe-trees.sh writes them; docs/probe.md section 4).
D=$ROOT/tests/data/probe
# The committed trees are what the script writes (links compared as links).
sh "$ROOT/tools/probe-trees.sh" "$T/trees" || fail "tools/probe-trees.sh failed"
diff -r --no-dereference "$D" "$T/trees" > "$T/diff" 2>&1 || fail "tests/data/probe differs from tools/probe-trees.sh: $(head -5 "$T/diff")"
# Healthy 8 x H100 / 8 x NDR: no finding at all.
cf probe --sysroot "$D/h100-ib" --format json; expect_rc 0
expect_json '.findings | length' 0
expect_json .status ok
expect_json .gdr on
expect_json .gdr_via nvidia_peermem
expect_json .acs disabled
expect_json '.gpus | length' 8
expect_json '.gpus[0].model' "NVIDIA H100 80GB HBM3"
expect_json '.gpus[0].pci' 0000:18:00.0
expect_json '.gpus[4].numa_node' 1
expect_json '.nics | length' 8
expect_json '[.nics[].rate_gbps] | unique | map(tostring) | join(" ")' 400
expect_json '.nics[0] | [.name, .state, .phys_state, .link_layer, .pci, .numa_node, .nearest_gpu, .path, .fw_ver, .netdev] | join(" ")' \
    "mlx5_0 active linkup InfiniBand 0000:19:00.0 0 0000:18:00.0 PIX 28.39.1002 ibp25s0"
expect_json '[.topology[] | select(.gpu == "0000:18:00.0") | .path] | join(" ")' "PIX NODE NODE NODE SYS SYS SYS SYS"
expect_json .uverbs 8
expect_json .memlock_bytes unlimited
expect_json '.skipped | length' 0
expect_json '[.net[] | select(.name == "eno1") | .speed_mbps, .mtu, .pci] | join(" ")' "25000 1500 0000:03:00.0"
# One port down, one at 200 G, no peer-memory module: exactly those three.
cf probe --sysroot "$D/h100-ib-faulty" --format json; expect_rc 0
expect_json '[.findings[].code] | join(" ")' "PORT_DOWN NIC_RATE_MISMATCH GDR_DISABLED"
expect_json .status warning
expect_json .gdr off
expect_json '.findings[0].message | test("mlx5_3 port 1 is down")' true
expect_json '.findings[1].message | test("mlx5_5 port 1 runs at 200 Gbit/s")' true
expect_json '.findings[2].message | test("proprietary NVIDIA kernel module 535.161.08")' true
expect_json '[.findings[] | .action | length > 20] | all' true
cf probe --sysroot "$D/h100-ib-faulty"; expect_rc 0
expect_out "warning PORT_DOWN: mlx5_3 port 1 is down"
expect_out "mlx5_5:1 InfiniBand active 200 Gbit/s"
# RoCE: Ethernet link layer, no finding.
cf probe --sysroot "$D/h100-roce" --format json; expect_rc 0
expect_json '.findings | length' 0
expect_json '[.nics[].link_layer] | unique | join(" ")' Ethernet
expect_json '.nics[0].netdev' ens25np0
# EFA: 32 devices, 4 per GPU switch, link layer Unknown, GDR by DMA-BUF.
cf probe --sysroot "$D/p5-efa" --format json; expect_rc 0
expect_json '.findings | length' 0
expect_json '.nics | length' 32
expect_json '[.nics[].link_layer] | unique | join(" ")' Unknown
expect_json '[.nics[] | select(.nearest_gpu == "0000:18:00.0") | .name] | join(" ")' "rdmap25s0 rdmap26s0 rdmap27s0 rdmap28s0"
expect_json .gdr_via dma-buf
expect_json '[.nics[].rate_gbps] | add' 3200
# A container without /dev/infiniband and 64 KiB locked memory: exit 1.
# The host's nvidia_peermem is loaded, but no verbs device can be opened
# here: GPUDirect RDMA is unusable, not on (GDR_UNUSABLE).
cf probe --sysroot "$D/container" --format json; expect_rc 1
expect_json '[.findings[].code] | join(" ")' "GDR_UNUSABLE RDMA_DEVICE_MISSING MEMLOCK_LIMITED"
expect_json .gdr unusable
expect_json .gdr_via nvidia_peermem
expect_json '.findings[0].message | test("nvidia_peermem is loaded, but none of the 8 RDMA device")' true
expect_json '.findings[1].severity' error
expect_json .status failed
expect_json .memlock_bytes 65536
# ACS redirection on the switch ports.
cf probe --sysroot "$D/acs" --format json; expect_rc 0
expect_json '[.findings[].code] | join(" ")' ACS_ENABLED
expect_json .acs enabled
expect_json '.findings[0].message | test("0000:17:00.0")' true
# Odd entries: each skipped with its path, no crash, the rest read.
cf probe --sysroot "$D/odd" --format json; expect_rc 6
expect_json '.skipped | length' 7
expect_json '[.skipped[].path] | join(" ")' "/proc/driver/nvidia/gpus/0000:3a:00.0/information /sys/bus/pci/devices/0000:18:00.0/numa_node /sys/bus/pci/devices/0000:ff:00.0 /sys/class/infiniband/mlx5_4/ports/1/rate /sys/class/infiniband/mlx5_5/ports/1/state /sys/class/infiniband/mlx5_6/ports/1/state /sys/class/infiniband/mlx5_9"
expect_json '.skipped[2].reason' "link leaves the tree (to /etc)"
expect_json '.skipped[0].reason | test("65536-byte limit")' true
expect_json '.nics | length' 8
expect_json '.gpus[0].numa_node' null
expect_json '[.findings[].code] | join(" ")' FACTS_UNKNOWN
# The environment: NCCL_* and FI_* only.
NCCL_IB_HCA=mlx5_0,mlx5_1 FI_PROVIDER=efa OTHER_VAR=1 "$CF" probe --sysroot "$D/h100-ib" --format json > "$T/out" 2> "$T/err"
expect_json '.env.NCCL_IB_HCA' mlx5_0,mlx5_1
expect_json '.env.FI_PROVIDER' efa
expect_json '.env.OTHER_VAR' null
# Bad sysroot: usage error naming the option.
cf probe --sysroot "$T/nonexistent"; expect_rc 2
expect_err "clusterfit probe: --sysroot: sysroot $T/nonexistent is not a readable directory"
cf probe stray; expect_rc 2; expect_err "unexpected argument 'stray'"
cf probe --hang-rank 1; expect_rc 2; expect_err "--hang-rank needs --mpi"
# The live host: runs and says what it could not see.
cf probe --format json; case $RC in 0|1) ;; *) fail "live probe exited $RC";; esac
expect_json .kind node
expect_json '.findings | type' array
