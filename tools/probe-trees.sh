#!/bin/sh
# probe-trees.sh OUTDIR — writes the saved host trees the probe's tests read
# with --sysroot (tests/data/probe/<kind>/), symbolic links included, as
# the kernel lays them out. `sh tools/probe-trees.sh tests/data/probe`
# rewrites the committed ones; tests/cli/probe-trees-current.t checks that
# they are what this script writes.
#
# The trees are built, not copied from a machine: every path, file name and
# value format follows the kernel's layout, from these sources:
# - /sys/devices/pciDDDD:BB/<root port>/<switch up>/<switch down>/<function>,
#   /sys/bus/pci/devices/BDF -> ../../../devices/..., the class, vendor,
#   device, numa_node and config files: Linux Documentation/PCI/sysfs-pci.rst
#   and Documentation/ABI/testing/sysfs-bus-pci;
# - /sys/class/infiniband/DEV -> ../../devices/.../BDF/infiniband/DEV, DEV/device
#   -> ../../../BDF, fw_ver, node_type, hca_type, ports/N/{state, phys_state,
#   rate, link_layer} and their words ("4: ACTIVE", "5: LinkUp", "1: DOWN",
#   "3: Disabled", "400 Gb/sec (4X NDR)"): Documentation/ABI/stable/
#   sysfs-class-infiniband and drivers/infiniband/core/sysfs.c (state_show,
#   phys_state_show, rate_show);
# - EFA: link_layer "Unknown" (the kernel's word for IB_LINK_LAYER_UNSPECIFIED,
#   shown in linux-rdma/rdma-core pull request #884), fw_ver 0.0.0.0, vendor
#   0x1d0f, rate 4X EDR = "100 Gb/sec (4X EDR)" (drivers/infiniband/hw/efa/
#   efa_verbs.c, efa_query_port), 32 devices on a p5.48xlarge (AWS: 3200 Gbit/s
#   in 32 EFA interfaces), devices named rdmapBBsD by the udev rdma naming;
# - /sys/class/net/IF -> ../../devices/.../BDF/net/IF, IF/{mtu, speed,
#   operstate, device}: Documentation/ABI/testing/sysfs-class-net; IPoIB
#   names ibpBBs0 (rdma-core's udev naming);
# - /proc/driver/nvidia/gpus/BDF/information ("Model:", "Bus Location:"),
#   /proc/driver/nvidia/version ("NVIDIA UNIX x86_64 Kernel Module" for the
#   proprietary module, "NVIDIA UNIX Open Kernel Module for x86_64" for the
#   open one: NVIDIA open-gpu-kernel-modules issue #171, the driver README
#   "kernel_open"), /sys/module/nvidia/version, /sys/module/nvidia_peermem;
# - /proc/self/limits: the table of fs/proc/base.c (proc_pid_limits).
# The bus numbers, firmware and driver versions are chosen, not read from a
# real host; the shape is an HGX H100 8-GPU board with two CPU sockets, each
# GPU and its ConnectX-7 (or four EFA devices) under one PCIe switch, which
# nvidia-smi topo -m shows as PIX on the diagonal, NODE within a socket and
# SYS across.
set -eu
OUT=${1:?usage: probe-trees.sh OUTDIR}

w() { mkdir -p "$(dirname "$1")"; printf '%s\n' "$2" > "$1"; }
lnk() { mkdir -p "$(dirname "$2")"; ln -s "$1" "$2"; }
hex() { printf '%02x' $((0x$1 + $2)); }
dec() { printf '%d' $((0x$1)); }

