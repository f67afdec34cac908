/* route.c — the audit's line router (DESIGN §5): every line, after the
 * launcher and logger prefixes are stripped (lines.c), goes to the parser
 * of its kind — nccl-tests rows and '#' comments (perftable.c), NCCL_DEBUG
 * lines (ncclog.c), ibstat / ibv_devinfo dumps (ibstat.c), nvidia-smi
 * topo -m matrices (topo.c), launcher, framework, lsmod and environment
 * lines (here) — and what it shows is applied to the evidence of the
 * current part and segment (evidence.c).
 *
 * Shape: one pass, no regex. A per-file state (struct cf_audit's "per-file
 * state") knows whether a topology matrix or a port dump is open; every
 * other line is recognised by its first byte and a few fixed substrings,
 * most rows and NCCL lines after a handful of byte compares: this is the
 * hot path of `clusterfit audit` (bench/audit_bench.sh). A line that shows
 * another run (a second nccl-tests run, a launcher after NCCL lines, an
 * NCCL line from a process outside the run, another NCCL version) splits
 * the segment first, so facts of different runs are never combined. What
 * lines mean follows NCCL's net.cc/net_ib.cc/paths.cc (see ncclog.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "clusterfit/collective.h"
#include "base/base.h"

/* ------------------------------------------------------ nccl-tests lines */

static void note_hints(cf_audit *a, const char *s, size_t n, long line);

/* A '#' line of nccl-tests: parameters and the rank list open a run (a
 * new one when the open run has rows or ended), the header gives its
 * layout, "Avg bus bandwidth" ends it; other '#' lines may name the
 * collective or show an lsmod command. */
static void on_comment(cf_audit *a, const char *s, size_t n, long line)
{
    cf__perf_comment c;
    cf__audit_run *r;
    cf__perf_parse_comment(s, n, &c);
    switch (c.kind) {
    case CF__PC_PARAMS:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended || r->lay.known) r = cf__audit_open_run(a, line, 1);
        if (!r) return;
        r->params_lines++;
        if (r->rank_lines == 0) r->params_before_ranks++;
        r->nthread = c.nthread;
        r->ngpus = c.ngpus;
        r->min_bytes = c.min_bytes;
        r->max_bytes = c.max_bytes;
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_USING_DEVICES:
        if (!cf__audit_cur_run(a, line)) return;
        a->in_rank_list = 1;
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_RANK:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended) r = cf__audit_open_run(a, line, 1);
        if (!r) return;
        a->in_rank_list = 1;
        r->rank_lines++;
        if (c.rank > r->max_rank) r->max_rank = c.rank;
        if (c.rank == 0) r->rank0_lines++;
        if (c.host_n) {
            uint64_t h = cf__hash(c.host, c.host_n, 0);
            int k;
            for (k = 0; k < r->nhosts; k++)
                if (r->hosts[k] == h) break;
            if (k == r->nhosts && r->nhosts < 64) r->hosts[r->nhosts++] = h;
            cf__audit_note_host(a, c.host, c.host_n);
            if (c.rank == 0 && !r->rank0_host) r->rank0_host = h;
            else if (c.rank == 0 && h != r->rank0_host && !r->rank0_other_line) r->rank0_other_line = line;
            if (c.pid >= 0) {
                r->rank_pid_lines++;
                cf__kvset_get(&cf__audit_cur_seg(a)->list_procs, cf__audit_proc_key(h, c.pid), &a->oom);
            }
        }
        cf__audit_note_rank(a, c.rank, 0, c.host, c.host_n);
        if (!r->gpu_name[0]) cf__copy(r->gpu_name, sizeof r->gpu_name, c.gpu_name);
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_HEADER:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended) r = cf__audit_open_run(a, line, 0);
        if (!r) return;
        a->in_rank_list = 0;
        r->lay = c.layout;
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_UNITS:
    case CF__PC_PLACE:
        if (a->f_run >= 0) cf__audit_run_touch(a, line);
        return;
    case CF__PC_OOB:
        if (a->f_run < 0) return;
        r = a->parts[a->f_run].r;
        r->oob = c.oob;
        r->oob_failed = c.oob_failed;
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_AVG:
        if (a->f_run < 0) return;
        r = a->parts[a->f_run].r;
        r->avg = c.avg;
        r->ended = 1;
        cf__audit_run_touch(a, line);
        return;
    case CF__PC_TEST_START:
        if (c.collective[0]) {
            cf_collective cc;
            if (cf_collective_parse(c.collective, &cc) == CF_OK) cf__audit_note_coll(a, cc, 1);
        }
        return;
    default: {
        cf__audit_note_coll(a, cf__perf_collective_in(s, n), 0);
        if (cf__find(s, n, "SBATCH") || cf__find(s, n, "NCCL_")) note_hints(a, s, n, line);
        if (cf__find(s, n, "lsmod")) {     /* "# lsmod | grep peermem" */
            cf__audit_seg *g = cf__audit_cur_seg(a);
            if (!g->lsmod++) g->lsmod_loc = cf__audit_here(a, line);
        }
        if (a->f_run >= 0 && a->in_rank_list) cf__audit_run_touch(a, line);
        return;
    }
    }
}

/* ------------------------------------------------------------ NCCL log */

static int ev_find_dev(const cf__audit_netev *e, uint64_t host, int idx)
{
    int any = -1;
    if (idx >= 0 && idx < (int)sizeof e->dev_of_idx && e->dev_of_idx[idx] != -2) return e->dev_of_idx[idx];
    for (int i = 0; i < e->n_ibdevs; i++) {
        if (e->ibdevs[i].d.idx != idx) continue;
        if (e->ibdevs[i].host == host) return i;
        if (any < 0) any = i;
    }
    return any;
}

