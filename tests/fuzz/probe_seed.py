#!/usr/bin/env python3
"""probe_seed.py TREE OUT [DROP] — a saved host tree (tests/data/probe/KIND) as one
input of tests/fuzz/fuzz_probe.c: one record a line, TYPE PATH TAB CONTENT,
TYPE f (file), l (symbolic link to CONTENT), d (an empty directory), p (a
FIFO). PATH may start with ^N and a space: the first N bytes of the
previous record's path, then the rest (front coding, so that a whole tree
fits in libFuzzer's 64 KiB inputs). CONTENT escapes: \\n, \\t, \\\\, \\0 (a NUL
byte), \\xHH. A PCI config space keeps its first 272 bytes (the ACS
capability at 0x100 is what the probe reads of it); any file keeps its
first 8 KiB. DROP, a regular expression, leaves out the records whose path
matches it (a smaller tree: a fuzz input of 2 GPUs runs 4 times faster
than one of 8). After the tester's
probe_tree_to_seed.py (shared/reviews/2026-12-b/reliability-crashes)."""
import os
import re
import sys


def esc(b):
    out = []
    for c in b:
        if c == 0x0a: out.append('\\n')
        elif c == 0x09: out.append('\\t')
        elif c == 0x5c: out.append('\\\\')
        elif c == 0: out.append('\\0')
        elif 0x20 <= c < 0x7f: out.append(chr(c))
        else: out.append('\\x%02x' % c)
    return ''.join(out)


def records(src):
    for dp, dns, fns in os.walk(src):
        rel = os.path.relpath(dp, src)
        for n in dns + fns:
            full = os.path.join(dp, n)
            r = os.path.normpath(os.path.join(rel, n))
            if os.path.islink(full):
                yield r, 'l', os.readlink(full)
            elif os.path.isdir(full):
                if not os.listdir(full):
                    yield r, 'd', ''
            elif os.path.isfile(full):
                data = open(full, 'rb').read()
                if n == 'config': data = data[:272]
                data = data[:8192]
                yield r, 'f', esc(data)
            else:
                yield r, 'p', ''


def main():
    src, dst = sys.argv[1], sys.argv[2]
    drop = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
    prev, lines = '', []
    for r, t, c in sorted(records(src)):
        if drop and drop.search(r): continue
        k = 0
        while k < len(prev) and k < len(r) and prev[k] == r[k]: k += 1
        p = '^%d %s' % (k, r[k:]) if k > 8 else r
        lines.append('%s%s\t%s' % (t, p, c))
        prev = r
    open(dst, 'w').write('\n'.join(lines) + '\n')


main()
