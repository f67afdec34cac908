/* node.c — cf_probe_node: the facts of one node read from its host tree.
 *
 * Sources, each a file or directory of the host (read under the sysroot):
 * - GPUs: /proc/driver/nvidia/gpus/BDF/information ("Model:", "Bus
 *   Location:"; the NVIDIA driver's procfs), then /sys/bus/pci/devices/BDF
 *   with class 0x0302xx/0x0300xx/0x0380xx and vendor 0x10de (NVIDIA) or
 *   0x1002 (AMD) for the GPUs procfs does not list; numa_node of each;
 * - RDMA ports: /sys/class/infiniband/DEV/{fw_ver, device ->, device/net/},
 *   DEV/ports/N/{state, phys_state, rate, link_layer} (Linux
 *   Documentation/ABI/stable/sysfs-class-infiniband; the words as
 *   drivers/infiniband/core/sysfs.c prints them: "4: ACTIVE", "5: LinkUp",
 *   "400 Gb/sec (4X NDR)");
 * - network interfaces: /sys/class/net/IF/{speed, mtu, operstate, device}
 *   (Documentation/ABI/testing/sysfs-class-net);
 * - GPUDirect RDMA: /sys/module/nvidia_peermem or nv_peer_mem (the
 *   peer-memory clients), efa_nv_peermem (AWS EFA's), or DMA-BUF: kernel
 *   >= 5.12 (/proc/sys/kernel/osrelease) and NVIDIA's open kernel module
 *   ("Open Kernel Module" in /proc/driver/nvidia/version) of release >= 515
 *   (/sys/module/nvidia/version), what NCCL's DMA-BUF path needs;
 * - /dev/infiniband/uverbsN (the verbs device nodes a container may lack),
 *   /proc/self/limits ("Max locked memory"), /proc/sys/kernel/hostname. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

typedef struct pgpu {
    char pci[16];               /* BDF, lowercase */
    const char *vendor;         /* "nvidia", "amd" */
    char model[128];            /* "" = unknown */
    char device_id[16];         /* "0x2330" */
    int numa;                   /* -1 = unknown */
    char dev[CF__PROBE_PATH];   /* resolved sysfs path, "" = unknown */
    cf__pci_path best;          /* nearest RDMA port's path */
} pgpu;

typedef struct pport {
    char name[64];              /* "mlx5_0" */
    long port;                  /* 1-based port number */
    char link_layer[32];        /* "InfiniBand", "Ethernet", "Unknown" (EFA) */
    char state[32];             /* "active", "down", "init", ... */
    char phys_state[32];        /* "linkup", "disabled", "polling", ... */
    double rate_gbps;           /* NAN = unknown */
    char fw[64], pci[16], netdev[64];
    int numa;
    char dev[CF__PROBE_PATH];
    long nearest;               /* index of the nearest GPU, -1 */
    cf__pci_path path;          /* path to it */
} pport;

typedef struct pnode {
    cf__tree t;
    pgpu gpus[CF_MAX_PROBE_GPUS];
    long ng;
    pport ports[CF_MAX_PROBE_PORTS];
    long np;
    long rdma_devs;             /* entries of /sys/class/infiniband */
    char driver[64], kernel[128], hostname[256];
    int open_module;            /* 1 open, 0 proprietary, -1 unknown */
    const char *gdr, *gdr_via;
    const char *acs;            /* "enabled", "disabled", "unknown" */
    char acs_at[256];           /* bridges with redirection */
    long uverbs;
    int dev_ib;                 /* /dev/infiniband exists */
    double memlock;             /* bytes; INFINITY = unlimited; NAN unknown */
    json_t *net, *env, *findings, *topology;
} pnode;

static int numa_of(cf__tree *t, const char *dir)
{
    char p[CF__PROBE_PATH], v[32];
    char *end;
    long n;
    if (cf__tree_path(t, p, sizeof p, "%s/numa_node", dir) != 0) return -1;
    if (cf__tree_read(t, p, v, sizeof v, 0) != 1) return -1;
    n = strtol(v, &end, 10);
    if (end == v || *end || n < -1 || n > 4096) {
        cf__tree_skip(t, p, "not a NUMA node number: \"%s\"", v);
        return -1;
    }
    return (int)n;
}

static void lower(char *s)
{
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z') *s = (char)(*s - 'A' + 'a');
}

static pgpu *gpu_by_pci(pnode *n, const char *pci)
{
    for (long i = 0; i < n->ng; i++)
        if (cf__strcasecmp(n->gpus[i].pci, pci) == 0) return &n->gpus[i];
    return NULL;
}

