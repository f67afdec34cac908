/* ibstat.c — reads `ibstat` and `ibv_devinfo` (-v or not) port dumps: per
 * CA and port, the state, physical state, rate (Gbit/s), link layer and,
 * from ibv_devinfo -v, the GIDs (an IPv4-mapped GID, ::ffff:a.b.c.d, means
 * RoCE v2).
 *
 * ibstat prints "CA 'mlx5_0'", then indented "Key: value" lines, with
 * "Port N:" opening a port and "Rate: 200" the signalling rate already
 * multiplied by the width (infiniband-diags ibstat.c). ibv_devinfo prints
 * "hca_id:\tmlx5_0", "port:\t1" and "key:\t\tvalue" lines; its rate is
 * active_width x active_speed ("4X (2)" x "50.0 Gbps (64)" = 200), shown
 * only with -v (libibverbs examples/devinfo.c). Only known keys count as
 * dump lines, so a dump ends at the first line that is not one; a port cut
 * before its link layer is kept and flagged incomplete. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"

/* Copies s..end without surrounding blanks. */
static void copy_val(char *dst, size_t cap, const char *s, const char *end)
{
    s = cf__skip_ws(s, end);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t')) end--;
    cf__copy_n(dst, cap, s, (size_t)(end - s));
}

static const struct { const char *key; int field; } ibstat_keys[] = {
    {"State", CF__IBF_STATE}, {"Physical state", CF__IBF_PHYS}, {"Rate", CF__IBF_RATE},
    {"Link layer", CF__IBF_LL}, {"CA type", CF__IBF_OTHER}, {"Number of ports", CF__IBF_OTHER},
    {"Firmware version", CF__IBF_OTHER}, {"Hardware version", CF__IBF_OTHER},
    {"Node GUID", CF__IBF_OTHER}, {"System image GUID", CF__IBF_OTHER},
    {"Base lid", CF__IBF_OTHER}, {"LMC", CF__IBF_OTHER}, {"SM lid", CF__IBF_OTHER},
    {"Capability mask", CF__IBF_OTHER}, {"Port GUID", CF__IBF_OTHER},
};

void cf__ibstat_parse(const char *s, size_t n, cf__ib_line *out)
{
    const char *end = s + n, *p = cf__skip_ws(s, end), *colon;
    out->kind = CF__IB_NONE;
    out->field = CF__IBF_OTHER;
    out->name[0] = out->value[0] = '\0';
    out->port = -1;
    out->num = NAN;
    if (p == s && cf__starts(p, (size_t)(end - p), "CA '")) {
        const char *q = p + 4, *e = memchr(q, '\'', (size_t)(end - q));
        if (!e) return;
        copy_val(out->name, sizeof out->name, q, e);
        out->kind = CF__IB_CA;
        return;
    }
    if (p == s) return;    /* every other ibstat line is indented */
    if (cf__starts(p, (size_t)(end - p), "Port ")) {
        double v;
        const char *q = p + 5, *e = q;
        while (e < end && *e >= '0' && *e <= '9') e++;
        if (e > q && e < end && *e == ':' && cf__num(q, (size_t)(e - q), &v)) {
            out->kind = CF__IB_PORT;
            out->port = cf__dtol(v);
            return;
        }
    }
    colon = memchr(p, ':', (size_t)(end - p));
    if (!colon) return;
    for (size_t i = 0; i < sizeof ibstat_keys / sizeof ibstat_keys[0]; i++) {
        size_t k = strlen(ibstat_keys[i].key);
        if ((size_t)(colon - p) == k && memcmp(p, ibstat_keys[i].key, k) == 0) {
            out->kind = CF__IB_FIELD;
            out->field = ibstat_keys[i].field;
            copy_val(out->value, sizeof out->value, colon + 1, end);
            if (out->field == CF__IBF_RATE) {
                const char *t, *q = colon + 1;
                size_t tn;
                if (cf__token(&q, end, &t, &tn)) cf__num(t, tn, &out->num);
            }
            return;
        }
    }
}

static int key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