/* The message of an error line, as a finding quotes it: its first 180 bytes. */
static void keep_msg(char *dst, size_t cap, const cf__nccl_line *l)
{
    cf__copy_n(dst, cap, l->msg, l->msg_n > 180 ? 180 : l->msg_n);
}

/* NET/IB : Using: the devices NCCL lists. Hosts list the same devices: an
 * entry equal to one kept is not stored again, so the list stays short and
 * lookups cheap. */
static void ev_ib_using(cf__audit_netev *e, const cf__nccl_line *l, uint64_t host, cf__audit_loc at)
{
    if (!e->ib_using_loc.line) e->ib_using_loc = at;
    for (int i = 0; i < l->n_ibdevs; i++) {
        const cf__ibdev *d = &l->ibdevs[i];
        int k;
        if (d->name[0] == 'r' && d->name[1] == 'x' && d->name[2] == 'e') {     /* rdma_rxe: "rxe0" */
            if (!e->soft_roce++) {
                e->soft_roce_loc = at;
                cf__copy(e->soft_roce_dev, sizeof e->soft_roce_dev, d->name);
            }
        }
        /* hosts list the same devices in the same order: try that slot first */
        if (i < e->n_ibdevs) {
            const cf__ibdev *o = &e->ibdevs[i].d;
            if (o->idx == d->idx && o->port == d->port && o->ll == d->ll && strcmp(o->name, d->name) == 0)
                continue;
        }
        for (k = 0; k < e->n_ibdevs; k++) {
            const cf__ibdev *o = &e->ibdevs[k].d;
            if (o->idx == d->idx && o->port == d->port && o->ll == d->ll &&
                strcmp(o->name, d->name) == 0)
                break;
        }
        if (k == e->n_ibdevs && e->n_ibdevs < CF__AUDIT_MAX_IBDEVS) {
            e->ibdevs[e->n_ibdevs].host = host;
            e->ibdevs[e->n_ibdevs].d = *d;
            cf__audit_index_dev(e, e->n_ibdevs);
            e->n_ibdevs++;
        }
    }
}

/* GPU Direct RDMA Enabled/Disabled for an HCA or for a GPU. */
static void ev_gdr(cf__audit_netev *e, const cf__nccl_line *l, cf__audit_loc at)
{
    if (l->kind == CF__NL_GDR_HCA) {
        if (l->enabled) e->gdr_hca_on++;
        else if (e->gdr_hca_off++ == 0) e->gdr_hca_off_loc = at;
        return;
    }
    if (l->enabled) {
        e->gdr_gpu_on++;
    } else {
        if (e->gdr_gpu_off++ == 0) e->gdr_gpu_off_loc = at;
        if (l->distance >= 0) {
            e->off_distance = l->distance;
            e->off_distance_max = l->distance_max;
        }
    }
}

/* A channel line: which net family carries it, over which link layer, and
 * whether this rank's channels in that direction use GDRDMA. */
static void ev_channel(cf_audit *a, cf__audit_netev *e, const cf__nccl_line *l, uint64_t host,
                       cf__audit_loc at, int is_seg)
{
    int fam = cf__net_family(l->net, strlen(l->net));
    cf__kv *kv;
    uint64_t key;
    if (e->ch[fam]++ == 0) e->ch_loc[fam] = at;
    if (!e->ch_net[0]) cf__copy(e->ch_net, sizeof e->ch_net, l->net);
    if (fam == CF__NCCLNET_IB && l->netdev >= 0) {
        int k = ev_find_dev(e, host, l->netdev);
        e->ch_ll[k >= 0 ? e->ibdevs[k].d.ll : CF__LL_UNKNOWN]++;
    }
    if (l->gdrdma) {
        if (!e->first_gdr_ch.line) e->first_gdr_ch = at;
    } else if (!e->first_nogdr_ch.line) {
        e->first_nogdr_ch = at;
    }
    if (!is_seg) return;    /* per-rank GDR is judged on the segment's evidence only */
    /* rank key: host hash mixed with pid and device (Fibonacci hashing) */
    key = host ^ ((uint64_t)l->pid * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)(l->dev + 1) * 0xC2B2AE3D27D4EB4FULL);
    kv = cf__kvset_get(&e->rank_gdr, key, &a->oom);
    if (kv) {
        int slot = (l->dir == CF__CH_SEND ? CF__RG_SEND_GDR : CF__RG_RECV_GDR) + (l->gdrdma ? 0 : 1);
        kv->v[slot]++;
    }
}