static pgpu *gpu_add(pnode *n, const char *pci, const char *path)
{
    pgpu *g;
    if (n->ng >= CF_MAX_PROBE_GPUS) {
        cf__tree_skip(&n->t, path, "more than %ld GPUs (CF_MAX_PROBE_GPUS)", CF_MAX_PROBE_GPUS);
        return NULL;
    }
    g = &n->gpus[n->ng++];
    memset(g, 0, sizeof *g);
    cf__copy(g->pci, sizeof g->pci, pci);
    lower(g->pci);
    g->numa = -1;
    g->best = CF__PATH_UNKNOWN;
    return g;
}

/* The value after "Key:" on a line of an information file. */
static void field(const char *text, const char *key, char *out, size_t cap)
{
    const char *p = text;
    size_t kl = strlen(key);
    out[0] = '\0';
    while (p && *p) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
            const char *v = p + kl + 1, *e;
            while (*v == ' ' || *v == '\t') v++;
            e = v + strcspn(v, "\n");
            while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
            cf__text_copy(out, cap, v, (size_t)(e - v));
            return;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
}

/* GPUs the NVIDIA driver lists in procfs. */
static void gpus_from_proc(pnode *n)
{
    char **names = NULL, path[CF__PROBE_PATH], info[4096], loc[64];
    long k = cf__tree_list(&n->t, "/proc/driver/nvidia/gpus", &names);
    for (long i = 0; i < k; i++) {
        pgpu *g;
        if (cf__tree_path(&n->t, path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", names[i]) != 0) continue;
        if (cf__tree_read(&n->t, path, info, sizeof info, 0) != 1) continue;
        field(info, "Bus Location", loc, sizeof loc);
        if (!cf__is_bdf(loc)) cf__copy(loc, sizeof loc, names[i]);
        if (!cf__is_bdf(loc)) {
            cf__tree_skip(&n->t, path, "no PCI address (Bus Location) in it");
            continue;
        }
        if (gpu_by_pci(n, loc) || !(g = gpu_add(n, loc, path))) continue;
        g->vendor = "nvidia";
        field(info, "Model", g->model, sizeof g->model);
    }
    cf__tree_names_free(names, k);
}

/* A hex attribute ("0x10de") of a PCI function; -1 when unreadable. */
static long hex_attr(cf__tree *t, const char *bdf, const char *attr, int quiet)
{
    char p[CF__PROBE_PATH], v[32];
    char *end;
    long x;
    if (cf__tree_path(t, p, sizeof p, "/sys/bus/pci/devices/%s/%s", bdf, attr) != 0) return -1;
    if (cf__tree_read(t, p, v, sizeof v, quiet) != 1) return -1;
    x = strtol(v, &end, 16);
    if (end == v || *end || x < 0) {
        if (!quiet) cf__tree_skip(t, p, "not a hex number: \"%s\"", v);
        return -1;
    }
    return x;
}

/* AMD Instinct GPUs by PCI device id (the PCI ID Repository, vendor 1002:
 * 74a1 "Aqua Vanjaram [Instinct MI300X]", 74a5 MI325X, 740c/740f
 * "Aldebaran" MI250X/MI250 and MI210): sysfs has no model name. */
static const char *amd_model(long dev)
{
    switch (dev) {
    case 0x74a1: return "AMD Instinct MI300X";
    case 0x74a5: return "AMD Instinct MI325X";
    case 0x740c: return "AMD Instinct MI250X/MI250";
    case 0x740f: return "AMD Instinct MI210";
    default: return "";
    }
}

/* Every PCI GPU function, the procfs ones completed with their PCI facts. */
static void gpus_from_pci(pnode *n)
{
    char **names = NULL, path[CF__PROBE_PATH], dev_path[CF__PROBE_PATH];
    long k = cf__tree_list(&n->t, "/sys/bus/pci/devices", &names);
    for (long i = 0; i < k; i++) {
        long cls, ven, dev;
        pgpu *g;
        if (!cf__is_bdf(names[i])) continue;
        if (cf__tree_path(&n->t, path, sizeof path, "/sys/bus/pci/devices/%s", names[i]) != 0) continue;
        if (cf__tree_resolve(&n->t, path, dev_path, sizeof dev_path) != 1) continue;
        cls = hex_attr(&n->t, names[i], "class", 0);
        if (cls < 0 || (cls >> 8 != 0x0302 && cls >> 8 != 0x0300 && cls >> 8 != 0x0380)) continue;
        ven = hex_attr(&n->t, names[i], "vendor", 0);
        if (ven != 0x10de && ven != 0x1002) continue;
        dev = hex_attr(&n->t, names[i], "device", 0);
        g = gpu_by_pci(n, names[i]);
        if (!g && !(g = gpu_add(n, names[i], path))) continue;
        g->vendor = ven == 0x10de ? "nvidia" : "amd";
        if (dev >= 0 && dev <= 0xffff) snprintf(g->device_id, sizeof g->device_id, "0x%04x", (unsigned)dev);
        if (!g->model[0] && ven == 0x1002) cf__copy(g->model, sizeof g->model, amd_model(dev));
        g->numa = numa_of(&n->t, path);
        cf__copy(g->dev, sizeof g->dev, dev_path);
    }
    cf__tree_names_free(names, k);
}

static int by_pci(const void *a, const void *b)
{
    return strcmp(((const pgpu *)a)->pci, ((const pgpu *)b)->pci);
}

/* One port of an RDMA device. */
static void read_port(pnode *n, const char *dev, const char *port, const pport *base)
{
    char p[CF__PROBE_PATH], v[128];
    char *end;
    pport *q;
    long num = strtol(port, &end, 10);
    if (cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports/%s", dev, port) != 0) return;
    if (end == port || *end || num < 0) {
        cf__tree_skip(&n->t, p, "not a port number");
        return;
    }
    if (n->np >= CF_MAX_PROBE_PORTS) {
        cf__tree_skip(&n->t, p, "more than %ld RDMA ports (CF_MAX_PROBE_PORTS)", CF_MAX_PROBE_PORTS);
        return;
    }
    q = &n->ports[n->np++];
    *q = *base;
    q->port = num;
    q->rate_gbps = NAN;
    cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports/%s/state", dev, port);
    if (cf__tree_read(&n->t, p, v, sizeof v, 0) == 1) cf__sysfs_state_word(v, q->state, sizeof q->state);
    cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports/%s/phys_state", dev, port);
    if (cf__tree_read(&n->t, p, v, sizeof v, 0) == 1) cf__sysfs_state_word(v, q->phys_state, sizeof q->phys_state);
    cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports/%s/rate", dev, port);
    if (cf__tree_read(&n->t, p, v, sizeof v, 0) == 1) {
        q->rate_gbps = cf__sysfs_rate_gbps(v);
        if (isnan(q->rate_gbps)) cf__tree_skip(&n->t, p, "not a rate (\"N Gb/sec ...\"): \"%s\"", v);
    }
    cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports/%s/link_layer", dev, port);
    cf__tree_read(&n->t, p, q->link_layer, sizeof q->link_layer, 0);
}

static void read_rdma(pnode *n)
{
    char **devs = NULL, p[CF__PROBE_PATH];
    long k = cf__tree_list(&n->t, "/sys/class/infiniband", &devs);
    for (long i = 0; i < k; i++) {
        pport base;
        char **ports = NULL, **nets = NULL;
        long np, nn;
        const char *slash;
        /* A dangling or escaping entry is skipped (recorded), not counted. */
        if (cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s", devs[i]) != 0) continue;
        if (cf__tree_resolve(&n->t, p, base.dev, sizeof base.dev) != 1) continue;
        if (strlen(devs[i]) >= sizeof base.name) {
            cf__tree_skip(&n->t, p, "an RDMA device name longer than %zu bytes", sizeof base.name - 1);
            continue;
        }
        n->rdma_devs++;
        memset(&base, 0, sizeof base);
        cf__copy(base.name, sizeof base.name, devs[i]);
        base.numa = -1;
        base.nearest = -1;
        base.path = CF__PATH_UNKNOWN;
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/fw_ver", devs[i]);
        cf__tree_read(&n->t, p, base.fw, sizeof base.fw, 0);
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/device", devs[i]);
        if (cf__tree_resolve(&n->t, p, base.dev, sizeof base.dev) == 1) {
            slash = strrchr(base.dev, '/');
            if (slash && cf__is_bdf(slash + 1)) cf__copy(base.pci, sizeof base.pci, slash + 1);
            base.numa = numa_of(&n->t, p);
        }
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/device/net", devs[i]);
        nn = cf__tree_list(&n->t, p, &nets);
        if (nn > 0 && strlen(nets[0]) < sizeof base.netdev) cf__copy(base.netdev, sizeof base.netdev, nets[0]);
        else if (nn > 0)
            cf__tree_skip(&n->t, p, "a network interface name longer than %zu bytes", sizeof base.netdev - 1);
        cf__tree_names_free(nets, nn);
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/infiniband/%s/ports", devs[i]);
        np = cf__tree_list(&n->t, p, &ports);
        if (np == 0) cf__tree_skip(&n->t, p, "an RDMA device without ports");
        for (long j = 0; j < np; j++) read_port(n, devs[i], ports[j], &base);
        cf__tree_names_free(ports, np);
    }
    cf__tree_names_free(devs, k);
}

static void read_net(pnode *n)
{
    char **ifs = NULL, p[CF__PROBE_PATH], v[64], dev[CF__PROBE_PATH];
    long k = cf__tree_list(&n->t, "/sys/class/net", &ifs);
    for (long i = 0; i < k; i++) {
        json_t *o = json_object();
        char *end;
        long x;
        const char *slash;
        int bad = cf__json_set(o, "name", json_string(ifs[i]));
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/net/%s/speed", ifs[i]);
        /* speed is unreadable (EINVAL) while the link is down: unknown. */
        x = cf__tree_read(&n->t, p, v, sizeof v, 1) == 1 ? strtol(v, &end, 10) : -1;
        bad |= cf__json_set(o, "speed_mbps", x > 0 ? json_integer(x) : json_null());
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/net/%s/mtu", ifs[i]);
        x = cf__tree_read(&n->t, p, v, sizeof v, 0) == 1 ? strtol(v, &end, 10) : -1;
        bad |= cf__json_set(o, "mtu", x > 0 ? json_integer(x) : json_null());
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/net/%s/operstate", ifs[i]);
        bad |= cf__json_set(o, "operstate",
                            cf__tree_read(&n->t, p, v, sizeof v, 0) == 1 ? json_string(v) : json_null());
        cf__tree_path(&n->t, p, sizeof p, "/sys/class/net/%s/device", ifs[i]);
        slash = NULL;
        if (cf__tree_exists(&n->t, p) && cf__tree_resolve(&n->t, p, dev, sizeof dev) == 1) slash = strrchr(dev, '/');
        bad |= cf__json_set(o, "pci", slash && cf__is_bdf(slash + 1) ? json_string(slash + 1) : json_null());
        if (bad || json_array_append_new(n->net, o) != 0) n->t.oom = 1;
    }
    cf__tree_names_free(ifs, k);
}

/* The GPU-NIC matrix: each port's nearest GPU, each GPU's nearest port. */
static void topology(pnode *n)
{
    for (long j = 0; j < n->np; j++) {
        pport *q = &n->ports[j];
        for (long i = 0; i < n->ng; i++) {
            pgpu *g = &n->gpus[i];
            cf__pci_path pp = (g->dev[0] && q->dev[0]) ? cf__pci_path_between(g->dev, g->numa, q->dev, q->numa)
                                                        : CF__PATH_UNKNOWN;
            json_t *o = json_object();
            int bad = cf__json_set(o, "gpu", json_string(g->pci)) | cf__json_set(o, "nic", json_string(q->name)) |
                      cf__json_set(o, "port", json_integer(q->port)) |
                      cf__json_set(o, "path", json_string(cf__pci_path_name(pp)));
            if (bad || json_array_append_new(n->topology, o) != 0) n->t.oom = 1;
            if (pp < q->path) {
                q->path = pp;
                q->nearest = i;
            }
            if (pp < g->best) g->best = pp;
        }
    }
}

/* ACS on the bridges between each GPU and the ports at PIX/PXB from it:
 * the extended config space is readable by root only (a non-root read of
 * `config` returns 64 or 256 bytes): unknown then. */
static void acs(pnode *n)
{
    int known = 0, unknown = 0, on = 0;
    n->acs = "unknown";
    for (long i = 0; i < n->ng; i++) {
        for (long j = 0; j < n->np; j++) {
            char br[16][16], p[CF__PROBE_PATH];
            size_t nb;
            cf__pci_path pp = cf__pci_path_between(n->gpus[i].dev, n->gpus[i].numa, n->ports[j].dev, n->ports[j].numa);
            if (pp != CF__PATH_PIX && pp != CF__PATH_PXB) continue;
            nb = cf__pci_bridges_between(n->gpus[i].dev, n->ports[j].dev, br, 16);
            for (size_t b = 0; b < nb; b++) {
                unsigned char *cfg = NULL;
                size_t len = 0;
                int r;
                if (cf__tree_path(&n->t, p, sizeof p, "/sys/bus/pci/devices/%s/config", br[b]) != 0) {
                    unknown++;
                    continue;
                }
                if (cf__tree_slurp(&n->t, p, (char **)(void *)&cfg, &len) != 1) {
                    unknown++;
                    continue;
                }
                r = cf__acs_redirects(cfg, len);
                cf__free(cfg);
                if (r < 0) {
                    unknown++;
                } else {
                    known++;
                    if (r > 0 && !strstr(n->acs_at, br[b]) && strlen(n->acs_at) + 18 < sizeof n->acs_at) {
                        if (n->acs_at[0]) memcpy(n->acs_at + strlen(n->acs_at), ", ", 3);
                        memcpy(n->acs_at + strlen(n->acs_at), br[b], strlen(br[b]) + 1);
                        on++;
                    }
                }
            }
        }
    }
    if (on) n->acs = "enabled";
    else if (known && !unknown) n->acs = "disabled";
}

/* Major release of a driver version "535.129.03"; -1 unknown. */
static long major(const char *v)
{
    char *end;
    long x = strtol(v, &end, 10);
    return end == v ? -1 : x;
}

static int kernel_at_least(const char *rel, long maj, long min)
{
    char *end;
    long a = strtol(rel, &end, 10), b = 0;
    if (end == rel) return -1;
    if (*end == '.') b = strtol(end + 1, NULL, 10);
    return a > maj || (a == maj && b >= min);
}

/* The verbs device nodes a process here can open (a container may have
 * none though the host has the devices). */
static void dev_infiniband(pnode *n)
{
    char **names = NULL;
    long k;
    n->dev_ib = cf__tree_exists(&n->t, "/dev/infiniband");
    k = cf__tree_list(&n->t, "/dev/infiniband", &names);
    for (long i = 0; i < k; i++) n->uverbs += strncmp(names[i], "uverbs", 6) == 0;
    cf__tree_names_free(names, k);
}

static void driver_and_gdr(pnode *n)
{
    char v[1024];
    long nv = 0;
    cf__tree_read(&n->t, "/proc/sys/kernel/osrelease", n->kernel, sizeof n->kernel, 0);
    n->open_module = -1;
    if (cf__tree_read(&n->t, "/proc/driver/nvidia/version", v, sizeof v, 0) == 1) {
        n->open_module = strstr(v, "Open Kernel Module") != NULL;
        if (!n->driver[0]) {
            /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  ..." */
            const char *m = strstr(v, "Module");
            if (m) {
                m += 6;
                if (strncmp(m, " for ", 5) == 0) m = strchr(m + 5, ' ');
                while (m && *m == ' ') m++;
                if (m) cf__text_copy(n->driver, sizeof n->driver, m, strcspn(m, " \n"));
            }
        }
    }
    if (cf__tree_read(&n->t, "/sys/module/nvidia/version", v, sizeof n->driver, 0) == 1)
        cf__copy(n->driver, sizeof n->driver, v);
    for (long i = 0; i < n->ng; i++) nv += strcmp(n->gpus[i].vendor, "nvidia") == 0;
    n->gdr = "unknown";
    n->gdr_via = NULL;
    if (nv == 0 || n->np == 0) return;
    if (cf__tree_exists(&n->t, "/sys/module/nvidia_peermem")) n->gdr_via = "nvidia_peermem";
    else if (cf__tree_exists(&n->t, "/sys/module/nv_peer_mem")) n->gdr_via = "nv_peer_mem";
    else if (cf__tree_exists(&n->t, "/sys/module/efa_nv_peermem")) n->gdr_via = "efa_nv_peermem";
    else if (n->open_module == 1 && major(n->driver) >= 515 && kernel_at_least(n->kernel, 5, 12) == 1)
        n->gdr_via = "dma-buf";
    /* The peer-memory module (or DMA-BUF) registers GPU memory with a verbs
     * device: with no uverbs node to open, as in a container not given
     * /dev/infiniband, nothing here can use it (GDR_UNUSABLE). */
    if (n->gdr_via) n->gdr = n->rdma_devs > 0 && n->uverbs == 0 ? "unusable" : "on";
    else if (cf__tree_exists(&n->t, "/sys/module") && n->open_module >= 0 && n->kernel[0]) n->gdr = "off";
}

static void limits_env(pnode *n, const char *const *env)
{
    char v[4096];
    n->memlock = NAN;
    if (cf__tree_read(&n->t, "/proc/self/limits", v, sizeof v, 0) == 1) {
        const char *l = strstr(v, "Max locked memory");
        if (l) {
            l += strlen("Max locked memory");
            while (*l == ' ') l++;
            if (strncmp(l, "unlimited", 9) == 0) n->memlock = INFINITY;
            else n->memlock = strtod(l, NULL);
        }
    }
    for (long i = 0; env && env[i] && (long)json_object_size(n->env) < CF_MAX_PROBE_ENV; i++) {
        const char *eq = strchr(env[i], '=');
        char name[128];
        json_t *val;
        if (!eq || (strncmp(env[i], "NCCL_", 5) != 0 && strncmp(env[i], "FI_", 3) != 0)) continue;
        cf__text_copy(name, sizeof name, env[i], (size_t)(eq - env[i]));
        if ((size_t)(eq - env[i]) >= sizeof name ||
            cf__bad_utf8((const unsigned char *)name, strlen(name), 0) >= 0) {
            cf__tree_skip(&n->t, name, "environment name is not UTF-8 text or longer than %zu bytes", sizeof name - 1);
            continue;
        }
        if (!(val = json_string(eq + 1))) {
            cf__tree_skip(&n->t, name, "environment value is not UTF-8");
            continue;
        }
        if (json_object_set_new(n->env, name, val) != 0) n->t.oom = 1;
    }
}

/* The PORT_DOWN and NIC_RATE_MISMATCH findings. The rate peers of a port
 * are the active ports of its link layer near a GPU (PIX or PXB: the GPU
 * rails, not a front-end or storage NIC), or all active ports of its link
 * layer when no GPU-NIC path is known. */
static void port_findings(pnode *n)
{
    int near_known = 0;
    for (long j = 0; j < n->np; j++) near_known |= n->ports[j].path <= CF__PATH_PXB;
    for (long j = 0; j < n->np; j++) {
        pport *q = &n->ports[j];
        double best = 0;
        long peers = 0;
        if (q->state[0] && strcmp(q->state, "active") != 0) {
            cf__probe_add_finding(n->findings, CF__PCODE_PORT_DOWN,
                                  "%s port %ld is %s (physical state %s; /sys/class/infiniband/%s/ports/%ld/state)",
                                  q->name, q->port, q->state, q->phys_state[0] ? q->phys_state : "unknown", q->name,
                                  q->port);
            continue;
        }
        if (isnan(q->rate_gbps) || (near_known && q->path > CF__PATH_PXB)) continue;
        for (long k = 0; k < n->np; k++) {
            pport *o = &n->ports[k];
            if (strcmp(o->state, "active") != 0 || isnan(o->rate_gbps) || strcmp(o->link_layer, q->link_layer) != 0 ||
                (near_known && o->path > CF__PATH_PXB))
                continue;
            peers++;
            if (o->rate_gbps > best) best = o->rate_gbps;
        }
        if (peers >= 2 && q->rate_gbps < best)
            cf__probe_add_finding(n->findings, CF__PCODE_NIC_RATE_MISMATCH,
                                  "%s port %ld runs at %g Gbit/s, its %ld %s peers at up to %g Gbit/s "
                                  "(/sys/class/infiniband/%s/ports/%ld/rate)",
                                  q->name, q->port, q->rate_gbps, peers - 1, q->link_layer, best, q->name, q->port);
    }
}

/* The facts a check needs that the node did not show (issue 23: the odd
 * tree said "ok" with port states, a rate and a GPU model unknown): a GPU's
 * model (the offering check), a port's state (PORT_DOWN), an active port's
 * rate (NIC_RATE_MISMATCH), GPUDirect RDMA, the locked-memory limit; one
 * FACTS_UNKNOWN finding names them, and the verdict is then at best
 * unjudged. ACS is not among them: only root can read it (the "acs" field
 * says unknown), and a probe run as a user must still give a verdict. */
static void unknown_facts(pnode *n)
{
    char what[768] = "";
    size_t l = 0;
    long k = 0;
#define UNKNOWN_FACT(...)                                                              \
    do {                                                                                 \
        int w_ = snprintf(what + l, sizeof what - l, "%s", k++ ? "; " : "");           \
        if (w_ > 0 && (size_t)w_ < sizeof what - l) l += (size_t)w_;                   \
        w_ = snprintf(what + l, sizeof what - l, __VA_ARGS__);                          \
        if (w_ > 0) l = (size_t)w_ < sizeof what - l ? l + (size_t)w_ : sizeof what - 1; \
    } while (0)
    for (long i = 0; i < n->ng; i++)
        if (!n->gpus[i].model[0]) UNKNOWN_FACT("GPU %s model", n->gpus[i].pci);
    for (long j = 0; j < n->np; j++) {
        const pport *q = &n->ports[j];
        if (!q->state[0] || strcmp(q->state, "unknown") == 0) UNKNOWN_FACT("%s port %ld state", q->name, q->port);
        else if (strcmp(q->state, "active") == 0 && isnan(q->rate_gbps))
            UNKNOWN_FACT("%s port %ld rate", q->name, q->port);
    }
    if (n->ng > 0 && n->rdma_devs > 0 && strcmp(n->gdr, "unknown") == 0) UNKNOWN_FACT("GPUDirect RDMA");
    if (n->rdma_devs > 0 && isnan(n->memlock)) UNKNOWN_FACT("the locked-memory limit");
#undef UNKNOWN_FACT
    if (k)
        cf__probe_add_finding(n->findings, CF__PCODE_FACTS_UNKNOWN,
                              "%ld fact(s) a check needs are unknown (see skipped): %s", k, what);
}

static void findings(pnode *n)
{
    char far[512] = "";
    long nfar = 0;
    if (n->ng == 0)
        cf__probe_add_finding(n->findings, CF__PCODE_NO_GPU_SEEN,
                              "no GPU in /proc/driver/nvidia/gpus or /sys/bus/pci/devices");
    if (n->rdma_devs == 0)
        cf__probe_add_finding(n->findings, CF__PCODE_NO_RDMA_SEEN, "no RDMA device in /sys/class/infiniband");
    port_findings(n);
    for (long i = 0; i < n->ng && n->np > 0; i++) {
        pgpu *g = &n->gpus[i];
        if (g->best >= CF__PATH_PHB && g->best != CF__PATH_UNKNOWN) {
            size_t l = strlen(far);
            snprintf(far + l, sizeof far - l, "%s%s (%s)", l ? ", " : "", g->pci, cf__pci_path_name(g->best));
            nfar++;
        }
    }
    if (nfar)
        cf__probe_add_finding(n->findings, CF__PCODE_NIC_FAR_FROM_GPU,
                              "%ld GPU(s) have no RDMA NIC under their PCIe switch; nearest path: %s", nfar, far);
    if (strcmp(n->gdr, "off") == 0)
        cf__probe_add_finding(n->findings, CF__PCODE_GDR_DISABLED,
                              "GPUDirect RDMA is off: no nvidia_peermem or nv_peer_mem in /sys/module, and no "
                              "DMA-BUF (kernel %s, %s NVIDIA kernel module %s)",
                              n->kernel[0] ? n->kernel : "unknown",
                              n->open_module == 1 ? "open" : n->open_module == 0 ? "proprietary" : "unknown",
                              n->driver[0] ? n->driver : "unknown");
    if (strcmp(n->gdr, "unusable") == 0)
        cf__probe_add_finding(n->findings, CF__PCODE_GDR_UNUSABLE,
                              "GPUDirect RDMA is not usable here: %s is loaded, but none of the %ld RDMA device(s) "
                              "can be opened (no uverbs device in /dev/infiniband%s)",
                              n->gdr_via, n->rdma_devs, n->dev_ib ? "" : ", which is absent");
    if (n->rdma_devs > 0 && n->uverbs < n->rdma_devs)
        cf__probe_add_finding(n->findings, CF__PCODE_RDMA_DEVICE_MISSING,
                              "%ld RDMA device(s) in /sys/class/infiniband but %ld uverbs device(s) in "
                              "/dev/infiniband%s: verbs cannot open them here",
                              n->rdma_devs, n->uverbs, n->dev_ib ? "" : " (absent)");
    if (strcmp(n->acs, "enabled") == 0)
        cf__probe_add_finding(n->findings, CF__PCODE_ACS_ENABLED,
                              "ACS redirects peer-to-peer requests on the bridge(s) %s between GPUs and NICs",
                              n->acs_at);
    if (n->rdma_devs > 0 && isfinite(n->memlock))
        cf__probe_add_finding(n->findings, CF__PCODE_MEMLOCK_LIMITED,
                              "locked memory is limited to %.0f bytes (/proc/self/limits); RDMA registers "
                              "buffers with it",
                              n->memlock);
    unknown_facts(n);
}

static json_t *str_or_null(const char *s) { return s && s[0] ? json_string(s) : json_null(); }

static json_t *gpus_json(pnode *n)
{
    json_t *a = json_array();
    for (long i = 0; i < n->ng; i++) {
        pgpu *g = &n->gpus[i];
        json_t *o = json_object();
        int bad = cf__json_set(o, "model", str_or_null(g->model)) | cf__json_set(o, "vendor", json_string(g->vendor)) |
                  cf__json_set(o, "pci", json_string(g->pci)) |
                  cf__json_set(o, "numa_node", g->numa >= 0 ? json_integer(g->numa) : json_null()) |
                  cf__json_set(o, "pci_device", str_or_null(g->device_id)) |
                  cf__json_set(o, "nearest_nic_path", json_string(cf__pci_path_name(g->best)));
        if (bad || json_array_append_new(a, o) != 0) n->t.oom = 1;
    }
    return a;
}

static json_t *nics_json(pnode *n)
{
    json_t *a = json_array();
    for (long j = 0; j < n->np; j++) {
        pport *q = &n->ports[j];
        json_t *o = json_object();
        int bad = cf__json_set(o, "name", json_string(q->name)) | cf__json_set(o, "port", json_integer(q->port)) |
                  cf__json_set(o, "link_layer", str_or_null(q->link_layer)) |
                  cf__json_set(o, "state", str_or_null(q->state)) |
                  cf__json_set(o, "phys_state", str_or_null(q->phys_state)) |
                  cf__json_set(o, "rate_gbps", cf__json_num(q->rate_gbps)) |
                  cf__json_set(o, "numa_node", q->numa >= 0 ? json_integer(q->numa) : json_null()) |
                  cf__json_set(o, "pci", str_or_null(q->pci)) | cf__json_set(o, "fw_ver", str_or_null(q->fw)) |
                  cf__json_set(o, "netdev", str_or_null(q->netdev)) |
                  cf__json_set(o, "nearest_gpu", q->nearest >= 0 ? json_string(n->gpus[q->nearest].pci) : json_null()) |
                  cf__json_set(o, "path", json_string(cf__pci_path_name(q->path)));
        if (bad || json_array_append_new(a, o) != 0) n->t.oom = 1;
    }
    return a;
}

static json_t *report(pnode *n, const char *sysroot)
{
    json_t *o = json_object();
    int bad = 0;
    bad |= cf__json_set(o, "kind", json_string("node"));
    bad |= cf__json_set(o, "hostname", str_or_null(n->hostname));
    bad |= cf__json_set(o, "sysroot", json_string(sysroot));
    bad |= cf__json_set(o, "kernel", str_or_null(n->kernel));
    bad |= cf__json_set(o, "driver", str_or_null(n->driver));
    bad |= cf__json_set(o, "gpus", gpus_json(n));
    bad |= cf__json_set(o, "nics", nics_json(n));
    bad |= cf__json_set(o, "net", json_incref(n->net));
    bad |= cf__json_set(o, "topology", json_incref(n->topology));
    bad |= cf__json_set(o, "acs", json_string(n->acs));
    bad |= cf__json_set(o, "gdr", json_string(n->gdr));
    bad |= cf__json_set(o, "gdr_via", str_or_null(n->gdr_via));
    bad |= cf__json_set(o, "rdma_devices", json_integer(n->rdma_devs));
    bad |= cf__json_set(o, "uverbs", json_integer(n->uverbs));
    bad |= cf__json_set(o, "memlock_bytes", isnan(n->memlock) ? json_null()
                                            : isinf(n->memlock) ? json_string("unlimited")
                                                                 : json_integer((json_int_t)n->memlock));
    bad |= cf__json_set(o, "env", json_incref(n->env));
    bad |= cf__json_set(o, "skipped", json_incref(n->t.skipped));
    bad |= cf__json_set(o, "findings", json_incref(n->findings));
    bad |= cf__json_set(o, "status", json_string(cf__probe_status_of(n->findings)));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static void pnode_free(pnode *n)
{
    if (!n) return;
    json_decref(n->t.skipped);
    json_decref(n->net);
    json_decref(n->env);
    json_decref(n->findings);
    json_decref(n->topology);
    cf__free(n);
}

/* The sysroot's real path into n->t.root ("" for "/"); CF_OK, or
 * CF_EINVAL (err names it) or CF_ENOMEM. */
static cf_status set_root(pnode *n, const char *root, cf_error *err)
{
    char *real;
    size_t rl;
    if (n->t.fs->kind(n->t.fs->ctx, root) != 'd' || !(real = n->t.fs->realpath(n->t.fs->ctx, root))) {
        if (errno == ENOMEM && n->t.fs->kind(n->t.fs->ctx, root) == 'd') return CF_ENOMEM;
        cf_error_set_param(err, "sysroot", "sysroot %s is not a readable directory", root);
        return CF_EINVAL;
    }
    rl = strlen(real);
    if (rl > (size_t)CF_MAX_PROBE_SYSROOT_BYTES) {
        cf_error_set_param(err, "sysroot",
                           "sysroot's real path is %zu bytes, over %ld (CF_MAX_PROBE_SYSROOT_BYTES: the sysroot "
                           "and the host paths under it must fit in a path); use a shorter path or a link to it",
                           rl, CF_MAX_PROBE_SYSROOT_BYTES);
        cf__free(real);
        return CF_EINVAL;
    }
    if (strcmp(real, "/") != 0) memcpy(n->t.root, real, rl + 1);
    cf__free(real);
    return CF_OK;
}

cf_status cf__probe_node_fs(const cf_probe_opts *opts, const cf__tree_fs *fs, json_t **out, cf_error *err)
{
    cf_probe_opts def = {0};
    const char *root;
    char *shown;
    cf_status st;
    pnode *n;
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!opts) opts = &def;
    root = opts->sysroot && opts->sysroot[0] ? opts->sysroot : "/";
    n = cf__calloc(1, sizeof *n);
    if (!n) return CF_ENOMEM;
    n->t.fs = fs ? fs : cf__tree_disk_fs();
    if ((st = set_root(n, root, err)) != CF_OK) {
        cf__free(n);
        return st;
    }
    n->t.skipped = json_array();
    n->net = json_array();
    n->env = json_object();
    n->findings = json_array();
    n->topology = json_array();
    if (!n->t.skipped || !n->net || !n->env || !n->findings || !n->topology) {
        pnode_free(n);
        return CF_ENOMEM;
    }
    if (opts->hostname) {
        cf__text_copy(n->hostname, sizeof n->hostname, opts->hostname, strlen(opts->hostname));
        cf__text_repair(n->hostname);
    } else {
        cf__tree_read(&n->t, "/proc/sys/kernel/hostname", n->hostname, sizeof n->hostname, 0);
    }
    gpus_from_proc(n);
    gpus_from_pci(n);
    qsort(n->gpus, (size_t)n->ng, sizeof n->gpus[0], by_pci);
    read_rdma(n);
    read_net(n);
    topology(n);
    acs(n);
    dev_infiniband(n);
    driver_and_gdr(n);
    limits_env(n, opts->env);
    findings(n);
    /* The sysroot as given, its bytes that are not UTF-8 text shown as '?'. */
    if ((shown = cf__strdup(root)) != NULL) cf__text_repair(shown);
    if (!n->t.oom && shown) *out = report(n, shown);
    cf__free(shown);
    pnode_free(n);
    return *out ? CF_OK : CF_ENOMEM;
}

cf_status cf_probe_node(const cf_probe_opts *opts, json_t **out, cf_error *err)
{
    return cf__probe_node_fs(opts, NULL, out, err);
}
