/* fuzz_probe.c — the probe's host-tree reader (lib/probe/tree.c, node.c,
 * pcipath.c) on a tree held in memory (lib/probe/memfs.c): no disk, so
 * each input is one tree and one probe (thousands a second). After the
 * tester's harness of 2026-12-01 (shared/reviews/2026-12-b), which built
 * each tree on disk (4 execs/s).
 *
 * Input: one record a line, TYPE PATH TAB CONTENT (tests/fuzz/probe_seed.py
 * writes the seeds from tests/data/probe): TYPE f file, l link to CONTENT,
 * d directory, p FIFO; PATH "^N rest" is the first N bytes of the previous
 * path then rest; CONTENT escapes \n \t \\ \0 \xHH.
 *
 * Checked beyond the sanitizers: a tree under a directory always gives a
 * report (no "out of memory" from what a file holds), its text and JSON can
 * be written, and every string in it is UTF-8 text (jansson refuses the
 * rest, so json_dumps would fail). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/probe_int.h"

static size_t unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c;
        if (s[i] != '\\' || i + 1 >= n) {
            out[o++] = s[i];
            continue;
        }
        c = s[++i];
        if (c == 'n') out[o++] = '\n';
        else if (c == 't') out[o++] = '\t';
        else if (c == '0') out[o++] = '\0';
        else if (c == 'x' && i + 2 < n) {
            char h[3] = {s[i + 1], s[i + 2], 0};
            out[o++] = (char)strtol(h, NULL, 16);
            i += 2;
        } else out[o++] = c;
    }
    return o;
}

/* One record into m; prev holds the previous path (front coding). */
static void record(cf__memfs *m, const char *p, size_t n, char *prev, char *content)
{
    const char *tab = memchr(p, '\t', n);
    char path[1024];
    size_t pl = 0, k = 0;
    const char *q;
    if (!tab || tab == p) return;
    q = p + 1;
    if (*q == '^') {
        char *end;
        k = (size_t)strtoul(q + 1, &end, 10);
        if (*end != ' ' || k > strlen(prev)) return;
        memcpy(path, prev, k);
        pl = k;
        q = end + 1;
    }
    if (q > tab || (size_t)(tab - q) + pl >= sizeof path) return;
    memcpy(path + pl, q, (size_t)(tab - q));
    pl += (size_t)(tab - q);
    path[pl] = '\0';
    if (strlen(path) != pl) return;     /* a NUL in the path */
    memcpy(prev, path, pl + 1);
    cf__memfs_add(m, p[0], path, content, unescape(tab + 1, (size_t)(p + n - tab - 1), content));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf__memfs *m = cf__memfs_new("/mem");
    char *content = malloc(size + 1), prev[1024] = "";
    const char *p = (const char *)data, *end = p + size;
    static const char *const env[] = {"NCCL_IB_HCA=mlx5_0", "FI_PROVIDER=efa", NULL};
    cf_probe_opts po;
    json_t *rep = NULL;
    cf_error err;
    cf_status st;
    if (!m || !content) abort();
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end;
        record(m, p, (size_t)(nl - p), prev, content);
        p = nl + 1;
    }
    free(content);
    memset(&po, 0, sizeof po);
    po.sysroot = "/mem";
    po.env = env;
    cf_error_clear(&err);
    st = cf__probe_node_fs(&po, cf__memfs_fs(m), &rep, &err);
    if (st != CF_OK) {
        fprintf(stderr, "fuzz_probe: %s: %s\n", cf_strerror(st), err.message);
        abort();
    }
    {
        char *text = cf_probe_report_text(rep);
        char *js = json_dumps(rep, JSON_COMPACT);
        if (!text || !js) abort();
        if (cf_probe_status(rep) == CF_AUDIT_INVALID) abort();
        free(text);
        free(js);
    }
    json_decref(rep);
    cf__memfs_free(m);
    return 0;
}
