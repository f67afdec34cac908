/* pcipath.c — the PCI path between a GPU and a NIC from their resolved
 * sysfs paths (what `nvidia-smi topo -m` prints as PIX/PXB/PHB/NODE/SYS,
 * and NCCL's PATH_PIX ... PATH_SYS), the ACS control bits of a PCI config
 * space, and the words of the RDMA sysfs attributes.
 *
 * A resolved path is /sys/devices/<root>/<bridge>/.../<function>, where
 * <root> is a host bridge "pciDDDD:BB" (on Hyper-V VMs it sits below
 * VMBus components; the last "pci" component is taken) and each
 * component after it a PCI function DDDD:BB:DD.F: a PCIe switch shows as
 * its upstream port then one of its downstream ports (Linux
 * Documentation/PCI/sysfs-pci.rst; drivers/pci/probe.c names the
 * devices). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

const char *cf__pci_path_name(cf__pci_path p)
{
    static const char *const names[] = {"PIX", "PXB", "PHB", "NODE", "SYS", "unknown"};
    return (p >= CF__PATH_PIX && p <= CF__PATH_UNKNOWN) ? names[p] : "unknown";
}

int cf__is_bdf(const char *s)
{
    /* DDDD:BB:DD.F */
    static const char shape[] = "xxxx:xx:xx.x";
    if (strlen(s) != sizeof shape - 1) return 0;
    for (size_t i = 0; i < sizeof shape - 1; i++) {
        if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i]) return 0;
    }
    return 1;
}

#define CHAIN_MAX 32

/* Splits a resolved path into its root (index of the last "pci" root) and
 * the BDF components after it. Returns the number of BDFs, -1 without a
 * root. */
static int chain(const char *path, char *root, size_t rootcap, char (*bdf)[16])
{
    char comp[CHAIN_MAX * 2][64];
    int nc = 0, last_root = -1, n = 0;
    const char *p = path;
    while (*p) {
        size_t len;
        while (*p == '/') p++;
        len = strcspn(p, "/");
        if (len == 0) break;
        /* A deeper path than any PCI tree has is unknown, not cut. */
        if (nc >= CHAIN_MAX * 2) return -1;
        /* A component too long to be a root or a BDF is kept as neither
         * (cutting it could make two roots look alike). */
        if (len >= sizeof comp[nc]) comp[nc][0] = '\0';
        else cf__copy_n(comp[nc], sizeof comp[nc], p, len);
        if (strncmp(comp[nc], "pci", 3) == 0 && strchr(comp[nc], ':')) last_root = nc;
        nc++;
        p += len;
    }
    if (last_root < 0) return -1;
    cf__copy(root, rootcap, comp[last_root]);
    for (int i = last_root + 1; i < nc; i++) {
        if (!cf__is_bdf(comp[i])) break;
        if (n >= CHAIN_MAX) return -1;      /* deeper than any PCIe tree: unknown */
        cf__copy(bdf[n++], 16, comp[i]);
    }
    return n;
}

cf__pci_path cf__pci_path_between(const char *a, int numa_a, const char *b, int numa_b)
{
    char ra[64], rb[64], ca[CHAIN_MAX][16], cb[CHAIN_MAX][16];
    int na = chain(a, ra, sizeof ra, ca), nb = chain(b, rb, sizeof rb, cb), shared = 0;
    if (na <= 0 || nb <= 0) return CF__PATH_UNKNOWN;
    if (strcmp(ra, rb) != 0) {
        if (numa_a >= 0 && numa_b >= 0 && numa_a != numa_b) return CF__PATH_SYS;
        return CF__PATH_NODE;
    }
    while (shared < na && shared < nb && strcmp(ca[shared], cb[shared]) == 0) shared++;
    if (shared == 0) return CF__PATH_PHB;
    if (na - shared <= 2 && nb - shared <= 2) return CF__PATH_PIX;
    return CF__PATH_PXB;
}

size_t cf__pci_bridges_between(const char *a, const char *b, char (*out)[16], size_t max)
{
    char ra[64], rb[64], ca[CHAIN_MAX][16], cb[CHAIN_MAX][16];
    int na = chain(a, ra, sizeof ra, ca), nb = chain(b, rb, sizeof rb, cb), shared = 0;
    size_t n = 0;
    if (na <= 0 || nb <= 0 || strcmp(ra, rb) != 0) return 0;
    while (shared < na && shared < nb && strcmp(ca[shared], cb[shared]) == 0) shared++;
    if (shared > 0 && n < max) cf__copy(out[n++], 16, ca[shared - 1]);
    for (int i = shared; i < na - 1 && n < max; i++) cf__copy(out[n++], 16, ca[i]);
    for (int i = shared; i < nb - 1 && n < max; i++) cf__copy(out[n++], 16, cb[i]);
    return n;
}

int cf__acs_redirects(const unsigned char *cfg, size_t len)
{
    size_t off = 0x100;
    int hops = 0;
    if (len <= 0x100 + 4) return -1;
    /* Extended capabilities: a 32-bit header (ID 16 bits, version 4, next
     * offset 12) from 0x100; at most (4096 - 256) / 4 of them. */
    while (off >= 0x100 && off + 8 <= len && hops++ < 960) {
        unsigned hdr = (unsigned)cfg[off] | (unsigned)cfg[off + 1] << 8 | (unsigned)cfg[off + 2] << 16 |
                       (unsigned)cfg[off + 3] << 24;
        unsigned id = hdr & 0xffffu, next = (hdr >> 20) & 0xffcu;
        if (hdr == 0 || hdr == 0xffffffffu) return 0;
        if (id == 0x000d) {
            unsigned ctrl = (unsigned)cfg[off + 6] | (unsigned)cfg[off + 7] << 8;
            return (ctrl & 0x000cu) ? 1 : 0;    /* bit 2 RR, bit 3 CR */
        }
        if (next == 0) return 0;
        off = next;
    }
    return 0;
}

void cf__sysfs_state_word(const char *s, char *out, size_t cap)
{
    const char *w = strchr(s, ':');
    w = w ? w + 1 : s;
    while (*w == ' ' || *w == '\t') w++;
    /* Cut, if at all, on a character boundary; only ASCII letters change. */
    cf__text_copy(out, cap, w, strlen(w));
    for (char *c = out; cap && *c; c++) *c = (char)tolower((unsigned char)*c);
}

double cf__sysfs_rate_gbps(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0) return NAN;
    while (*end == ' ') end++;
    if (strncmp(end, "Gb/sec", 6) != 0) return NAN;
    return v;
}