/* "NCCL_NET_GDR_LEVEL set by environment to SYS", "NCCL_IB_DISABLE ...". */
static void ev_env(cf__audit_netev *e, const cf__nccl_line *l, cf__audit_loc at)
{
    if (strcmp(l->env_name, "NCCL_NET_GDR_LEVEL") == 0) {
        int lv = cf__gdr_level(l->text);
        if (lv == 0 && !e->gdr_env_off++) e->gdr_env_off_loc = at;
        if (lv > e->gdr_level) {
            e->gdr_level = lv;
            cf__copy(e->gdr_level_text, sizeof e->gdr_level_text, l->text);
            e->gdr_level_loc = at;
        }
    } else if (strcmp(l->env_name, "NCCL_IB_DISABLE") == 0) {
        e->ib_disable = l->text[0] == '1';
        e->ib_disable_loc = at;
    } else if (strcmp(l->env_name, "NCCL_IB_HCA") == 0 || strcmp(l->env_name, "NCCL_SOCKET_IFNAME") == 0 ||
               strcmp(l->env_name, "NCCL_ALGO") == 0) {
        cf__audit_setting *st = l->env_name[5] == 'I' ? &e->hca_env : l->env_name[5] == 'A' ? &e->algo_env
                                                                                            : &e->ifname_env;
        if (!st->at.line) {
            size_t k = strlen(l->env_name);
            cf__copy(st->text, sizeof st->text, l->env_name);
            if (k + 1 < sizeof st->text) {
                st->text[k] = '=';
                cf__copy(st->text + k + 1, sizeof st->text - k - 1, l->text);
            }
            st->at = at;
        }
    } else if (strcmp(l->env_name, "NCCL_IB_GID_INDEX") == 0) {
        double d;
        if (cf__num(l->text, strlen(l->text), &d) && d >= 0 && d < 1000) e->gid_index = (int)d;
    }
}

/* Completion errors, fatal WARNs and timeouts: counted, the first kept. */
static void ev_failure(cf__audit_netev *e, const cf__nccl_line *l, cf__audit_loc at)
{
    switch (l->kind) {
    case CF__NL_COMPLETION_ERR:
        /* keep the first error that is not a flush (status 5 follows the cause) */
        if (e->completion++ == 0 || (e->completion_status == 5 && l->status != 5)) {
            e->completion_status = l->status;
            e->completion_loc = at;
            keep_msg(e->completion_msg, sizeof e->completion_msg, l);
        }
        break;
    case CF__NL_ERROR:
        if (e->errors++ == 0) {
            e->error_loc = at;
            e->error_code = l->status;
            keep_msg(e->error_msg, sizeof e->error_msg, l);
        }
        break;
    default:    /* CF__NL_TIMEOUT */
        if (e->timeouts++ == 0) {
            e->timeout_loc = at;
            keep_msg(e->timeout_msg, sizeof e->timeout_msg, l);
        }
        break;
    }
}

/* Adds what one NCCL line shows to the evidence e (a part's or a segment's). */
/* A net plugin named: the first one kept, and whether its own lines show
 * it carrying data. */
static void ev_plugin(cf__audit_netev *e, const cf__nccl_line *l, cf__audit_loc at)
{
    int fam = cf__net_family(l->text, strlen(l->text));
    if (!e->plugin_name[0]) {
        cf__copy(e->plugin_name, sizeof e->plugin_name, l->text);
        e->plugin_family = fam;
        e->plugin_loc = at;
    }
    if (l->enabled && fam == e->plugin_family) e->plugin_used = 1;
}

/* A communicator line: the largest size, its node count, Init COMPLETE. */
static void ev_comm(cf__audit_netev *e, const cf__nccl_line *l)
{
    if (l->nranks > e->nranks) {
        e->nranks = l->nranks;
        e->nnodes = l->nnodes > 0 ? l->nnodes : 0;
    } else if (l->nranks == e->nranks && l->nnodes > e->nnodes) {
        e->nnodes = l->nnodes;
    }
    e->init_complete += l->init_complete;
}

static void ev_apply(cf_audit *a, cf__audit_netev *e, const cf__nccl_line *l, uint64_t host, cf__audit_loc at,
                     int is_seg)
{
    e->lines++;
    e->info_lines += l->level == 'I';
    if (l->roce_gid) e->roce_gid = 1;
    switch (l->kind) {
    case CF__NL_VERSION:
        if (!e->version[0]) cf__copy(e->version, sizeof e->version, l->text);
        break;
    case CF__NL_USING_NETWORK:
        cf__copy(e->net_name, sizeof e->net_name, l->text);
        e->net_family = cf__net_family(l->text, strlen(l->text));
        e->net_loc = at;
        break;
    case CF__NL_IB_USING: ev_ib_using(e, l, host, at); break;
    case CF__NL_NET_PLUGIN: ev_plugin(e, l, at); break;
    case CF__NL_OFI_PROVIDER:
        cf__copy(e->ofi_provider, sizeof e->ofi_provider, l->text);
        e->ofi_loc = at;
        e->ofi_plugin = 1;
        break;
    case CF__NL_OFI_PLUGIN: e->ofi_plugin = 1; break;
    case CF__NL_GDR_HCA:
    case CF__NL_GDR_GPU: ev_gdr(e, l, at); break;
    case CF__NL_CHANNEL: ev_channel(a, e, l, host, at, is_seg); break;
    case CF__NL_ENV: ev_env(e, l, at); break;
    case CF__NL_TUNING:
        /* NCCL's choice at the largest call shown: nccl-tests' largest size */
        if (l->bytes > e->tuned_bytes) {
            e->tuned_bytes = l->bytes;
            e->tuned_algo = l->algo;
            e->tuned_proto = l->proto;
            e->tuned_coll = l->coll;
            e->tuned_at = at;
        }
        break;
    case CF__NL_COMM: ev_comm(e, l); break;
    case CF__NL_SOCKET_USING: {
        /* "NET/Socket : Using [0]lo:127.0.0.1<0>": only loopback means the
         * data cannot leave the node */
        const char *q = l->msg, *end = l->msg + l->msg_n;
        int loop = 0, other = 0;
        while ((q = memchr(q, ']', (size_t)(end - q))) != NULL) {
            q++;
            if (end - q >= 3 && q[0] == 'l' && q[1] == 'o' && q[2] == ':') loop++;
            else if (q < end && *q != ' ' && *q != ';') other++;
        }
        if (loop && !other) e->sock_loopback++;
        else if (other) e->sock_other++;
        break;
    }
    case CF__NL_IB_NODEV:
        if (!e->ib_nodev++) e->ib_nodev_loc = at;
        break;
    case CF__NL_CHANNEL_LOCAL:
        e->local_channels++;
        break;
    case CF__NL_PLUGIN_FAIL:
        if (cf__find(l->msg, l->msg_n, "NET/OFI")) e->ofi_plugin = 1;
        if (!e->plugin_fail++) {
            e->plugin_fail_loc = at;
            e->plugin_fail_code = l->status;
            keep_msg(e->plugin_fail_msg, sizeof e->plugin_fail_msg, l);
        }
        break;
    case CF__NL_DMABUF:
        if (!e->dmabuf++) e->dmabuf_loc = at;
        break;
    case CF__NL_ERROR:
        /* a net plugin's error while NCCL is still choosing its network (no
         * "Using network", no rank initialised): part of the plugin failing
         * to come up, judged with it (findings.c) */
        if (!e->init_complete && e->net_family == CF__NCCLNET_UNKNOWN && e->ch[CF__NCCLNET_OFI] == 0 &&
            (cf__find(l->msg, l->msg_n, "NET/OFI") || cf__find(l->msg, l->msg_n, "NET/Plugin"))) {
            cf__nccl_line pl = *l;
            pl.kind = CF__NL_PLUGIN_FAIL;
            ev_apply(a, e, &pl, host, at, is_seg);
            e->lines--;
            e->info_lines -= l->level == 'I';
            break;
        }
        ev_failure(e, l, at);
        break;
    case CF__NL_COMPLETION_ERR:
    case CF__NL_TIMEOUT: ev_failure(e, l, at); break;
    case CF__NL_IBVERBS_MISSING:
        if (!e->ibverbs_missing++) e->ibverbs_loc = at;
        break;
    default:
        break;
    }
}

