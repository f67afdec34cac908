/* ncclog.c — reads NCCL_DEBUG=INFO/TRACE lines ("host:pid:tid [dev] NCCL
 * INFO msg", "host:pid:tid [dev] file.cc:123 NCCL WARN msg") into one small
 * struct per line: the facts DESIGN §5 decides from (which net NCCL loaded,
 * which devices, channel lines and their /GDRDMA, GPU Direct RDMA
 * capability and per-GPU decisions, environment overrides, communicator
 * sizes, completion errors, fatal warnings, and the algorithm and protocol
 * NCCL's tuner chose for a call: "AllReduce: 8589934592 Bytes -> Algo RING
 * proto SIMPLE ...", older "... Bytes -> Algo 1 proto 2 time ...").
 *
 * Shapes follow NCCL's own format strings (src/transport/net.cc,
 * src/transport/net_ib.cc, src/graph/paths.cc, src/init.cc, src/debug.cc)
 * and those of aws-ofi-nccl ("NET/OFI Selected provider is efa") and GCP's
 * TCPX/TCPXO plugins, across releases 2.4 to 2.2x: old "Ring 00 : 6 -> 2
 * [receive] via NET/IB/0", new "Channel 00/0 : 1[0] -> 0[0] [receive] via
 * NET/IB/1/GDRDMA/Shared", proxy ranks "NET/IB/0(1)/GDRDMA", net names with
 * blanks ("NET/AWS Libfabric/0"). Recognition is by prefix on the message
 * (a switch on its first letter), never a regex: most lines of a big log
 * are rejected after a few byte compares. */
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

/* Copies s[0..n) without leading blanks and trailing blanks or dots. */
static void copy_trim(char *dst, size_t cap, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) { s++; n--; }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '.')) n--;
    cf__copy_n(dst, cap, s, n);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static inline long read_int(const char **pp, const char *end)
{
    const char *p = *pp, *start;
    long v = 0;
    int neg = 0;
    if (p < end && *p == '-') { neg = 1; p++; }
    start = p;
    /* the first 9 digits count (values stay below 10^9), the rest are skipped */
    while (p < end && (unsigned)(*p - '0') < 10u) {
        if (p - start < 9) v = v * 10 + (*p - '0');
        p++;
    }
    if (p == start) return -1;
    *pp = p;
    return neg ? -v : v;
}

/* The net names NCCL and its plugins print ("Using network X", "via NET/X/0",
 * "NET/X : ...", "Loaded net plugin X (v8)"), each with the family whose
 * transport it implies (verdict.c turns a family into a network):
 *   IB, IBext, IBext_v8   NCCL's verbs transport, internal or HPC-X's copy
 *                         (IB or RoCE: decided by the ports and GIDs)
 *   NCCL RDMA Plugin vN   HPC-X's nccl-rdma-sharp-plugins (Mellanox/nccl-
 *                         rdma-sharp-plugins): verbs, ports "/IB/SHARP"
 *   UCX, UCX-RMA          the same plugin's UCX transports: verbs
 *   Socket                NCCL's TCP sockets
 *   FastSocket            Google's nccl-fastsocket: TCP, the transport
 *                         intended on those VMs (not a fallback)
 *   GPUDirectTCPX*        GCP's GPUDirect-TCPX plugin (A3)
 *   FasTrak*              GCP's GPUDirect-TCPXO plugin (A3 Mega)
 *   AWS Libfabric, OFI,   aws-ofi-nccl (EFA when its provider is efa)
 *   Libfabric             */
static const struct net_name {
    const char *name;   /* the name, or its start */
    int family;         /* CF__NCCLNET_* */
} net_names[] = {
    {"IB", CF__NCCLNET_IB},
    {"NCCL RDMA Plugin", CF__NCCLNET_IB},
    {"UCX", CF__NCCLNET_IB},
    {"Socket", CF__NCCLNET_SOCKET},
    {"FastSocket", CF__NCCLNET_FASTSOCKET},
    {"GPUDirectTCPX", CF__NCCLNET_TCPX},
    {"FasTrak", CF__NCCLNET_TCPXO},
    {"AWS Libfabric", CF__NCCLNET_OFI},
    {"Libfabric", CF__NCCLNET_OFI},
    {"OFI", CF__NCCLNET_OFI},
};

