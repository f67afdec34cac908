/* topo.c — reads `nvidia-smi topo -m`: the header of device columns (GPUn,
 * NICn or NIC names such as mlx5_0, then "CPU Affinity", "NUMA Affinity",
 * "GPU NUMA ID"), one row per device with a link code per column (X, NV#,
 * PIX, PXB, PHB, NODE, SYS, and SOC as older drivers wrote SYS), and the
 * "NIC Legend" that names NICn. Columns are separated by tabs and padded
 * with blanks in ways that vary by driver, so rows are read as blank-
 * separated tokens: the label, then exactly one code per column; what
 * follows (CPU and NUMA affinity) is ignored.
 *
 * The analysis answers DESIGN §5's topology questions: is there any NVLink
 * between GPUs (else PCIE_ONLY_TOPOLOGY), and is every GPU within PXB of
 * some NIC (NCCL's default NCCL_NET_GDR_LEVEL is PXB, src/graph/paths.cc:
 * beyond it GPUDirect RDMA is not used: NIC_FAR_FROM_GPU). */
#include <string.h>
#include "audit/audit_int.h"

static const char *const link_names[] = {"?", "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS"};

const char *cf__topo_link_name(int code)
{
    return code >= 0 && code <= CF__TL_SYS ? link_names[code] : "?";
}

int cf__topo_link(const char *s, size_t n, int *nvlinks)
{
    if (nvlinks) *nvlinks = 0;
    if (n == 1 && s[0] == 'X') return CF__TL_X;
    if (n >= 3 && s[0] == 'N' && s[1] == 'V' && s[2] >= '0' && s[2] <= '9') {
        int v = 0;
        for (size_t i = 2; i < n; i++) {
            if (s[i] < '0' || s[i] > '9') return CF__TL_UNKNOWN;
            if (v < 1000) v = v * 10 + (s[i] - '0');
        }
        if (nvlinks) *nvlinks = v;
        return CF__TL_NV;
    }
    if (n == 3 && memcmp(s, "PIX", 3) == 0) return CF__TL_PIX;
    if (n == 3 && memcmp(s, "PXB", 3) == 0) return CF__TL_PXB;
    if (n == 3 && memcmp(s, "PHB", 3) == 0) return CF__TL_PHB;
    if (n == 4 && memcmp(s, "NODE", 4) == 0) return CF__TL_NODE;
    if (n == 3 && (memcmp(s, "SYS", 3) == 0 || memcmp(s, "SOC", 3) == 0)) return CF__TL_SYS;
    return CF__TL_UNKNOWN;
}

static int is_stop_word(const char *t, size_t n)
{
    return (n == 3 && (memcmp(t, "CPU", 3) == 0 || memcmp(t, "GPU", 3) == 0)) ||
           (n == 4 && memcmp(t, "NUMA", 4) == 0) || (n == 8 && memcmp(t, "Affinity", 8) == 0);
}

int cf__topo_header(const char *s, size_t n, cf__topo *t)
{
    const char *p = s, *end = s + n, *tok;
    size_t tn;
    int nc = 0;
    if (!cf__token(&p, end, &tok, &tn) || tn != 4 || memcmp(tok, "GPU0", 4) != 0) return 0;
    memset(t, 0, sizeof *t);
    do {
        if (is_stop_word(tok, tn)) break;
        if (cf__topo_link(tok, tn, NULL) != CF__TL_UNKNOWN) return 0;  /* a row, not a header */
        if (nc >= CF__MAX_TOPO_DEVS) break;
        cf__copy_n(t->names[nc], sizeof t->names[nc], tok, tn);
        nc++;
    } while (cf__token(&p, end, &tok, &tn));
    t->ncols = nc;
    return nc > 0;
}

static int find_col(const cf__topo *t, const char *s, size_t n)
{
    for (int i = 0; i < t->ncols; i++)
        if (strlen(t->names[i]) == n && memcmp(t->names[i], s, n) == 0) return i;
    return -1;
}

int cf__topo_row(const char *s, size_t n, cf__topo *t)
{
    const char *p = s, *end = s + n, *tok;
    size_t tn;
    int col, r;
    unsigned char codes[CF__MAX_TOPO_DEVS], nv[CF__MAX_TOPO_DEVS];
    if (t->ncols == 0 || !cf__token(&p, end, &tok, &tn)) return 0;
    col = find_col(t, tok, tn);
    if (col < 0) return 0;
    for (int c = 0; c < t->ncols; c++) {
        int nvl, code;
        if (!cf__token(&p, end, &tok, &tn)) return 0;
        code = cf__topo_link(tok, tn, &nvl);
        if (code == CF__TL_UNKNOWN) return 0;
        codes[c] = (unsigned char)code;
        nv[c] = (unsigned char)(nvl > 255 ? 255 : nvl);
    }
    for (r = 0; r < t->nrows; r++)
        if (t->row_of[r] == col) break;
    if (r == t->nrows) {
        if (t->nrows >= CF__MAX_TOPO_DEVS) return 1;
        t->row_of[t->nrows++] = col;
    }
    memcpy(t->link[r], codes, (size_t)t->ncols);
    memcpy(t->nvl[r], nv, (size_t)t->ncols);
    return 1;
}

int cf__topo_nic_legend(const char *s, size_t n, cf__topo *t)
{
    const char *p = s, *end = s + n, *tok, *name;
    size_t tn, nn;
    int col;
    if (!cf__token(&p, end, &tok, &tn) || tn < 2 || tok[tn - 1] != ':') return 0;
    if (!cf__starts(tok, tn, "NIC")) return 0;
    col = find_col(t, tok, tn - 1);
    if (!cf__token(&p, end, &name, &nn)) return 0;
    if (col < 0) return 1;
    cf__copy_n(t->nic_names[col], sizeof t->nic_names[col], name, nn);
    return 1;
}

int cf__topo_is_gpu(const cf__topo *t, int col)
{
    const char *nm = t->names[col];
    return nm[0] == 'G' && nm[1] == 'P' && nm[2] == 'U' && nm[3] >= '0' && nm[3] <= '9';
}

int cf__topo_is_nic(const cf__topo *t, int col)
{
    return !cf__topo_is_gpu(t, col);
}

void cf__topo_analyze(const cf__topo *t, cf__topo_analysis *out)
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < t->ncols; c++) {
        if (cf__topo_is_gpu(t, c)) out->gpus++;
        else out->nics++;
    }
    for (int r = 0; r < t->nrows; r++) {
        int rc = t->row_of[r];
        int best = CF__TL_UNKNOWN;
        if (!cf__topo_is_gpu(t, rc)) continue;
        for (int c = 0; c < t->ncols; c++) {
            int code = t->link[r][c];
            if (c == rc) continue;
            if (cf__topo_is_gpu(t, c)) {
                if (c > rc) out->gpu_pairs++;
                if (code == CF__TL_NV) out->nvlink = 1;
            } else if (code >= CF__TL_PIX && (best == CF__TL_UNKNOWN || code < best)) {
                best = code;
            }
        }
        out->best[rc] = best;
        if (out->nics > 0 && best > CF__TL_PXB) out->far_gpus++;
    }
}