/* 1 when the NCCL line shows another run than the current segment's: an
 * "NCCL version" that differs from the segment's, printed without a host
 * (old NCCL: rank 0 only) or by a host that printed the other one; a
 * host listing a port with another link layer than it did before; a
 * process outside the run's complete rank list; once the table has rows,
 * a process not seen before when NCCL lines came before the rows (every
 * rank of a run initialises NCCL before the first result row). */
static int nccl_other_run(cf_audit *a, const cf__nccl_line *l, uint64_t host)
{
    cf__audit_seg *s = cf__audit_cur_seg(a);
    const cf__audit_run *r;
    uint64_t key;
    if (s->ev.lines == 0 && s->run_part < 0) return 0;
    if (l->kind == CF__NL_VERSION && s->ev.version[0] && l->text[0] &&
        strcmp(s->ev.version, l->text) != 0) {
        const cf__kv *h = l->host_n ? cf__kvset_find(&s->hosts, host) : NULL;
        if (!l->host_n || (h && h->v[CF__HOSTS_VERSION])) return 1;
    }
    if (l->kind == CF__NL_IB_USING && l->host_n) {
        /* one host's port has one link layer: IB here and RoCE before is another run */
        for (int i = 0; i < l->n_ibdevs; i++) {
            const cf__ibdev *d = &l->ibdevs[i];
            if (d->ll == CF__LL_UNKNOWN || !(s->ev.ll_mask & ~(1 << d->ll) & ~(1 << CF__LL_UNKNOWN))) continue;
            for (int k = 0; k < s->ev.n_ibdevs; k++) {
                const cf__audit_hostdev *o = &s->ev.ibdevs[k];
                if (o->host == host && o->d.port == d->port && o->d.ll != d->ll &&
                    o->d.ll != CF__LL_UNKNOWN && d->ll != CF__LL_UNKNOWN && strcmp(o->d.name, d->name) == 0)
                    return 1;
            }
        }
    }
    if (!l->host_n || l->pid < 0) return 0;
    key = cf__audit_proc_key(host, l->pid);
    if (key == s->known_proc) return 0;
    if (cf__kvset_find(&s->procs, key)) {
        s->known_proc = key;
        return 0;
    }
    r = cf__audit_seg_run(a, a->cur);
    if (!r) return 0;
    if (cf__audit_list_complete(r) && !cf__kvset_find(&s->list_procs, key)) return 1;
    return cf__audit_run_has_content(r) && r->procs_at_rows > 0;
}

