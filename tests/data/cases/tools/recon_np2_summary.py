#!/usr/bin/env python3
"""Writes the reconstructions r11 and r12 (tests/data/cases/INDEX.md).

r11: mpirun -np 2 of an nccl-tests build without MPI (-g 1): each process
prints its own parameter line, rank list from "Rank 0" on its own host and
its own table; the two tables interleave as two processes share a stream.
busbw is 0.00 (one rank per communicator), algbw ~600 GB/s as in c01.
r12: r08's summary shape (a leading node-count column) with the max-error
column of old tables, 1 to 8 nodes; busbw 415.72 at one node (NVLink),
~87 GB/s from two nodes on (the network)."""
import sys

def r11():
    hdr = ["# nThread 1 nGpus 1 minBytes 1073741824 maxBytes 4294967296 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
           "#", "# Using devices"]
    out = ["mpirun -np 2 -H node01,node02 -x NCCL_DEBUG=WARN ./build/all_reduce_perf -b 1G -e 4G -f 2 -g 1"]
    out += hdr + hdr
    out.append("#  Rank  0 Group  0 Pid  41873 on     node01 device  0 [0x18] NVIDIA H100 80GB HBM3")
    out.append("#  Rank  0 Group  0 Pid  39552 on     node02 device  0 [0x18] NVIDIA H100 80GB HBM3")
    head = ["#", "#                                                              out-of-place                       in-place          ",
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "]
    out += head + head
    for size in (1073741824, 2147483648, 4294967296):
        for k in range(2):
            bw = 598.2 - 3.1 * k
            t = size / bw / 1e3
            out.append("%12d  %12d     float     sum      -1  %7.1f  %6.2f    0.00      0  %7.1f  %6.2f    0.00      0"
                       % (size, size // 4, t, size / t / 1e3, t + 1.2, size / (t + 1.2) / 1e3))
    for k in range(2):
        out += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 0 ", "#"]
    return "\n".join(out) + "\n"

def r12():
    return """# all_reduce_perf -b 8G -e 8G -g 8 (old nccl-tests: max error column), one run per node count, the 8 GiB row of each
#  nodes       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
       1  8589934592    2147483648   float     sum    36160  237.55  415.72  2e-07    36118  237.83  416.20  2e-07
       2  8589934592    2147483648   float     sum   183250   46.88   87.90  2e-07   183301   46.86   87.86  2e-07
       4  8589934592    2147483648   float     sum   190733   45.04   87.26  2e-07   190812   45.02   87.22  2e-07
       8  8589934592    2147483648   float     sum   195980   43.83   86.29  2e-07   196044   43.82   86.26  2e-07
"""

if __name__ == "__main__":
    sys.stdout.write(r11() if sys.argv[1:] == ["r11"] else r12())
