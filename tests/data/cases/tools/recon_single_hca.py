import sys, random
random.seed(11)
with_ibstat = len(sys.argv) > 1 and sys.argv[1] == 'ibstat'
out = []
P = out.append
busbws = []
P("user@node01:~/nccl-tests$ mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG=INFO -x NCCL_IB_HCA=mlx5_0 -x LD_LIBRARY_PATH ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1")
P("# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0")
P("#")
P("# Using devices")
busids = ["0x18","0x2a","0x3a","0x5d","0x9a","0xab","0xba","0xdb"]
pids = {}
for r in range(16):
    host = "node01" if r < 8 else "node02"
    pid = (41230 if r < 8 else 38871) + (r % 8)
    pids[r] = pid
    P("#  Rank %2d Group  0 Pid %6d on %10s device %2d [%s] NVIDIA H100 80GB HBM3" % (r, pid, host, r % 8, busids[r % 8]))
ip = {"node01": "192.0.2.11", "node02": "192.0.2.12"}
def nl(r, tid, msg):
    host = "node01" if r < 8 else "node02"
    return "%s:%d:%d [%d] NCCL INFO %s" % (host, pids[r], tid, r % 8, msg)
for r in range(16):
    host = "node01" if r < 8 else "node02"
    P(nl(r, pids[r], "Bootstrap : Using eth0:%s<0>" % ip[host]))
    P(nl(r, pids[r], "NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or directory No plugin found (libnccl-net.so), using internal implementation"))
    P(nl(r, pids[r], "cudaDriverVersion 12020"))
    if r == 0:
        P("NCCL version 2.18.5+cuda12.2")
for r in range(16):
    host = "node01" if r < 8 else "node02"
    tid = pids[r] + 160
    P(nl(r, tid, "NCCL_IB_HCA set by environment to mlx5_0"))
    P(nl(r, tid, "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:%s<0>" % ip[host]))
    P(nl(r, tid, "Using network IB"))
    P(nl(r, tid, "comm 0x55d4c3a0%04x rank %d nranks 16 cudaDev %d nvmlDev %d busId %s000 commId 0x8c2f4a7be1d05396 - Init START" % (0x1000 + r * 16, r, r % 8, r % 8, busids[r % 8][2:])))
for r in range(16):
    tid = pids[r] + 160
    P(nl(r, tid, "Setting affinity for GPU %d to ffff,ffffffff" % (r % 8) if r % 8 < 4 else "Setting affinity for GPU %d to ffffffff,ffff0000,00000000" % (r % 8)))
    P(nl(r, tid, "NVLS multicast support is available on dev %d" % (r % 8)))
for r in (0, 8):
    tid = pids[r] + 160
    for c in range(16):
        P(nl(r, tid, "Channel %02d/16 :    0   7   6   5   4   3   2   1   8  15  14  13  12  11  10   9" % c))
for r in range(16):
    tid = pids[r] + 160
    P(nl(r, tid, "Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d" % ((r+1)%16, r, (r-1)%16, (r+1)%16, r, (r-1)%16)))
    P(nl(r, tid, "P2P Chunksize set to 524288"))
# cross-node ring edges: 1 -> 8 ... NCCL rings cross between node-edge ranks
for c in range(16):
    P(nl(8, pids[8] + 160, "Channel %02d/0 : 1[1] -> 8[0] [receive] via NET/IB/0/GDRDMA" % c))
    P(nl(1, pids[1] + 160, "Channel %02d/0 : 1[1] -> 8[0] [send] via NET/IB/0/GDRDMA" % c))
    P(nl(0, pids[0] + 160, "Channel %02d/0 : 9[1] -> 0[0] [receive] via NET/IB/0/GDRDMA" % c))
    P(nl(9, pids[9] + 160, "Channel %02d/0 : 9[1] -> 0[0] [send] via NET/IB/0/GDRDMA" % c))
for r in range(16):
    tid = pids[r] + 160
    P(nl(r, tid, "Connected all rings"))
for r in range(16):
    tid = pids[r] + 160
    P(nl(r, tid, "Connected all trees"))
    P(nl(r, tid, "NVLS comm 0x55d4c3a0%04x headRank %d nHeads 1 buffSize 4194304 memSize 2097152 nvlsPerRankSize 201326592 nvlsTotalSize 201326592" % (0x1000 + r * 16, r % 8 if False else 0)))
    P(nl(r, tid, "threadThresholds 8/8/64 | 128/8/64 | 512 | 512"))
    P(nl(r, tid, "16 coll channels, 0 nvls channels, 16 p2p channels, 2 p2p channels per peer"))
    P(nl(r, tid, "comm 0x55d4c3a0%04x rank %d nranks 16 cudaDev %d nvmlDev %d busId %s000 commId 0x8c2f4a7be1d05396 - Init COMPLETE" % (0x1000 + r * 16, r, r % 8, r % 8, busids[r % 8][2:])))
P("#")
P("#                                                              out-of-place                       in-place          ")
P("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong")
P("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ")
# busbw curve: latency ~ 60us small, plateau 44.1 at 8G
size = 8
while size <= 8589934592:
    n = 16
    lat = 58.0 if size < 65536 else 58.0
    bw_plateau = 23.53e9   # algbw bytes/s at plateau
    t = lat + size / bw_plateau * 1e6
    t_oop = t * (1 + random.uniform(-0.01, 0.01))
    t_ip = t * (1 + random.uniform(-0.01, 0.01))
    def fmt(tt):
        alg = size / tt / 1e3
        bus = alg * 2 * (n - 1) / n
        tstr = ("%8.2f" % tt) if tt < 10000 else ("%8.1f" % tt) if tt < 100000 else ("%8.0f" % tt)
        return "%s  %6.2f  %6.2f      0" % (tstr, alg, bus)
    count = size // 4
    P("%12d  %12d     float     sum      -1  %s  %s" % (size, count, fmt(t_oop), fmt(t_ip)))
    busbws.append(float(fmt(t_oop).split()[2])); busbws.append(float(fmt(t_ip).split()[2]))
    size *= 2
P("# Out of bounds values : 0 OK")
P("# Avg bus bandwidth    : %.4f " % (sum(busbws) / len(busbws)))
P("#")
if with_ibstat:
    P("")
    P("user@node01:~$ ibstat")
    guid = 0x946dae0300a1b2c0
    for i in range(8):
        P("CA 'mlx5_%d'" % i)
        P("\tCA type: MT4129")
        P("\tNumber of ports: 1")
        P("\tFirmware version: 28.39.1002")
        P("\tHardware version: 0")
        P("\tNode GUID: 0x%016x" % (guid + 2 * i))
        P("\tSystem image GUID: 0x%016x" % (guid + 2 * i))
        P("\tPort 1:")
        P("\t\tState: Active")
        P("\t\tPhysical state: LinkUp")
        P("\t\tRate: 400")
        P("\t\tBase lid: %d" % (101 + i))
        P("\t\tLMC: 0")
        P("\t\tSM lid: 1")
        P("\t\tCapability mask: 0xa751e848")
        P("\t\tPort GUID: 0x%016x" % (guid + 2 * i))
        P("\t\tLink layer: InfiniBand")
print("\n".join(out))