static void on_nccl(cf_audit *a, const cf__nccl_line *l, long line)
{
    uint64_t host;
    cf__audit_loc at = cf__audit_here(a, line);
    cf__audit_part *p;
    cf__audit_seg *s;
    host = cf__audit_note_host(a, l->host, l->host_n);
    if (nccl_other_run(a, l, host)) {
        cf__audit_split_seg(a);
        host = cf__audit_note_host(a, l->host, l->host_n);
    }
    s = cf__audit_cur_seg(a);
    if (l->host_n && l->pid >= 0) {
        uint64_t key = cf__audit_proc_key(host, l->pid);
        if (key != s->known_proc && cf__kvset_get(&s->procs, key, &a->oom)) s->known_proc = key;
    }
    if (a->f_nccl < 0) {
        a->f_nccl = cf__audit_new_part(a, CF__PART_NCCL, line);
        if (a->f_nccl < 0) return;
    }
    p = &a->parts[a->f_nccl];
    p->last_line = line;
    if (l->kind == CF__NL_OTHER && !l->roce_gid) {     /* most lines: nothing to record */
        int info = l->level == 'I';
        p->ev->lines++;
        s->ev.lines++;
        p->ev->info_lines += info;
        s->ev.info_lines += info;
        return;
    }
    if (l->kind == CF__NL_COMM) {
        cf__audit_note_rank(a, l->rank, l->nranks, l->host, l->host_n);
        if (l->comm_id) {
            int k;
            for (k = 0; k < s->ncomm; k++)
                if (s->comm_ids[k] == l->comm_id) break;
            if (k == s->ncomm && s->ncomm < (int)(sizeof s->comm_ids / sizeof s->comm_ids[0]))
                s->comm_ids[s->ncomm++] = l->comm_id;
        }
    }
    if (l->kind == CF__NL_VERSION && l->host_n) {
        cf__kv *h = cf__kvset_find(&s->hosts, host);
        if (h) h->v[CF__HOSTS_VERSION] = 1;
    }
    ev_apply(a, p->ev, l, host, at, 0);
    ev_apply(a, &s->ev, l, host, at, 1);
}

static int ib_line(cf_audit *a, const char *s, size_t n, long line, int start_kind)
{
    cf__ib_line l;
    cf__audit_part *p;
    int devinfo;
    if (a->f_ib < 0 && start_kind < 0) return 0;
    devinfo = a->f_ib >= 0 ? a->parts[a->f_ib].kind == CF__PART_IBV : start_kind == CF__PART_IBV;
    if (devinfo) cf__ibv_parse(s, n, &l);
    else cf__ibstat_parse(s, n, &l);
    if (l.kind == CF__IB_NONE) return 0;
    if (a->f_ib < 0) {
        if (l.kind != CF__IB_CA) return 0;
        a->f_ib = cf__audit_new_part(a, start_kind, line);
        if (a->f_ib < 0) return 1;
    }
    p = &a->parts[a->f_ib];
    p->last_line = line;
    switch (l.kind) {
    case CF__IB_CA:
        cf__copy(a->cur_ca, sizeof a->cur_ca, l.name);
        a->cur_port = NULL;
        break;
    case CF__IB_PORT:
        if (p->nports >= CF__MAX_PORTS) {
            a->cur_port = NULL;
            break;
        }
        a->cur_port = &p->ports[p->nports++];
        memset(a->cur_port, 0, sizeof *a->cur_port);
        cf__copy(a->cur_port->ca, sizeof a->cur_port->ca, a->cur_ca);
        a->cur_port->port = l.port >= 0 && l.port < 100000 ? (int)l.port : -1;
        a->cur_port->active = -1;
        a->cur_port->rate_gbps = NAN;
        a->cur_port->line = line;
        break;
    default:
        if (a->cur_port) cf__port_apply(a->cur_port, &l, devinfo);
        break;
    }
    return 1;
}

static int is_legend_line(const char *p, const char *end)
{
    size_t n = (size_t)(end - p);
    const char *eq;
    if (cf__starts(p, n, "Legend:") || cf__starts(p, n, "NIC Legend:")) return 1;
    eq = memchr(p, '=', n);
    if (eq && eq - p <= 8) {
        const char *t = p;
        while (t < eq && *t != ' ') t++;
        if (cf__topo_link(p, (size_t)(t - p), NULL) != CF__TL_UNKNOWN ||
            cf__starts(p, n, "NV#"))
            return 1;
    }
    return 0;
}

/* A topology matrix or port dump starts: after a run that ended ("# Avg
 * bus bandwidth") it opens a new segment (it may be the next run's node;
 * with a single run in the input it joins that run again when the audit
 * concludes). */
static void hw_start(cf_audit *a)
{
    const cf__audit_run *r = cf__audit_seg_run(a, a->cur);
    if (r && r->ended) cf__audit_split_seg(a);
    else cf__audit_close_run(a);
}

/* -------------------------------------------------------- other lines */

/* A line of a framework log (PyTorch, torchrun, DeepSpeed) or an nccl-tests
 * failure: counted in the file's framework part. */
static int framework_line(cf_audit *a, long line)
{
    if (a->f_fw < 0) {
        a->f_fw = cf__audit_new_part(a, CF__PART_FRAMEWORK, line);
        if (a->f_fw < 0) return -1;
    }
    a->parts[a->f_fw].last_line = line;
    a->parts[a->f_fw].fw_lines++;
    return 0;
}

/* A framework line that ends the job: counted, and the finding `code` quotes it. */
static void framework_finding(cf_audit *a, const char *s, size_t n, long line, cf__audit_code code,
                              const char *what)
{
    if (framework_line(a, line) != 0) return;
    cf__audit_add_finding(a, a->f_fw, code, cf__audit_here(a, line), "%s: %.*s", what, (int)(n > 200 ? 200 : n), s);
}

static int is_launcher(const char *t, size_t tn)
{
    return (tn >= 6 && memcmp(t + tn - 6, "mpirun", 6) == 0) ||
           (tn >= 7 && memcmp(t + tn - 7, "mpiexec", 7) == 0) ||
           (tn >= 6 && memcmp(t + tn - 6, "orterun", 6) == 0);
}

/* 1 if the line is a launch command: the launcher followed by an option or
 * a program path ("mpirun -np 2 ...", "mpirun ./build/all_reduce_perf"),
 * not Open MPI's own messages ("mpirun noticed that process rank 0 ..."). */
