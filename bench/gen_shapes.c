/* gen_shapes.c — the audit benchmark's other input shapes (issue 21: no
 * shape more than 3x slower per byte than the bench log of gen_log.c),
 * written to stdout until SIZE_MB megabytes (argv[2], default 1024):
 *   ranks  many short ranks: a 16,384-rank job (2,048 nodes x 8 GPUs), each
 *          rank three short NCCL lines (bootstrap, one channel, Init
 *          COMPLETE), then its rank list and a 35-row table; every block a
 *          new set of processes (a job restarted)
 *   long   long NCCL INFO lines: per rank of a 256-rank job, the "Trees"
 *          and ring "Channel" lines of 64 channels (1-2 KB each) and a
 *          32-port "NET/IB : Using" line, then the table
 * Deterministic: no randomness. Usage: gen_shapes ranks|long [SIZE_MB] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long table(int ranks, int block)
{
    long long w = 0;
    w += printf("# nThread 1 nGpus 1 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
    for (int r = 0; r < ranks; r++)
        w += printf("#  Rank %5d Group  0 Pid %6d on    node%04d device  %d [0x%02x] NVIDIA H100 80GB HBM3\n", r,
                    1000 + r + block * 7, r / 8 + 1, r % 8, 0x18 + r % 8);
    w += printf("#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
    for (int k = 0; k < 35; k++) {
        double size = (double)(8ULL << k), busbw = 360.0 * size / (size + 4.0e6), alg = busbw / 2.0, t = size / (alg * 1e3);
        w += printf("%12.0f  %12.0f     float     sum      -1  %7.1f  %6.2f  %6.2f      0  %7.1f  %6.2f  %6.2f      0\n",
                    size, size / 4, t, alg, busbw, t * 1.01, alg / 1.01, busbw / 1.01);
    }
    w += printf("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 123.4567\n#\n");
    return w;
}

static long long short_ranks(int block)
{
    long long w = 0;
    for (int r = 0; r < 16384; r++) {
        int pid = 1000 + r + block * 7, dev = r % 8;
        w += printf("node%04d:%d:%d [%d] NCCL INFO Bootstrap : Using eth0:192.0.2.%d<0>\n", r / 8 + 1, pid, pid, dev, r % 250 + 1);
        w += printf("node%04d:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA\n", r / 8 + 1,
                    pid, pid, dev, r, dev, (r + 8) % 16384, dev, dev);
        w += printf("node%04d:%d:%d [%d] NCCL INFO comm 0x55cc8aa86c70 rank %d nranks 16384 cudaDev %d busId %d000 - Init COMPLETE\n",
                    r / 8 + 1, pid, pid, dev, r, dev, 18 + dev);
    }
    return w + table(16384, block);
}

static long long long_lines(int block)
{
    long long w = 0;
    for (int r = 0; r < 256; r++) {
        int pid = 1000 + r + block * 7, dev = r % 8;
        char host[64];
        snprintf(host, sizeof host, "node%03d:%d:%d [%d]", r / 8 + 1, pid, pid + 1000, dev);
        w += printf("%s NCCL INFO NET/IB : Using", host);
        for (int d = 0; d < 32; d++) w += printf(" [%d]mlx5_%d:1/IB", d, d);
        w += printf(" [RO]; OOB eth0:192.0.2.%d<0>\n", r / 8 + 1);
        w += printf("%s NCCL INFO Trees", host);
        for (int c = 0; c < 64; c++) w += printf(" [%d] %d/-1/-1->%d->%d", c, (r + 1) % 256, r, (r + 255) % 256);
        w += printf("\n");
        for (int c = 0; c < 4; c++) {
            w += printf("%s NCCL INFO Channel %02d/64 :", host, c);
            for (int k = 0; k < 256; k++) w += printf(" %d", (k + c) % 256);
            w += printf("\n");
        }
        w += printf("%s NCCL INFO comm 0x55cc8aa86c70 rank %d nranks 256 cudaDev %d busId %d000 - Init COMPLETE\n", host, r, dev, 18 + dev);
    }
    return w + table(256, block);
}

int main(int argc, char **argv)
{
    const char *shape = argc > 1 ? argv[1] : "ranks";
    long long target = (argc > 2 ? atoll(argv[2]) : 1024) * 1000000LL, written = 0;
    int block = 0, ranks = strcmp(shape, "ranks") == 0;
    if (!ranks && strcmp(shape, "long") != 0) {
        fprintf(stderr, "usage: gen_shapes ranks|long [SIZE_MB]\n");
        return 2;
    }
    while (written < target) written += ranks ? short_ranks(block++) : long_lines(block++);
    return 0;
}