# pcidev R PATH CLASS VENDOR DEVICE NUMA — a PCI function under R/sys/devices.
pcidev() {
    d=$1/sys/devices/$2; bdf=${2##*/}
    w "$d/class" "$3"; w "$d/vendor" "$4"; w "$d/device" "$5"; w "$d/numa_node" "$6"
    lnk "../../../devices/$2" "$1/sys/bus/pci/devices/$bdf"
}

# acscfg FILE CTRL_OCTAL — a 4 KiB config space with an ACS extended
# capability at 0x100 (ID 0x000d, version 1, last) and the control word.
acscfg() {
    { head -c 256 /dev/zero; printf "\\015\\000\\001\\000\\137\\000$2\\000"; head -c 3832 /dev/zero; } > "$1"
}

limits() {
    mkdir -p "$1/proc/self"
    {
        printf '%-26s%-21s%-21s%-10s\n' "Limit" "Soft Limit" "Hard Limit" "Units"
        printf '%-26s%-21s%-21s%-10s\n' "Max cpu time" unlimited unlimited seconds
        printf '%-26s%-21s%-21s%-10s\n' "Max open files" 1048576 1048576 files
        printf '%-26s%-21s%-21s%-10s\n' "Max locked memory" "$2" "$2" bytes
        printf '%-26s%-21s%-21s%-10s\n' "Max address space" unlimited unlimited bytes
    } > "$1/proc/self/limits"
}

# host R NAME KERNEL DRIVER OPEN(0|1) MEMLOCK
host() {
    w "$1/proc/sys/kernel/hostname" "$2"
    w "$1/proc/sys/kernel/osrelease" "$3"
    if [ "$5" = 1 ]; then
        w "$1/proc/driver/nvidia/version" "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  $4  Release Build  (dvs-builder@U16-I3-C03-2)  Tue Jun  4 01:14:05 UTC 2024
GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)"
    else
        w "$1/proc/driver/nvidia/version" "NVRM version: NVIDIA UNIX x86_64 Kernel Module  $4  Wed Feb 28 03:27:31 UTC 2024
GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)"
    fi
    w "$1/sys/module/nvidia/version" "$4"
    w "$1/sys/module/nvidia/initstate" live
    limits "$1" "$6"
    # The loopback interface and the front-end NIC (no RDMA).
    w "$1/sys/devices/virtual/net/lo/mtu" 65536
    w "$1/sys/devices/virtual/net/lo/operstate" unknown
    lnk ../../devices/virtual/net/lo "$1/sys/class/net/lo"
    fe=pci0000:00/0000:00:1c.0/0000:03:00.0
    pcidev "$1" pci0000:00/0000:00:1c.0 0x060400 0x8086 0x1bbc 0
    pcidev "$1" $fe 0x020000 0x8086 0x1593 0
    w "$1/sys/devices/$fe/net/eno1/mtu" 1500
    w "$1/sys/devices/$fe/net/eno1/speed" 25000
    w "$1/sys/devices/$fe/net/eno1/operstate" up
    lnk ../../../0000:03:00.0 "$1/sys/devices/$fe/net/eno1/device"
    lnk "../../devices/$fe/net/eno1" "$1/sys/class/net/eno1"
}

BASES="15 37 48 59 97 a7 b7 d7"

# gpu R I BASE — GPU I behind the switch of root complex BASE.
gpu() {
    r=$1; i=$2; b=$3; numa=$((i / 4))
    rc=pci0000:$b; rp=$rc/0000:$b:01.0; up=$rp/0000:$(hex "$b" 1):00.0
    pcidev "$r" "$rp" 0x060400 0x8086 0x352a $numa
    pcidev "$r" "$up" 0x060400 0x1000 0xc030 $numa
    pcidev "$r" "$up/0000:$(hex "$b" 2):00.0" 0x060400 0x1000 0xc030 $numa
    g=$up/0000:$(hex "$b" 2):00.0/0000:$(hex "$b" 3):00.0
    pcidev "$r" "$g" 0x030200 0x10de 0x2330 $numa
    w "$r/proc/driver/nvidia/gpus/0000:$(hex "$b" 3):00.0/information" "Model: 		 NVIDIA H100 80GB HBM3
IRQ:   		 $((300 + i))
GPU UUID: 	 GPU-5a1f09c3-7e2d-4b1a-9c$i$i-0d3e4f5a6b7$i
Video BIOS: 	 96.00.99.00.01
Bus Type: 	 PCIe
DMA Size: 	 52 bits
DMA Mask: 	 0xfffffffffffff
Bus Location: 	 0000:$(hex "$b" 3):00.0
Device Minor: 	 $i
GPU Firmware: 	 N/A
GPU Excluded:	 No"
}