static int is_launch_command(const char *s, size_t n)
{
    const char *p = s, *end = s + n, *t;
    size_t tn;
    while (cf__token(&p, end, &t, &tn)) {
        if (!is_launcher(t, tn)) continue;
        if (!cf__token(&p, end, &t, &tn)) return 0;
        return t[0] == '-' || memchr(t, '/', tn) != NULL || cf__find(t, tn, "_perf") != NULL;
    }
    return 0;
}

/* A launch command starts a run: after NCCL lines or an nccl-tests run it
 * starts a new segment. Reads -np, --host and how NCCL_NET_GDR_LEVEL is
 * passed (in front of the launcher only, or forwarded with -x). */
static void launcher_line(cf_audit *a, const char *s, size_t n, long line)
{
    const char *p = s, *end = s + n, *t;
    size_t tn;
    int after = 0, fwd_all = 0;
    char gdr_prefix[16] = "";
    int fwd = 0, xset = 0;
    char xval[16] = "";
    cf__audit_launch *la;
    const cf__audit_run *r;
    if (!is_launch_command(s, n)) return;
    r = cf__audit_seg_run(a, a->cur);
    if ((r && (cf__audit_run_has_content(r) || cf__audit_run_has_facts(r))) || cf__audit_cur_seg(a)->ev.lines > 0) cf__audit_split_seg(a);
    la = &cf__audit_cur_seg(a)->la;
    la->seen = 1;
    la->at = cf__audit_here(a, line);
    while (cf__token(&p, end, &t, &tn)) {
        if (!after) {
            if (is_launcher(t, tn)) {
                after = 1;
            } else if (cf__starts(t, tn, "NCCL_NET_GDR_LEVEL=")) {
                cf__copy_n(gdr_prefix, sizeof gdr_prefix, t + 19, tn - 19);
            }
            continue;
        }
        /* the program's own options follow its name ("all_reduce_perf -n 100" is iterations) */
        if (t[0] != '-' && cf__find(t, tn, "_perf")) break;
        if ((tn == 2 && memcmp(t, "-x", 2) == 0) || (tn == 5 && memcmp(t, "--env", 5) == 0) ||
            (tn == 5 && memcmp(t, "-genv", 5) == 0) || (tn == 4 && memcmp(t, "-env", 4) == 0)) {
            const char *v;
            size_t vn;
            if (!cf__token(&p, end, &v, &vn)) break;
            if (cf__starts(v, vn, "NCCL_NET_GDR_LEVEL")) {
                fwd = 1;
                if (vn > 19 && v[18] == '=') {
                    xset = 1;
                    cf__copy_n(xval, sizeof xval, v + 19, vn - 19);
                } else if (vn == 18 && t[1] != 'x') {
                    const char *w;
                    size_t wn;
                    if (cf__token(&p, end, &w, &wn)) {
                        xset = 1;
                        cf__copy_n(xval, sizeof xval, w, wn);
                    }
                }
            }
        } else if (tn == 7 && memcmp(t, "-genvall", 7) == 0) {
            fwd_all = 1;
        } else if ((tn == 3 && memcmp(t, "-np", 3) == 0) || (tn == 2 && memcmp(t, "-n", 2) == 0) ||
                   (tn == 4 && memcmp(t, "--np", 4) == 0)) {
            const char *v;
            size_t vn;
            double d;
            if (cf__token(&p, end, &v, &vn) && cf__num(v, vn, &d) && d >= 1) la->np = cf__dtol(d);
        } else if ((tn == 6 && memcmp(t, "--host", 6) == 0) || (tn == 5 && memcmp(t, "-host", 5) == 0) ||
                   (tn == 2 && memcmp(t, "-H", 2) == 0)) {
            const char *v;
            size_t vn;
            if (cf__token(&p, end, &v, &vn)) {
                long cnt = 1;
                for (size_t i = 0; i < vn; i++) cnt += v[i] == ',';
                la->hosts = cnt;
            }
        }
    }
    if (!after) return;
    if (gdr_prefix[0]) {
        la->gdr_level_prefix = 1;
        la->gdr_level_forwarded = fwd || fwd_all;
        la->gdr_level = cf__gdr_level(gdr_prefix);
        cf__copy(la->gdr_text, sizeof la->gdr_text, gdr_prefix);
    }
    if (xset) {
        la->gdr_level_forwarded = 1;
        la->gdr_level = cf__gdr_level(xval);
        cf__copy(la->gdr_text, sizeof la->gdr_text, xval);
        la->gdr_level_prefix = 0;
    }
}

/* Copies "NAME=VALUE" starting at v (up to a blank or quote) into st once. */
static void keep_setting(cf__audit_setting *st, const char *v, const char *end, cf__audit_loc at)
{
    size_t k = 0;
    if (st->at.line) return;
    while (v + k < end && v[k] != ' ' && v[k] != '\t' && v[k] != '"' && v[k] != '\'' && v[k] != ';') k++;
    cf__copy_n(st->text, sizeof st->text, v, k);
    st->at = at;
}

static void note_env(cf__audit_hints *h, int kind, cf__audit_loc at)
{
    int k = kind == CF__ENV_SLURM ? 0 : kind == CF__ENV_K8S ? 1 : 2;
    if (!(h->env & kind)) h->env_at[k] = at;
    h->env |= kind;
}

/* What a line around the logs shows about the job's setting (cf__audit_hints):
 * NCCL_IB_HCA / NCCL_SOCKET_IFNAME / NCCL_IB_DISABLE=1 on a launcher, export
 * or env line; Slurm, Kubernetes or a container; a container given fewer
 * RDMA devices, or none (/dev/infiniband missing). */