void cf__ibv_parse(const char *s, size_t n, cf__ib_line *out)
{
    const char *end = s + n, *p = cf__skip_ws(s, end), *k, *colon;
    size_t kn;
    out->kind = CF__IB_NONE;
    out->field = CF__IBF_OTHER;
    out->name[0] = out->value[0] = '\0';
    out->port = -1;
    out->num = NAN;
    if (cf__starts(p, (size_t)(end - p), "hca_id:")) {
        copy_val(out->name, sizeof out->name, p + 7, end);
        if (out->name[0]) out->kind = CF__IB_CA;
        return;
    }
    if (p == s) return;
    if (cf__starts(p, (size_t)(end - p), "GID[")) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        out->kind = CF__IB_FIELD;
        out->field = CF__IBF_GID;
        if (c) copy_val(out->value, sizeof out->value, c + 1, end);
        return;
    }
    k = p;
    while (p < end && key_char(*p)) p++;
    kn = (size_t)(p - k);
    if (kn == 0 || p >= end || *p != ':') return;
    colon = p;
    out->kind = CF__IB_FIELD;
    copy_val(out->value, sizeof out->value, colon + 1, end);
    if (kn == 4 && memcmp(k, "port", 4) == 0) {
        double v;
        const char *t, *q = colon + 1;
        size_t tn;
        if (cf__token(&q, end, &t, &tn) && cf__num(t, tn, &v)) {
            out->kind = CF__IB_PORT;
            out->port = cf__dtol(v);
        }
    } else if (kn == 5 && memcmp(k, "state", 5) == 0) {
        out->field = CF__IBF_STATE;
    } else if (kn == 10 && memcmp(k, "phys_state", 10) == 0) {
        out->field = CF__IBF_PHYS;
    } else if (kn == 10 && memcmp(k, "link_layer", 10) == 0) {
        out->field = CF__IBF_LL;
    } else if (kn == 12 && memcmp(k, "active_width", 12) == 0) {
        const char *t, *q = colon + 1;
        size_t tn;
        out->field = CF__IBF_WIDTH;
        if (cf__token(&q, end, &t, &tn) && tn >= 2 && (t[tn - 1] == 'X' || t[tn - 1] == 'x'))
            cf__num(t, tn - 1, &out->num);
    } else if (kn == 12 && memcmp(k, "active_speed", 12) == 0) {
        const char *t, *q = colon + 1;
        size_t tn;
        out->field = CF__IBF_SPEED;
        if (cf__token(&q, end, &t, &tn)) cf__num(t, tn, &out->num);
    }
}

void cf__port_apply(cf__port *p, const cf__ib_line *l, int devinfo)
{
    const char *v = l->value;
    switch (l->field) {
    case CF__IBF_STATE:
        cf__copy(p->state, sizeof p->state, v);
        p->seen_state = 1;
        if (devinfo) p->active = strstr(v, "ACTIVE") != NULL;
        else p->active = cf__starts(v, strlen(v), "Active");
        break;
    case CF__IBF_PHYS:
        cf__copy(p->phys_state, sizeof p->phys_state, v);
        break;
    case CF__IBF_RATE:
        p->rate_gbps = l->num;
        p->seen_rate = !isnan(l->num);
        break;
    case CF__IBF_LL:
        p->seen_ll = 1;
        if (cf__starts(v, strlen(v), "InfiniBand")) p->ll = CF__LL_IB;
        else if (cf__starts(v, strlen(v), "Ethernet")) p->ll = CF__LL_ETH;
        break;
    case CF__IBF_WIDTH:
        p->width = l->num;
        break;
    case CF__IBF_SPEED:
        p->speed_gbps = l->num;
        break;
    case CF__IBF_GID:
        if (strstr(v, "::ffff:") || strstr(v, "0000:ffff:")) p->roce_v2 = 1;
        break;
    default:
        break;
    }
}

void cf__port_finish(cf__port *p)
{
    if (isnan(p->rate_gbps) && p->width > 0 && p->speed_gbps > 0) {
        p->rate_gbps = p->width * p->speed_gbps;
        p->seen_rate = 1;
    }
    p->complete = p->seen_state && p->seen_ll;
}