# mlx R I BASE LINK_LAYER STATE PHYS RATE — ConnectX-7 I on GPU I's switch.
mlx() {
    r=$1; i=$2; b=$3; numa=$((i / 4))
    up=pci0000:$b/0000:$b:01.0/0000:$(hex "$b" 1):00.0
    pcidev "$r" "$up/0000:$(hex "$b" 2):01.0" 0x060400 0x1000 0xc030 $numa
    bdf=0000:$(hex "$b" 4):00.0; p=$up/0000:$(hex "$b" 2):01.0/$bdf
    if [ "$4" = InfiniBand ]; then cls=0x020700; nd=ibp$(dec "$(hex "$b" 4)")s0; mtu=4092
    else cls=0x020000; nd=ens$(dec "$(hex "$b" 4)")np0; mtu=9000; fi
    pcidev "$r" "$p" $cls 0x15b3 0x1021 $numa
    ib=$r/sys/devices/$p/infiniband/mlx5_$i
    w "$ib/fw_ver" 28.39.1002
    w "$ib/node_type" "1: CA"
    w "$ib/hca_type" MT4129
    w "$ib/ports/1/state" "$5"
    w "$ib/ports/1/phys_state" "$6"
    w "$ib/ports/1/rate" "$7"
    w "$ib/ports/1/link_layer" "$4"
    lnk "../../../$bdf" "$ib/device"
    lnk "../../devices/$p/infiniband/mlx5_$i" "$r/sys/class/infiniband/mlx5_$i"
    n=$r/sys/devices/$p/net/$nd
    w "$n/mtu" $mtu
    w "$n/operstate" "$(case $5 in *ACTIVE) echo up;; *) echo down;; esac)"
    case $5 in *ACTIVE) w "$n/speed" "$(echo "$7" | sed 's/ .*//')000";; esac
    lnk "../../../$bdf" "$n/device"
    lnk "../../devices/$p/net/$nd" "$r/sys/class/net/$nd"
    w "$r/dev/infiniband/uverbs$i" ""
}

# efa R I BASE K — EFA device K (0-3) on GPU I's switch.
efa() {
    r=$1; i=$2; b=$3; k=$4; numa=$((i / 4))
    up=pci0000:$b/0000:$b:01.0/0000:$(hex "$b" 1):00.0
    pcidev "$r" "$up/0000:$(hex "$b" 2):0$((k + 1)).0" 0x060400 0x1000 0xc030 $numa
    bdf=0000:$(hex "$b" $((4 + k))):00.0; p=$up/0000:$(hex "$b" 2):0$((k + 1)).0/$bdf
    pcidev "$r" "$p" 0x020000 0x1d0f 0xefa1 $numa
    name=rdmap$(dec "$(hex "$b" $((4 + k)))")s0
    ib=$r/sys/devices/$p/infiniband/$name
    w "$ib/fw_ver" 0.0.0.0
    w "$ib/node_type" "6: unspecified"
    w "$ib/ports/1/state" "4: ACTIVE"
    w "$ib/ports/1/phys_state" "5: LinkUp"
    w "$ib/ports/1/rate" "100 Gb/sec (4X EDR)"
    w "$ib/ports/1/link_layer" Unknown
    lnk "../../../$bdf" "$ib/device"
    lnk "../../devices/$p/infiniband/$name" "$r/sys/class/infiniband/$name"
    w "$r/dev/infiniband/uverbs$((i * 4 + k))" ""
}

# ib8 R [DOWN_NIC] [SLOW_NIC] — 8 x H100 and 8 x NDR InfiniBand.
ib8() {
    r=$1; i=0
    for b in $BASES; do
        gpu "$r" $i "$b"
        if [ "$i" = "${2:-x}" ]; then mlx "$r" $i "$b" InfiniBand "1: DOWN" "3: Disabled" "10 Gb/sec (4X SDR)"
        elif [ "$i" = "${3:-x}" ]; then mlx "$r" $i "$b" InfiniBand "4: ACTIVE" "5: LinkUp" "200 Gb/sec (4X HDR)"
        else mlx "$r" $i "$b" InfiniBand "4: ACTIVE" "5: LinkUp" "400 Gb/sec (4X NDR)"; fi
        i=$((i + 1))
    done
    w "$r/dev/infiniband/rdma_cm" ""
}