static void note_hints(cf_audit *a, const char *s, size_t n, long line)
{
    cf__audit_hints *h = &cf__audit_cur_seg(a)->hints;
    cf__audit_loc at = cf__audit_here(a, line);
    const char *end = s + n, *f;
    if ((f = cf__find(s, n, "NCCL_")) != NULL) {
        const char *g;
        size_t rest = (size_t)(end - f);
        if ((g = cf__find(f, rest, "NCCL_IB_HCA=")) != NULL) keep_setting(&h->restrict_hca, g, end, at);
        if ((g = cf__find(f, rest, "NCCL_SOCKET_IFNAME=")) != NULL) keep_setting(&h->restrict_if, g, end, at);
        if ((g = cf__find(f, rest, "NCCL_IB_DISABLE=1")) != NULL) keep_setting(&h->ib_disable, g, end, at);
        if ((g = cf__find(f, rest, "NCCL_ALGO=")) != NULL) keep_setting(&h->algo_env, g, end, at);
        if (((g = cf__find(f, rest, "NCCL_IB_GID_INDEX=")) != NULL && g[18] >= '1' && g[18] <= '9') ||
            (g = cf__find(f, rest, "NCCL_IB_ROCE_VERSION_NUM=")) != NULL)
            keep_setting(&h->gid_index, g, end, at);
    }
    if (cf__find(s, n, "srun ") || cf__find(s, n, "sbatch") || cf__find(s, n, "SLURM_") || cf__find(s, n, "SBATCH"))
        note_env(h, CF__ENV_SLURM, at);
    if (cf__find(s, n, "kubectl") || cf__find(s, n, "apiVersion:") || cf__find(s, n, "KUBERNETES_") ||
        cf__find(s, n, "kind: MPIJob") || cf__find(s, n, "kind: PyTorchJob") || cf__find(s, n, "kind: Pod") ||
        cf__find(s, n, "kubernetes.io"))
        note_env(h, CF__ENV_K8S, at);
    if (cf__find(s, n, "docker run") || cf__find(s, n, "docker exec") || cf__find(s, n, "podman run") ||
        cf__find(s, n, "enroot") || cf__find(s, n, "--container-image") || cf__find(s, n, "singularity") ||
        cf__find(s, n, "apptainer"))
        note_env(h, CF__ENV_CONTAINER, at);
    if ((f = cf__find(s, n, "/dev/infiniband")) != NULL) {
        if (cf__find(s, n, "No such file") || cf__find(s, n, "not found") || cf__find(s, n, "cannot access")) {
            if (!h->no_devib.line) h->no_devib = at;
        } else if (cf__find(f, (size_t)(end - f), "uverbs") && !h->container_limit.at.line) {
            long k = 0;
            for (const char *q = f; (q = cf__find(q, (size_t)(end - q), "/dev/infiniband/uverbs")) != NULL; q += 22) k++;
            snprintf(h->container_limit.text, sizeof h->container_limit.text, "%ld uverbs device(s) passed to the container", k);
            h->container_limit.at = at;
        }
    }
    if (((f = cf__find(s, n, "rdma/")) != NULL || (f = cf__find(s, n, "nvidia.com/mlnxnics")) != NULL) &&
        memchr(f, ':', (size_t)(end - f)))
        keep_setting(&h->container_limit, f, end, at);
}

static int other_line(cf_audit *a, const char *s, size_t n, long line)
{
    cf_collective cc;
    if (!cf__find(s, n, "mpirun") && !cf__find(s, n, "mpiexec")) note_hints(a, s, n, line);
    /* framework logs (PyTorch ProcessGroupNCCL, torchrun, DeepSpeed), nccl-tests failures */
    if (cf__find(s, n, "Watchdog caught collective operation timeout") || cf__find(s, n, "watchdog got stuck") ||
        (cf__find(s, n, "ProcessGroupNCCL") && (cf__find(s, n, "imeout") || cf__find(s, n, "timed out")))) {
        framework_finding(a, s, n, line, CF__CODE_TIMEOUT, "collective timed out");
        return 1;
    }
    if (cf__find(s, n, "NCCL error") || cf__find(s, n, "Test NCCL failure") ||
        cf__find(s, n, "DistBackendError") || cf__find(s, n, "ncclSystemError") ||
        cf__find(s, n, "ncclInternalError") || cf__find(s, n, "ncclRemoteError") ||
        cf__find(s, n, "ncclUnhandledCudaError") || cf__find(s, n, "Test CUDA failure")) {
        framework_finding(a, s, n, line, CF__CODE_NCCL_ERROR, "NCCL call failed");
        return 1;
    }
    if (cf__find(s, n, "ProcessGroupNCCL") || cf__find(s, n, "torch.distributed") ||
        cf__find(s, n, "torchrun") || cf__find(s, n, "DeepSpeed") || cf__find(s, n, "deepspeed")) {
        framework_line(a, line);
        return 1;
    }
    cc = cf__perf_collective_in(s, n);
    if (cf__find(s, n, "mpirun") || cf__find(s, n, "mpiexec")) {
        launcher_line(a, s, n, line);      /* may start a new segment first */
        note_hints(a, s, n, line);
        cf__audit_note_coll(a, cc, 0);
        return 1;
    }
    cf__audit_note_coll(a, cc, 0);
    /* lsmod: "nvidia_peermem  12288  0" (loaded), "# lsmod | grep peermem" */
    {
        const char *p = cf__skip_ws(s, s + n);
        size_t pn = (size_t)(s + n - p);
        if ((CF__LIT(p, pn, "nvidia_peermem") || CF__LIT(p, pn, "nv_peer_mem"))) {
            const char *q = p;
            while (q < s + n && *q != ' ' && *q != '\t') q++;
            q = cf__skip_ws(q, s + n);
            if (q > p && q < s + n && *q >= '0' && *q <= '9') {
                cf__audit_seg *g = cf__audit_cur_seg(a);
                if (!g->peermem++) g->peermem_loc = cf__audit_here(a, line);
                if (!g->lsmod++) g->lsmod_loc = cf__audit_here(a, line);
                return 1;
            }
        }
        if (cf__find(s, n, "lsmod")) {
            cf__audit_seg *g = cf__audit_cur_seg(a);
            if (!g->lsmod++) g->lsmod_loc = cf__audit_here(a, line);
            return 1;
        }
    }
    /* env listings: "NCCL_NET_GDR_LEVEL=SYS" */
    if (cf__starts(s, n, "NCCL_NET_GDR_LEVEL=")) {
        char v[16];
        const char *e = s + 19;
        size_t k = 0;
        while (e + k < s + n && e[k] != ' ' && e[k] != '\t' && k < sizeof v - 1) k++;
        cf__copy_n(v, sizeof v, e, k);
        cf__audit_cur_seg(a)->env_gdr_level = cf__gdr_level(v);
        cf__audit_cur_seg(a)->env_gdr_loc = cf__audit_here(a, line);
        return 1;
    }
    return cc != CF_COLL_UNKNOWN;
}

