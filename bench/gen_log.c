/* gen_log.c — writes a synthetic audit benchmark log to stdout: repeated
 * blocks of NCCL_DEBUG=INFO init lines of a 256-rank job (32 nodes x 8
 * GPUs: version, bootstrap, NET/IB device list, GDR decisions, channel
 * lines, communicator init) followed by an all_reduce_perf run (rank list of
 * 256 ranks and a 35-row table, 8 B to 16 GiB), until SIZE_MB megabytes
 * (argv[1], default 1024) are written. Deterministic: no randomness.
 * Usage: gen_log [SIZE_MB] > log.txt */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long long target = (argc > 1 ? atoll(argv[1]) : 1024) * 1000000LL, written = 0;
    int block = 0;
    while (written < target) {
        for (int r = 0; r < 256 && written < target; r++) {
            int node = r / 8 + 1, dev = r % 8, pid = 1000 + r, tid = 2000 + r;
            char host[32];
            snprintf(host, sizeof host, "node%03d", node);
            written += printf("%s:%d:%d [%d] NCCL INFO Bootstrap : Using eth0:192.0.2.%d<0>\n", host, pid, pid, dev, node);
            if (r == 0) written += printf("%s:%d:%d [%d] NCCL INFO NCCL version 2.18.5+cuda12.2\n", host, pid, pid, dev);
            written += printf("%s:%d:%d [%d] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB eth0:192.0.2.%d<0>\n", host, pid, tid, dev, node);
            written += printf("%s:%d:%d [%d] NCCL INFO Using network IB\n", host, pid, tid, dev);
            written += printf("%s:%d:%d [%d] NCCL INFO comm 0x55cc8aa86c70 rank %d nranks 256 cudaDev %d nvmlDev %d busId %d000 commId 0x65e0bd6ee7449db4 - Init START\n", host, pid, tid, dev, r, dev, dev, 18 + dev);
            written += printf("%s:%d:%d [%d] NCCL INFO Setting affinity for GPU %d to ffffffff,00000000,ffffffff\n", host, pid, tid, dev, dev);
            written += printf("%s:%d:%d [%d] NCCL INFO Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d\n", host, pid, tid, dev, (r + 1) % 256, r, (r + 255) % 256, (r + 2) % 256, r, (r + 254) % 256);
            for (int c = 0; c < 4; c++) {
                written += printf("%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d/GDRDMA\n", host, pid, tid, dev, c, (r + 248) % 256, dev, r, dev, dev);
                written += printf("%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA\n", host, pid, tid, dev, c, r, dev, (r + 8) % 256, dev, dev);
                written += printf("%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read\n", host, pid, tid, dev, c + 4, r, dev, (r + 1) % 256, (dev + 1) % 8);
            }
            written += printf("%s:%d:%d [%d] NCCL INFO Connected all rings\n", host, pid, tid, dev);
            written += printf("%s:%d:%d [%d] NCCL INFO 32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer\n", host, pid, tid, dev);
            written += printf("%s:%d:%d [%d] NCCL INFO comm 0x55cc8aa86c70 rank %d nranks 256 cudaDev %d nvmlDev %d busId %d000 commId 0x65e0bd6ee7449db4 - Init COMPLETE\n", host, pid, tid, dev, r, dev, dev, 18 + dev);
        }
        written += printf("# nThread 1 nGpus 1 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 256; r++)
            written += printf("#  Rank %3d Group  0 Pid %6d on    node%03d device  %d [0x%02x] NVIDIA H100 80GB HBM3\n", r, 1000 + r, r / 8 + 1, r % 8, 0x18 + r % 8);
        written += printf("#\n#                                                              out-of-place                       in-place          \n"
                          "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n");
        for (int k = 0; k < 35; k++) {
            double size = (double)(8ULL << k), busbw = 360.0 * size / (size + 4.0e6) - (block % 7) * 0.01;
            double alg = busbw / (2.0 * 255 / 256), t = size / (alg * 1e3);
            written += printf("%12.0f  %12.0f     float     sum      -1  %7.1f  %6.2f  %6.2f      0  %7.1f  %6.2f  %6.2f      0\n",
                              size, size / 4, t, alg, busbw, t * 1.01, alg / 1.01, busbw / 1.01);
        }
        written += printf("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 123.4567\n#\n");
        block++;
    }
    return 0;
}