# acs8 R CTRL_OCTAL — config spaces of the bridges between each GPU and its NIC.
acs8() {
    for b in $BASES; do
        up=$1/sys/devices/pci0000:$b/0000:$b:01.0/0000:$(hex "$b" 1):00.0
        acscfg "$up/config" '\000'
        acscfg "$up/0000:$(hex "$b" 2):00.0/config" "$2"
        acscfg "$up/0000:$(hex "$b" 2):01.0/config" "$2"
    done
}

peermem() { w "$1/sys/module/nvidia_peermem/initstate" live; w "$1/sys/module/mlx5_ib/initstate" live; }

rm -rf "$OUT/h100-ib" "$OUT/h100-ib-faulty" "$OUT/h100-roce" "$OUT/p5-efa" "$OUT/container" "$OUT/acs" "$OUT/odd"
mkdir -p "$OUT"

# Healthy: every port active at 400G, peer memory loaded, ACS off.
r=$OUT/h100-ib
host "$r" node01 5.15.0-105-generic 535.161.08 0 unlimited
ib8 "$r"; peermem "$r"; acs8 "$r" '\000'

# Faulty: mlx5_3 down, mlx5_5 at 200G, no peer-memory module.
r=$OUT/h100-ib-faulty
host "$r" node05 5.15.0-105-generic 535.161.08 0 unlimited
ib8 "$r" 3 5; w "$r/sys/module/mlx5_ib/initstate" live

# RoCE: the same board with ConnectX-7 in Ethernet mode at 400G.
r=$OUT/h100-roce
host "$r" roce01 5.15.0-105-generic 535.161.08 0 unlimited
i=0; for b in $BASES; do
    gpu "$r" $i "$b"; mlx "$r" $i "$b" Ethernet "4: ACTIVE" "5: LinkUp" "400 Gb/sec (4X NDR)"; i=$((i + 1))
done
peermem "$r"

# EFA (p5.48xlarge-like): 32 EFA devices, 4 per GPU switch; GDR through
# DMA-BUF (open kernel module 550, kernel 6.8).
r=$OUT/p5-efa
host "$r" ip-10-1-2-3 6.8.0-1015-aws 550.90.07 1 unlimited
i=0; for b in $BASES; do
    gpu "$r" $i "$b"; for k in 0 1 2 3; do efa "$r" $i "$b" $k; done; i=$((i + 1))
done
w "$r/sys/module/efa/initstate" live

# A container on the healthy node without /dev/infiniband, 64 KiB memlock.
r=$OUT/container
host "$r" job-7f9c-0 5.15.0-105-generic 535.161.08 0 65536
ib8 "$r"; peermem "$r"; rm -rf "$r/dev"

# ACS redirection (RR, CR, SV, UF = 0x1d) on the switch ports.
r=$OUT/acs
host "$r" node02 5.15.0-105-generic 535.161.08 0 unlimited
ib8 "$r"; peermem "$r"; acs8 "$r" '\035'

# (git keeps no empty directory: every directory here holds a file.)
# Odd entries the probe must skip, each with its path: a dangling link, a
# link out of the tree, a bad NUMA node, a bad rate, a directory for a file,
# an information file over the read cap, binary bytes in a state file.
r=$OUT/odd
host "$r" odd01 5.15.0-105-generic 535.161.08 0 unlimited
ib8 "$r"; peermem "$r"
lnk ../../devices/pci0000:ee/0000:ee:00.0/infiniband/mlx5_9 "$r/sys/class/infiniband/mlx5_9"
lnk /etc "$r/sys/bus/pci/devices/0000:ff:00.0"
w "$r/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0/numa_node" banana
w "$r/sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/0000:9b:00.0/infiniband/mlx5_4/ports/1/rate" fast
rm "$r/sys/devices/pci0000:a7/0000:a7:01.0/0000:a8:00.0/0000:a9:01.0/0000:ab:00.0/infiniband/mlx5_5/ports/1/state"
w "$r/sys/devices/pci0000:a7/0000:a7:01.0/0000:a8:00.0/0000:a9:01.0/0000:ab:00.0/infiniband/mlx5_5/ports/1/state/value" "4: ACTIVE"
head -c 70000 /dev/zero | tr '\000' 'x' > "$r/proc/driver/nvidia/gpus/0000:3a:00.0/information"
printf '4: ACT\000IVE\n' > "$r/sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/0000:bb:00.0/infiniband/mlx5_6/ports/1/state"