/* ------------------------------------------------------- line routing */

cf_status cf__audit_on_line(void *ctx, const char *s, size_t n, long lineno, int cut, int no_nl)
{
    cf_audit *a = ctx;
    const char *p, *end;
    (void)no_nl;
    a->last_lineno = lineno;
    a->last_cut = cut;
    s = cf__strip_prefixes(s, &n);
    if (cf__audit_probe_line(a, s, n, lineno)) return a->oom ? CF_ENOMEM : CF_OK;
    end = s + n;
    p = cf__skip_ws(s, end);

    if (p == end) {                 /* blank line */
        if (a->topo_state == CF__TOPO_MATRIX) a->topo_state = CF__TOPO_LEGEND;
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (a->topo_state == CF__TOPO_MATRIX) {
        if (a->f_topo >= 0 && cf__topo_row(p, (size_t)(end - p), a->parts[a->f_topo].topo)) {
            a->parts[a->f_topo].last_line = lineno;
            return CF_OK;
        }
        a->topo_state = CF__TOPO_LEGEND;
    }
    if (a->topo_state == CF__TOPO_LEGEND) {
        if (a->f_topo >= 0 && (is_legend_line(p, end) ||
                               cf__topo_nic_legend(p, (size_t)(end - p), a->parts[a->f_topo].topo)))
            return CF_OK;
        cf__audit_close_topo(a);
    }
    if (a->f_ib >= 0) {
        if (ib_line(a, s, n, lineno, -1)) return a->oom ? CF_ENOMEM : CF_OK;
        cf__audit_close_ib(a);
    }
    if (*p >= '0' && *p <= '9') {
        cf__perf_row row;
        const cf__perf_layout *lay = a->f_run >= 0 ? &a->parts[a->f_run].r->lay : NULL;
        int k = cf__perf_parse_row(p, (size_t)(end - p), lay, &row);
        if (k != CF__ROW_NONE) {
            cf__audit_add_row(a, &row, k, lineno);
            return a->oom ? CF_ENOMEM : CF_OK;
        }
    } else if (*p == '#') {
        on_comment(a, p, (size_t)(end - p), lineno);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    {
        cf__nccl_line l;
        cf__nccl_parse(s, n, &l);
        if (l.kind != CF__NL_NONE) {
            on_nccl(a, &l, lineno);
            return a->oom ? CF_ENOMEM : CF_OK;
        }
    }
    if (p == s && cf__starts(s, n, "CA '")) {
        hw_start(a);
        ib_line(a, s, n, lineno, CF__PART_IBSTAT);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (cf__starts(p, (size_t)(end - p), "hca_id:")) {
        hw_start(a);
        ib_line(a, s, n, lineno, CF__PART_IBV);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (*p == 'G' && cf__starts(p, (size_t)(end - p), "GPU0")) {
        cf__topo tmp;
        if (cf__topo_header(p, (size_t)(end - p), &tmp)) {
            hw_start(a);
            a->f_topo = cf__audit_new_part(a, CF__PART_TOPO, lineno);
            if (a->f_topo < 0) return CF_ENOMEM;
            *a->parts[a->f_topo].topo = tmp;
            a->topo_state = CF__TOPO_MATRIX;
            return CF_OK;
        }
    }
    if (end - p == 3 && memcmp(p, "...", 3) == 0) {
        if (a->in_rank_list && a->f_run >= 0) a->parts[a->f_run].r->list_gap = 1;
        return CF_OK;
    }
    if (!other_line(a, s, n, lineno) && a->f_run >= 0) {
        /* a result row behind extra leading columns ("rank7  8  2  float ...") */
        cf__perf_row row;
        int k = cf__perf_parse_row(p, (size_t)(end - p), &a->parts[a->f_run].r->lay, &row);
        if (k == CF__ROW_OK) cf__audit_add_row(a, &row, k, lineno);
    }
    return a->oom ? CF_ENOMEM : CF_OK;
}