int cf__net_family(const char *name, size_t n)
{
    /* NCCL's own IB first: every channel line of an IB job asks */
    if (n >= 2 && name[0] == 'I' && name[1] == 'B') return CF__NCCLNET_IB;
    for (size_t i = 0; i < sizeof net_names / sizeof net_names[0]; i++) {
        size_t k;
        if (n == 0 || name[0] != net_names[i].name[0]) continue;
        k = strlen(net_names[i].name);
        if (n < k || memcmp(name, net_names[i].name, k) != 0) continue;
        /* "Socket" whole (not "SocketFoo"); the others are name starts */
        if (net_names[i].family == CF__NCCLNET_SOCKET && n != k) continue;
        return net_names[i].family;
    }
    if (cf__find(name, n, "Libfabric") || cf__find(name, n, "OFI") || cf__find(name, n, "AWS"))
        return CF__NCCLNET_OFI;
    return n ? CF__NCCLNET_OTHER : CF__NCCLNET_UNKNOWN;
}

int cf__gdr_level(const char *v)
{
    /* NCCL's path types as NCCL_NET_GDR_LEVEL reads them (src/graph/paths.cc:
     * LOC, PIX, PXB, PXN, PHB, SYS; the old numeric form 0-4 is LOC..SYS). */
    static const struct { const char *name; int level; } names[] = {
        {"LOC", 0}, {"NVL", 1}, {"PIX", 1}, {"PXB", 2}, {"PXN", 3}, {"PHB", 4},
        {"NODE", 4}, {"SYS", 5},
    };
    if (!v || !*v) return -1;
    if (is_digit(v[0]) && v[1] == '\0') {
        static const int num[] = {0, 1, 2, 4, 5};
        int d = v[0] - '0';
        return d <= 4 ? num[d] : 5;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (cf__strcasecmp(v, names[i].name) == 0) return names[i].level;
    return -1;
}

/* "[0]mlx5_0:1/IB [1]mlx5_2:1/RoCE [RO]; OOB ib0:..." */
static void parse_ib_list(const char *p, const char *end, cf__nccl_line *out)
{
    const char *t;
    size_t tn;
    out->n_ibdevs = 0;
    while (cf__token(&p, end, &t, &tn)) {
        const char *q = t, *te = t + tn, *colon, *slash;
        cf__ibdev *d;
        if (tn >= 3 && memcmp(t, "OOB", 3) == 0) break;
        if (*t == ';') break;
        if (*q != '[' || tn < 4 || !is_digit(q[1])) continue;
        q++;
        {
            long idx = read_int(&q, te);
            if (idx < 0 || q >= te || *q != ']') continue;
            q++;
            colon = memchr(q, ':', (size_t)(te - q));
            if (!colon || out->n_ibdevs >= CF__MAX_IBDEVS) continue;
            d = &out->ibdevs[out->n_ibdevs];
            d->idx = (int)idx;
            copy_trim(d->name, sizeof d->name, q, (size_t)(colon - q));
            q = colon + 1;
            d->port = (int)read_int(&q, te);
            d->ll = CF__LL_UNKNOWN;
            slash = memchr(q, '/', (size_t)(te - q));
            if (slash) {
                const char *l = slash + 1;
                size_t ln = (size_t)(te - l);
                if (ln && l[ln - 1] == ';') ln--;
                if (CF__LIT(l, ln, "RoCE") || CF__LIT(l, ln, "ETH")) d->ll = CF__LL_ETH;
                else if (CF__LIT(l, ln, "IB")) d->ll = CF__LL_IB;
            }
            out->n_ibdevs++;
        }
        if (te > t && te[-1] == ';') break;
    }
}

/* " via " of a channel line, the last one (it stands near the end, after
 * "[receive]", whose 'v' a forward search would try first); what follows
 * says the way: "NET/...", "P2P/...", "SHM/...". NULL when there is none. */
static const char *via_net(const char *m, const char *end)
{
    /* from the end, blank to blank: the net path has none (or one, "AWS
     * Libfabric"), so " via " is met after one or two steps; i indexes the
     * blank after "via" */
    size_t n = (size_t)(end - m), i = n;
    while (i > 4) {
        i--;
        if (m[i] != ' ') continue;
        if (i >= 4 && m[i - 1] == 'a' && m[i - 2] == 'i' && m[i - 3] == 'v' && m[i - 4] == ' ')
            return m + i - 4;
    }
    return NULL;
}

/* "... [send] via NET/IB/1(0)/GDRDMA/Shared" */
static void parse_channel(const char *msg, const char *end, const char *via, cf__nccl_line *out)
{
    const char *p = via + 9, *slash;   /* after " via NET/" */
    out->kind = CF__NL_CHANNEL;
    out->dir = CF__CH_UNKNOWN;
    /* the direction stands right before " via" in every NCCL release */
    if (via - msg >= 6 && memcmp(via - 6, "[send]", 6) == 0) out->dir = CF__CH_SEND;
    else if (via - msg >= 9 && memcmp(via - 9, "[receive]", 9) == 0) out->dir = CF__CH_RECV;
    else if (cf__find(msg, (size_t)(via - msg), "[send]")) out->dir = CF__CH_SEND;
    else if (cf__find(msg, (size_t)(via - msg), "[receive]")) out->dir = CF__CH_RECV;
    slash = memchr(p, '/', (size_t)(end - p));
    if (!slash) slash = end;
    copy_trim(out->net, sizeof out->net, p, (size_t)(slash - p));
    out->netdev = -1;
    out->gdrdma = 0;
    if (slash < end) {
        const char *q = slash + 1;
        long d = read_int(&q, end);
        out->netdev = (int)d;
        out->gdrdma = cf__find(q, (size_t)(end - q), "/GDRDMA") != NULL;
    }
}

static int warn_is_fatal(const char *m, size_t n)
{
    static const char *const benign[] = {
        "libibverbs", "Failed to open", "Could not", "Failed to find", "Ignoring",
        "deprecated", "NUMA", "iommu", "not supported, falling back",
    };
    static const char *const fatal[] = {
        "failed", "failure", "Failure", "Failed", "error", "Error", "abort", "Abort",
        "closed", "unhandled", "Unhandled", "died", "exited",
    };
    for (size_t i = 0; i < sizeof benign / sizeof benign[0]; i++)
        if (cf__find(m, n, benign[i])) return 0;
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        if (cf__find(m, n, fatal[i])) return 1;
    return 0;
}

static int has_timeout(const char *m, size_t n)
{
    return cf__find(m, n, "imeout") || cf__find(m, n, "imed out") || cf__find(m, n, "TIMEOUT");
}

/* "file.cc:1298 -> 6" or "proxy.cc:874 -> 6 [Progress Thread]" */
static int return_trace(const char *m, const char *end, int *code)
{
    const char *a = cf__find(m, (size_t)(end - m), " -> ");
    const char *colon;
    long v;
    const char *q;
    if (!a) return 0;
    colon = memchr(m, ':', (size_t)(a - m));
    if (!colon || !memchr(m, '.', (size_t)(colon - m))) return 0;
    for (const char *c = colon + 1; c < a; c++)
        if (!is_digit(*c)) return 0;
    q = a + 4;
    v = read_int(&q, end);
    if (v <= 0) return 0;
    q = cf__skip_ws(q, end);
    if (q < end && *q != '[') return 0;
    *code = (int)v;
    return 1;
}

/* "... commId 0x5ae77eb5ea4ec1ee - Init COMPLETE": the communicator's id
 * (the hash of its unique id, printed since NCCL 2.18); 0 when absent. */
static uint64_t read_comm_id(const char *m, const char *end)
{
    const char *c = cf__find(m, (size_t)(end - m), " commId 0x");
    uint64_t v = 0;
    int digits = 0;
    if (!c) return 0;
    for (c += 10; c < end && digits < 16; c++, digits++) {
        int d;
        if (*c >= '0' && *c <= '9') d = *c - '0';
        else if (*c >= 'a' && *c <= 'f') d = *c - 'a' + 10;
        else if (*c >= 'A' && *c <= 'F') d = *c - 'A' + 10;
        else break;
        v = (v << 4) | (uint64_t)d;
    }
    return v;
}

static void parse_gdr(const char *m, const char *end, cf__nccl_line *out)
{
    const char *g = cf__find(m, (size_t)(end - m), "GPU Direct RDMA ");
    const char *p;
    if (!g) return;
    p = g + 16;
    if (CF__LIT(p, (size_t)(end - p), "Enabled")) out->enabled = 1;
    else if (CF__LIT(p, (size_t)(end - p), "Disabled")) out->enabled = 0;
    else return;
    if (cf__find(p, (size_t)(end - p), "for HCA")) {
        out->kind = CF__NL_GDR_HCA;
    } else if (cf__find(p, (size_t)(end - p), "for GPU")) {
        const char *d = cf__find(p, (size_t)(end - p), "(distance ");
        out->kind = CF__NL_GDR_GPU;
        out->distance = out->distance_max = -1;
        if (d) {
            const char *q = d + 10;
            out->distance = (int)read_int(&q, end);
            while (q < end && (*q == ' ' || *q == '>' || *q == '<' || *q == '=')) q++;
            out->distance_max = (int)read_int(&q, end);
        }
    }
}

/* NCCL's QP lines (net_ib.cc, 2.19+): "... GID 3 (0/8C9000AFFFF0000)": a
 * GID index above 0 (InfiniBand uses index 0) or an interface id ending
 * in FFFF0000 (an IPv4-mapped GID, printed as a little-endian 64-bit
 * word) shows RoCE. */
static int roce_gid_shown(const char *m, const char *end)
{
    const char *g = cf__find(m, (size_t)(end - m), " GID ");
    const char *q, *close;
    long idx;
    if (!g) return 0;
    q = g + 5;
    idx = read_int(&q, end);
    if (idx > 0) return 1;
    if (q >= end || *q != ' ' || q + 1 >= end || q[1] != '(') return 0;
    close = memchr(q, ')', (size_t)(end - q));
    return close && close - q >= 10 && memcmp(close - 8, "FFFF0000", 8) == 0;
}

/* 1 when an error line comes from an optional net plugin (aws-ofi-nccl's
 * NET/OFI, NCCL's NET/Plugin loader, a plugin's source file): when it
 * fails NCCL goes on with its internal IB/RoCE/socket transports. */
static int from_net_plugin(const char *m, size_t n)
{
    return cf__find(m, n, "NET/OFI") || cf__find(m, n, "NET/Plugin") || cf__find(m, n, "plugin") ||
           cf__find(m, n, "Plugin") || cf__find(m, n, "net_ofi") || cf__find(m, n, "nccl_net");
}

/* ... and it is about loading or initialising the plugin (or a net's
 * device: "NET/IB : Unable to open device", "Call to ibv_open_device
 * failed"), not a transfer. */
static int plugin_load_failed(const char *m, size_t n)
{
    if (cf__find(m, n, "Unable to open device") || cf__find(m, n, "ibv_open_device") ||
        cf__find(m, n, "ibv_get_device_list"))
        return 1;
    return from_net_plugin(m, n) &&
           (cf__find(m, n, "nitializ") || cf__find(m, n, "load") || cf__find(m, n, "Load") ||
            cf__find(m, n, "find") || cf__find(m, n, "open") || cf__find(m, n, "dlerror"));
}

/* A return trace from the file that loads and initialises the nets
 * ("net.cc:79 -> 3", "plugin/net.cc:..."): an optional net that did not
 * come up (IBext disabled, a missing plugin), not the job's end. */
static int net_init_trace(const char *m, size_t n)
{
    return CF__LIT(m, n, "net.cc:") || cf__find(m, n, "/net.cc:") || from_net_plugin(m, n);
}

/* Messages that start with 'N': "NCCL version", "NET/IB ...", "NET/Socket",
 * "NET/OFI", "NCCL_... set by environment". 1 when the line is read, 0
 * when parse_tail is to read it (a completion error, or no match). */
static int parse_n(const char *m, const char *end, cf__nccl_line *out)
{
    size_t n = (size_t)(end - m);
    if (CF__LIT(m, n, "NCCL version ")) {
        const char *v = m + 13, *e = v;
        while (e < end && *e != '+' && *e != ' ') e++;
        out->kind = CF__NL_VERSION;
        copy_trim(out->text, sizeof out->text, v, (size_t)(e - v));
        return 1;
    }
    if (CF__LIT(m, n, "NET/IB")) {
        const char *p = m + 6;
        while (p < end && *p != ' ' && *p != ':') p++;
        while (p < end && (*p == ' ' || *p == ':')) p++;
        if (CF__LIT(p, (size_t)(end - p), "Using ")) {
            out->kind = CF__NL_IB_USING;
            parse_ib_list(p + 6, end, out);
            return 1;
        }
        if (CF__LIT(p, (size_t)(end - p), "GPU Direct RDMA")) {
            parse_gdr(p, end, out);
            return 1;
        }
        if (CF__LIT(p, (size_t)(end - p), "Got completion")) {
            out->kind = CF__NL_COMPLETION_ERR;
            return 0;   /* status read by parse_tail */
        }
        if (CF__LIT(p, (size_t)(end - p), "No device found")) {
            out->kind = CF__NL_IB_NODEV;
            return 1;
        }
        if (out->level == 'W') return 0;   /* a WARN: parse_tail judges it */
        out->roce_gid = cf__find(m, n, "::ffff:") != NULL || roce_gid_shown(m, end);
        return 1;
    }
    if (CF__LIT(m, n, "NET/Socket")) {
        if (cf__find(m, n, "Using")) out->kind = CF__NL_SOCKET_USING;
        return 1;
    }
    if (CF__LIT(m, n, "NET/OFI")) {
        const char *pv;
        if (out->level == 'W') return 0;   /* a WARN: parse_tail judges it */
        pv = cf__find(m, n, "rovider is ");
        if (pv && (pv[-1] == 'p' || pv[-1] == 'P') && cf__find(m, (size_t)(pv - m), "elected")) {
            const char *v = pv + 11, *e = v;
            while (e < end && *e != ' ' && *e != ',' && *e != ')') e++;
            out->kind = CF__NL_OFI_PROVIDER;
            copy_trim(out->text, sizeof out->text, v, (size_t)(e - v));
        } else {
            out->kind = CF__NL_OFI_PLUGIN;
        }
        return 1;
    }
    if (CF__LIT(m, n, "NET/Plugin") && out->level == 'I') {
        /* "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)" */
        const char *ld = cf__find(m, n, "Loaded net plugin ");
        if (ld) {
            const char *v = ld + 18, *e = end;
            const char *par = memchr(v, '(', (size_t)(end - v));
            if (par) e = par;
            out->kind = CF__NL_NET_PLUGIN;
            out->enabled = 0;
            copy_trim(out->text, sizeof out->text, v, (size_t)(e - v));
            return 1;
        }
        return 0;
    }
    if (CF__LIT(m, n, "NET/") && out->level == 'I') {
        /* "NET/FastSocket : Connected after 18 retries.": a plugin carrying data */
        const char *v = m + 4, *e = v;
        while (e < end && *e != ' ' && *e != ':' && *e != '/') e++;
        if (e > v) {
            int fam = cf__net_family(v, (size_t)(e - v));
            if (fam == CF__NCCLNET_FASTSOCKET || fam == CF__NCCLNET_TCPX || fam == CF__NCCLNET_TCPXO) {
                out->kind = CF__NL_NET_PLUGIN;
                out->enabled = 1;
                copy_trim(out->text, sizeof out->text, v, (size_t)(e - v));
                return 1;
            }
        }
    }
    if (CF__LIT(m, n, "NCCL_")) {
        const char *se = cf__find(m, n, " set by environment to ");
        size_t skip = 23;
        if (!se) {      /* newer NCCL: "NCCL_IB_HCA set to mlx5_0" */
            se = cf__find(m, n, " set to ");
            skip = 8;
        }
        if (se) {
            out->kind = CF__NL_ENV;
            copy_trim(out->env_name, sizeof out->env_name, m, (size_t)(se - m));
            copy_trim(out->text, sizeof out->text, se + skip, (size_t)(end - se - skip));
        }
        return 1;
    }
    return 0;
}

/* What no prefix decides: completion errors, error return traces, WARNs,
 * a missing libibverbs. */
static void parse_tail(const char *m, const char *end, cf__nccl_line *out)
{
    size_t n = (size_t)(end - m);
    /* completion errors are WARNs (or "NET/IB : Got completion", read by
     * parse_n); INFO lines skip the search */
    if (out->kind == CF__NL_COMPLETION_ERR || (out->level != 'I' && cf__find(m, n, "Got completion"))) {
        const char *st = cf__find(m, n, "status=");
        const char *q;
        out->kind = CF__NL_COMPLETION_ERR;
        out->status = -1;
        if (st) {
            q = st + 7;
            out->status = (int)read_int(&q, end);
        } else if ((st = cf__find(m, n, "with error ")) != NULL) {
            q = st + 11;
            out->status = (int)read_int(&q, end);
        }
        out->roce_gid = cf__find(m, n, "::ffff:") != NULL;
        if (out->status == 0) out->kind = CF__NL_OTHER;
        return;
    }
    {
        /* a return trace's first word is "file.cc:123" */
        const char *sp = memchr(m, ' ', n);
        int code;
        if (sp && memchr(m, ':', (size_t)(sp - m)) && return_trace(m, end, &code)) {
            out->kind = net_init_trace(m, n) ? CF__NL_PLUGIN_FAIL : CF__NL_ERROR;
            out->status = code;
            return;
        }
    }
    if (out->level == 'W') {
        if (cf__find(m, n, "libibverbs")) out->kind = CF__NL_IBVERBS_MISSING;
        else if (plugin_load_failed(m, n) && !has_timeout(m, n)) out->kind = CF__NL_PLUGIN_FAIL;
        else if (has_timeout(m, n)) out->kind = CF__NL_TIMEOUT;
        else if (warn_is_fatal(m, n)) out->kind = CF__NL_ERROR;
        else out->kind = CF__NL_WARN;
        return;
    }
    if ((m[0] == 'F' || m[0] == 'N' || m[0] == 'C' || m[0] == 'U') && cf__find(m, n, "libibverbs") &&
        cf__find(m, n, "ailed"))
        out->kind = CF__NL_IBVERBS_MISSING;
}

cf_algo cf__nccl_algo(const char *s, size_t n, int numeric)
{
    static const struct { const char *name; cf_algo a; } names[] = {
        {"ring", CF_ALGO_RING},           {"tree", CF_ALGO_TREE},
        {"nvls", CF_ALGO_NVLS},           {"nvlstree", CF_ALGO_NVLSTREE},
        {"nvls_tree", CF_ALGO_NVLSTREE},  {"collnet", CF_ALGO_COLLNET},
        {"collnetdirect", CF_ALGO_COLLNET}, {"collnet_direct", CF_ALGO_COLLNET},
        {"collnetchain", CF_ALGO_COLLNET},  {"collnet_chain", CF_ALGO_COLLNET},
        {"pat", CF_ALGO_RING},
    };
    /* NCCL_ALGO_TREE 0, RING 1, COLLNET_DIRECT 2, COLLNET_CHAIN 3, NVLS 4,
     * NVLS_TREE 5, PAT 6 (src/include/device.h; 2 was CollNet before 2.14) */
    static const cf_algo num[] = {CF_ALGO_TREE, CF_ALGO_RING, CF_ALGO_COLLNET, CF_ALGO_COLLNET,
                                  CF_ALGO_NVLS, CF_ALGO_NVLSTREE, CF_ALGO_RING};
    char buf[24];
    while (n > 0 && (*s == ' ' || *s == '\t')) { s++; n--; }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (numeric && n == 1 && is_digit(s[0])) return s[0] - '0' <= 6 ? num[s[0] - '0'] : CF_ALGO_AUTO;
    if (n == 0 || n >= sizeof buf) return CF_ALGO_AUTO;
    cf__copy_n(buf, sizeof buf, s, n);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (cf__strcasecmp(buf, names[i].name) == 0) return names[i].a;
    return CF_ALGO_AUTO;
}

const char *cf__nccl_proto(const char *s, size_t n)
{
    char buf[8];
    if (n == 1 && s[0] >= '0' && s[0] <= '2') return s[0] == '0' ? "LL" : s[0] == '1' ? "LL128" : "Simple";
    if (n == 0 || n >= sizeof buf) return NULL;
    cf__copy_n(buf, sizeof buf, s, n);
    if (cf__strcasecmp(buf, "LL") == 0) return "LL";
    if (cf__strcasecmp(buf, "LL128") == 0) return "LL128";
    if (cf__strcasecmp(buf, "Simple") == 0) return "Simple";
    return NULL;
}

/* NCCL's tuning line (enqueue.cc): "[Func: ]N Bytes -> Algo A proto P ...";
 * the function, when named, must be one of the collectives NCCL tunes.
 * 1 when the line is one. */
static int parse_tuning(const char *m, const char *end, cf__nccl_line *out)
{
    static const struct { const char *name; cf_collective c; } funcs[] = {
        {"AllReduce", CF_COLL_ALL_REDUCE}, {"AllGather", CF_COLL_ALL_GATHER},
        {"ReduceScatter", CF_COLL_REDUCE_SCATTER}, {"Broadcast", CF_COLL_BROADCAST},
        {"Reduce", CF_COLL_REDUCE},
    };
    const char *p = m, *t, *a, *pr;
    size_t tn, an, prn;
    double bytes;
    cf_collective coll = CF_COLL_UNKNOWN;
    if (!is_digit(*m)) {
        const char *colon = memchr(m, ':', (size_t)(end - m) < 16 ? (size_t)(end - m) : 16);
        size_t k;
        if (!colon) return 0;
        for (k = 0; k < sizeof funcs / sizeof funcs[0]; k++)
            if ((size_t)(colon - m) == strlen(funcs[k].name) && memcmp(m, funcs[k].name, (size_t)(colon - m)) == 0)
                break;
        if (k == sizeof funcs / sizeof funcs[0]) return 0;
        coll = funcs[k].c;
        p = colon + 1;
    }
    if (!cf__token(&p, end, &t, &tn) || !cf__num(t, tn, &bytes) || !(bytes >= 0)) return 0;
    if (!cf__token(&p, end, &t, &tn) || !CF__LIT(t, tn, "Bytes")) return 0;
    if (!cf__token(&p, end, &t, &tn) || !CF__LIT(t, tn, "->")) return 0;
    if (!cf__token(&p, end, &t, &tn) || !CF__LIT(t, tn, "Algo") || !cf__token(&p, end, &a, &an)) return 0;
    if (!cf__token(&p, end, &t, &tn) || !CF__LIT(t, tn, "proto") || !cf__token(&p, end, &pr, &prn)) return 0;
    out->kind = CF__NL_TUNING;
    out->bytes = bytes;
    out->coll = coll;
    out->algo = cf__nccl_algo(a, an, 1);
    out->proto = cf__nccl_proto(pr, prn);
    return 1;
}

static void parse_msg(const char *m, const char *end, cf__nccl_line *out)
{
    size_t n = (size_t)(end - m);
    const char *f;
    if (n == 0) return;
    if ((is_digit(m[0]) || m[0] == 'A' || m[0] == 'B' || (m[0] == 'R' && CF__LIT(m, n, "Reduce"))) &&
        parse_tuning(m, end, out))
        return;
    switch (m[0]) {
    case 'N':
        if (parse_n(m, end, out)) return;
        break;
    case 'U':
        if (CF__LIT(m, n, "Using network ")) {
            out->kind = CF__NL_USING_NETWORK;
            copy_trim(out->text, sizeof out->text, m + 14, n - 14);
            return;
        }
        break;
    case 'B':
        if (CF__LIT(m, n, "Bootstrap")) {
            out->kind = CF__NL_BOOTSTRAP;
            return;
        }
        break;
    case 'D':
        /* "DMA-BUF is available on GPU device 0" (NCCL >= 2.13, net_ib.cc) */
        if (CF__LIT(m, n, "DMA-BUF is available")) {
            out->kind = CF__NL_DMABUF;
            out->enabled = 1;
            return;
        }
        break;
    case 'G':
        if (CF__LIT(m, n, "GPU Direct RDMA")) {
            parse_gdr(m, end, out);
            return;
        }
        break;
    case 'C':
    case 'R':
        if (CF__LIT(m, n, "Channel ") || CF__LIT(m, n, "Ring ")) {
            f = via_net(m, end);
            if (f && end - f >= 9) {
                if (memcmp(f + 5, "NET/", 4) == 0) parse_channel(m, end, f, out);
                else if (memcmp(f + 5, "P2P/", 4) == 0 || memcmp(f + 5, "SHM/", 4) == 0) out->kind = CF__NL_CHANNEL_LOCAL;
            }
            return;
        }
        break;
    case 'c':
    case 'n':
        if (CF__LIT(m, n, "comm 0x") || CF__LIT(m, n, "ncclCommInit")) {
            /* "nranks 16" (to 2.18), "nRanks 2 nNodes 2 localRanks 1" (2.19 on) */
            const char *r = cf__find(m, n, " rank "), *nr = cf__find(m, n, " nranks ");
            int v219 = 0;
            if (!nr && (nr = cf__find(m, n, " nRanks ")) != NULL) v219 = 1;
            if (r && nr) {
                const char *q = r + 6;
                out->kind = CF__NL_COMM;
                out->rank = read_int(&q, end);
                q = nr + 8;
                out->nranks = read_int(&q, end);
                out->nnodes = -1;
                if (v219 && (q = cf__find(nr, (size_t)(end - nr), " nNodes ")) != NULL) {
                    q += 8;
                    out->nnodes = read_int(&q, end);
                }
                out->comm_id = read_comm_id(m, end);
                out->init_complete = cf__find(m, n, "Init COMPLETE") != NULL;
            }
            return;
        }
        break;
    default:
        break;
    }
    parse_tail(m, end, out);
}

void cf__nccl_parse(const char *s, size_t n, cf__nccl_line *out)
{
    const char *end = s + n, *lvl = NULL, *b, *dev_br = NULL;
    out->kind = CF__NL_NONE;
    out->host = NULL;
    out->host_n = 0;
    out->pid = out->dev = -1;
    out->level = 0;
    out->msg = NULL;
    out->msg_n = 0;
    out->n_ibdevs = 0;
    out->roce_gid = 0;
    out->init_complete = 0;
    out->status = 0;
    out->comm_id = 0;
    out->text[0] = '\0';
    if (n >= 13 && s[0] == 'N' && memcmp(s, "NCCL version ", 13) == 0) {
        out->level = 'I';
        out->msg = s;
        out->msg_n = n;
        out->kind = CF__NL_OTHER;
        parse_msg(s, end, out);
        return;
    }
    b = memchr(s, ']', n < 160 ? n : 160);
    if (b && (size_t)(end - b) >= 7 && memcmp(b, "] NCCL ", 7) == 0) {
        lvl = b + 7;
        /* "host:pid:tid [dev] NCCL": the '[' a few bytes before b */
        for (const char *q = b - 1; q >= s && q >= b - 8; q--)
            if (*q == '[') {
                dev_br = q;
                break;
            }
    } else if (n >= 10 && memcmp(s, "NCCL ", 5) == 0) {   /* "NCCL INFO ..." without a host */
        lvl = s + 5;
    } else {
        const char *f = cf__find(s, n, " NCCL ");
        if (!f) return;
        lvl = f + 6;
    }
    if (CF__LIT(lvl, (size_t)(end - lvl), "INFO ")) { out->level = 'I'; lvl += 5; }
    else if (CF__LIT(lvl, (size_t)(end - lvl), "WARN ")) { out->level = 'W'; lvl += 5; }
    else if (CF__LIT(lvl, (size_t)(end - lvl), "TRACE ")) { out->level = 'T'; lvl += 6; }
    else if (CF__LIT(lvl, (size_t)(end - lvl), "ABORT")) { out->level = 'W'; }
    else return;
    /* "host:pid:tid [dev]" */
    {
        const char *c = NULL, *br = dev_br;
        if (br) {
            c = memchr(s, ':', (size_t)(br - s));
        } else {
            /* one pass over the short prefix for the first ':' and '[' */
            for (const char *q = s; q < lvl && !br; q++) {
                if (*q == ':' && !c) c = q;
                else if (*q == '[') br = q;
            }
        }
        if (c && (!br || c < br) && c > s) {
            const char *q = c + 1;
            out->host = s;
            out->host_n = (size_t)(c - s);
            out->pid = read_int(&q, end);
        }
        if (br) {
            const char *q = br + 1;
            out->dev = read_int(&q, end);
        }
    }
    out->msg = lvl;
    out->msg_n = (size_t)(end - lvl);
    out->kind = CF__NL_OTHER;
    parse_msg(lvl, end, out);
}
