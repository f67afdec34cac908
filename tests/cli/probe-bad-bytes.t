# clusterfit probe on host trees with odd bytes and long paths (issue 21;
# the reliability test of 2026-12-01, reliability-crashes/probe-invalid-utf8.sh
# and its P2): one byte that is not UTF-8 in a file is a skipped entry with
# its path and reason, never "out of memory" and never a lost device; a
# long sysroot is read whole or refused, never cut.
D=$ROOT/tests/data/probe
fresh() { rm -rf "$T/t"; cp -a "$D/h100-ib" "$T/t"; }
ib=$T/t/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0/infiniband/mlx5_0
# An optional attribute (fw_ver) of one NIC: the NIC stays, its firmware unknown.
fresh; printf '28.39.\3771002\n' > "$ib/fw_ver"
cf probe --sysroot "$T/t" --format json; expect_rc 0
expect_json '.nics | length' 8
expect_json '.nics[0].name' mlx5_0
expect_json '.nics[0].fw_ver' null
expect_json '.nics[1].fw_ver' 28.39.1002
expect_json '.status' ok
expect_json '[.skipped[].path] | join(" ")' /sys/class/infiniband/mlx5_0/fw_ver
expect_json '.skipped[0].reason' "not UTF-8 text (byte 0xff at offset 6)"
# The hostname: unknown, the rest of the report stands.
fresh; printf 'node\37701\n' > "$T/t/proc/sys/kernel/hostname"
cf probe --sysroot "$T/t" --format json; expect_rc 0
expect_json .hostname null
expect_json '.gpus | length' 8
expect_json '[.skipped[].path] | join(" ")' /proc/sys/kernel/hostname
cf probe --sysroot "$T/t"; expect_rc 0
expect_out "skipped: 1 unreadable or odd entries"
# A PCI bridge's class file, and a control byte (ESC) in a port's state.
fresh; printf '0x06\37700\n' > "$T/t/sys/devices/pci0000:00/0000:00:1c.0/class"
printf '4: ACT\033[31mIVE\n' > "$ib/ports/1/state"
cf probe --sysroot "$T/t" --format json; expect_rc 6  # the port's state unknown: unjudged (issue 23)
expect_json .status unjudged
expect_json '.findings[0].message | test("mlx5_0 port 1 state")' true
expect_json '[.skipped[].path] | join(" ")' "/sys/bus/pci/devices/0000:00:1c.0/class /sys/class/infiniband/mlx5_0/ports/1/state"
expect_json '.skipped[1].reason | test("byte 0x1b")' true
expect_json '.nics[0].state' null
expect_json '.gpus | length' 8
# A directory entry whose name is not UTF-8: skipped by name, the others read.
fresh; mkdir "$T/t/sys/class/net/eth$(printf '\377')"
cf probe --sysroot "$T/t" --format json; expect_rc 0
expect_json '.skipped[0].reason' "entry name is not UTF-8 text"
expect_json '.skipped[0].path' "/sys/class/net/eth?"
expect_json '[.net[].name] | index("eno1") != null' true
# A sysroot whose name is not UTF-8: read, its name shown with '?'.
rm -rf "$T/s"; mkdir "$T/s"; cp -a "$D/h100-ib" "$T/s/x$(printf '\377')"
cf probe --sysroot "$T/s/x$(printf '\377')" --format json; expect_rc 0
expect_json .sysroot "$T/s/x?"
expect_json '.gpus | length' 8
# A sysroot over 1,023 bytes: read whole (8 GPUs, 8 NICs, nothing skipped).
long=$T/l; for i in 1 2 3 4 5 6; do long=$long/$(printf '%0200d' "$i"); done
mkdir -p "$long"; cp -a "$D/h100-ib" "$long/t"
cf probe --sysroot "$long/t" --format json; expect_rc 0
expect_json '.gpus | length' 8
expect_json '.nics | length' 8
expect_json '.skipped | length' 0
expect_json .status ok
# Over CF_MAX_PROBE_SYSROOT_BYTES (3071): refused, the limit named.
huge=$T/h; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do huge=$huge/$(printf '%0200d' "$i"); done
mkdir -p "$huge"
cf probe --sysroot "$huge"; expect_rc 2
expect_err "over 3071 (CF_MAX_PROBE_SYSROOT_BYTES"
rm -rf "$T/l" "$T/h" "$T/s"
# An environment name that is not UTF-8: skipped, the others kept.
env "NCCL_$(printf '\377')=1" NCCL_IB_HCA=mlx5_0 "$CF" probe --sysroot "$D/h100-ib" --format json > "$T/out" 2> "$T/err"
expect_json '.env.NCCL_IB_HCA' mlx5_0
expect_json '.skipped[0].reason | test("environment name")' true
