/* group.c — which segments are one run (DESIGN §5 "several runs in one
 * input"): union-find over the segments, joined where the input links them
 * (a shared communicator id, a process of one in the other's rank list,
 * disjoint ranks of one communicator size), hardware dumps joined to the
 * only run there is; then each group's evidence is merged into its root
 * segment, and the groups are numbered in input order. Also which run the
 * top level of the report describes.
 *
 * Shape: runs once, in cf_audit_finish(), after the last line; allocates
 * only per-segment flags for the grouping (freed before it returns) and
 * whatever the merge of hash sets needs (a->oom on failure). After it, a
 * segment's `root` is its group's root and only roots are judged. */
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

static int seg_find(cf_audit *a, int i)
{
    while (a->segs[i]->root != i) {
        a->segs[i]->root = a->segs[a->segs[i]->root]->root;
        i = a->segs[i]->root;
    }
    return i;
}

/* Joins the groups of segments i and j unless both hold an nccl-tests run
 * (each run is its own). The lower index stays the root. */
static void seg_union(cf_audit *a, int i, int j, char *grp_run)
{
    int ri = seg_find(a, i), rj = seg_find(a, j), lo, hi;
    if (ri == rj || (grp_run[ri] && grp_run[rj])) return;
    lo = ri < rj ? ri : rj;
    hi = ri < rj ? rj : ri;
    a->segs[hi]->root = lo;
    grp_run[lo] |= grp_run[hi];
}

/* 1 if some key of `x` is in `y`. */
static int kv_meet(const cf__kvset *x, const cf__kvset *y)
{
    if (x->n > y->n) {
        const cf__kvset *t = x;
        x = y;
        y = t;
    }
    for (size_t i = 0; i < x->cap; i++)
        if (x->slots[i].key && cf__kvset_find(y, x->slots[i].key)) return 1;
    return 0;
}

/* 1 if the segments show the same job: a shared communicator id; a process
 * of one in the other's nccl-tests rank list; or one communicator size with
 * disjoint ranks (per-rank log files) and no different NCCL version. */
static int segs_linked(const cf__audit_seg *x, const cf__audit_seg *y)
{
    long nr = x->ev.nranks;
    for (int i = 0; i < x->ncomm; i++)
        for (int k = 0; k < y->ncomm; k++)
            if (x->comm_ids[i] == y->comm_ids[k]) return 1;
    if (kv_meet(&x->procs, &y->list_procs) || kv_meet(&y->procs, &x->list_procs)) return 1;
    if (nr <= 0 || nr != y->ev.nranks) return 0;
    if (x->ev.version[0] && y->ev.version[0] && strcmp(x->ev.version, y->ev.version) != 0) return 0;
    for (size_t i = 0; i < x->ranks.cap; i++) {
        const cf__kv *e = &x->ranks.slots[i], *f;
        if (!e->key || e->v[CF__RANKS_NRANKS] != nr) continue;
        f = cf__kvset_find(&y->ranks, e->key);
        if (f && f->v[CF__RANKS_NRANKS] == nr) return 0;
    }
    return 1;
}

/* Adds set s to d (hosts, ranks or process sets): of v[0] (the host's
 * count, the rank's host) the first non-zero is kept, of v[1] (version
 * printed, the rank's communicator size) the largest. */
static void kv_merge(cf_audit *a, cf__kvset *d, const cf__kvset *s)
{
    for (size_t i = 0; i < s->cap; i++) {
        const cf__kv *e = &s->slots[i];
        cf__kv *f;
        if (!e->key) continue;
        f = cf__kvset_get(d, e->key, &a->oom);
        if (!f) continue;
        f->v[0] = f->v[0] ? f->v[0] : e->v[0];
        if (e->v[1] > f->v[1]) f->v[1] = e->v[1];
    }
}

/* Adds the evidence of a later segment `s` to `d` (counts add up, the first
 * location and message stay). */
static void ev_merge_net_setup(cf__audit_netev *d, const cf__audit_netev *s);

static void ev_merge(cf_audit *a, cf__audit_netev *d, const cf__audit_netev *s)
{
    d->lines += s->lines;
    if (!d->version[0]) cf__copy(d->version, sizeof d->version, s->version);
    if (!d->net_name[0] && s->net_name[0]) {
        cf__copy(d->net_name, sizeof d->net_name, s->net_name);
        d->net_family = s->net_family;
        d->net_loc = s->net_loc;
    }
    if (!d->plugin_name[0] && s->plugin_name[0]) {
        cf__copy(d->plugin_name, sizeof d->plugin_name, s->plugin_name);
        d->plugin_family = s->plugin_family;
        d->plugin_loc = s->plugin_loc;
    }
    d->plugin_used |= s->plugin_used && s->plugin_family == d->plugin_family;
    if (!d->ib_using_loc.line) d->ib_using_loc = s->ib_using_loc;
    for (int i = 0; i < s->n_ibdevs; i++) {
        const cf__ibdev *n = &s->ibdevs[i].d;
        int k;
        for (k = 0; k < d->n_ibdevs; k++) {
            const cf__ibdev *o = &d->ibdevs[k].d;
            if (o->idx == n->idx && o->port == n->port && o->ll == n->ll && strcmp(o->name, n->name) == 0)
                break;
        }
        if (k == d->n_ibdevs && d->n_ibdevs < CF__AUDIT_MAX_IBDEVS) {
            d->ibdevs[d->n_ibdevs] = s->ibdevs[i];
            cf__audit_index_dev(d, d->n_ibdevs);
            d->n_ibdevs++;
        }
    }
    if (!d->ofi_provider[0] && s->ofi_provider[0]) {
        cf__copy(d->ofi_provider, sizeof d->ofi_provider, s->ofi_provider);
        d->ofi_loc = s->ofi_loc;
    }
    d->ofi_plugin |= s->ofi_plugin;
    for (int f = 0; f < CF__NCCLNET__COUNT; f++) {
        if (!d->ch[f]) d->ch_loc[f] = s->ch_loc[f];
        d->ch[f] += s->ch[f];
    }
    if (!d->ch_net[0]) cf__copy(d->ch_net, sizeof d->ch_net, s->ch_net);
    for (int k = 0; k < 3; k++) d->ch_ll[k] += s->ch_ll[k];
    d->gdr_hca_on += s->gdr_hca_on;
    if (!d->gdr_hca_off) d->gdr_hca_off_loc = s->gdr_hca_off_loc;
    d->gdr_hca_off += s->gdr_hca_off;
    d->gdr_gpu_on += s->gdr_gpu_on;
    if (!d->gdr_gpu_off) d->gdr_gpu_off_loc = s->gdr_gpu_off_loc;
    d->gdr_gpu_off += s->gdr_gpu_off;
    if (d->off_distance < 0) {
        d->off_distance = s->off_distance;
        d->off_distance_max = s->off_distance_max;
    }
    for (size_t i = 0; i < s->rank_gdr.cap; i++) {
        const cf__kv *e = &s->rank_gdr.slots[i];
        cf__kv *f;
        if (!e->key || !(f = cf__kvset_get(&d->rank_gdr, e->key, &a->oom))) continue;
        for (int k = 0; k < CF__RG__COUNT; k++) f->v[k] += e->v[k];
    }
    if (!d->first_gdr_ch.line) d->first_gdr_ch = s->first_gdr_ch;
    if (!d->first_nogdr_ch.line) d->first_nogdr_ch = s->first_nogdr_ch;
    if (s->gdr_level > d->gdr_level) {
        d->gdr_level = s->gdr_level;
        cf__copy(d->gdr_level_text, sizeof d->gdr_level_text, s->gdr_level_text);
        d->gdr_level_loc = s->gdr_level_loc;
    }
    if (!d->gdr_env_off) d->gdr_env_off_loc = s->gdr_env_off_loc;
    d->gdr_env_off += s->gdr_env_off;
    if (!d->dmabuf) d->dmabuf_loc = s->dmabuf_loc;
    d->dmabuf += s->dmabuf;
    if (d->ib_disable < 0) {
        d->ib_disable = s->ib_disable;
        d->ib_disable_loc = s->ib_disable_loc;
    }
    if (s->nranks > d->nranks) {
        d->nranks = s->nranks;
        d->nnodes = s->nnodes;
    } else if (s->nranks == d->nranks && s->nnodes > d->nnodes) {
        d->nnodes = s->nnodes;
    }
    d->roce_gid |= s->roce_gid;
    if (!d->completion && s->completion) {
        d->completion_status = s->completion_status;
        d->completion_loc = s->completion_loc;
        cf__copy(d->completion_msg, sizeof d->completion_msg, s->completion_msg);
    }
    d->completion += s->completion;
    if (!d->errors && s->errors) {
        d->error_loc = s->error_loc;
        d->error_code = s->error_code;
        cf__copy(d->error_msg, sizeof d->error_msg, s->error_msg);
    }
    d->errors += s->errors;
    if (!d->timeouts && s->timeouts) {
        d->timeout_loc = s->timeout_loc;
        cf__copy(d->timeout_msg, sizeof d->timeout_msg, s->timeout_msg);
    }
    d->timeouts += s->timeouts;
    if (!d->ibverbs_missing) d->ibverbs_loc = s->ibverbs_loc;
    d->ibverbs_missing += s->ibverbs_missing;
    ev_merge_net_setup(d, s);
}

/* What the lines show about how NCCL set its network up: restrictions,
 * the algorithm it chose or was told (tuning lines, NCCL_ALGO), missing devices, soft RoCE, plugins that failed, INFO level. */
static void ev_merge_net_setup(cf__audit_netev *d, const cf__audit_netev *s)
{
    if (!d->hca_env.at.line) d->hca_env = s->hca_env;
    if (!d->ifname_env.at.line) d->ifname_env = s->ifname_env;
    if (!d->algo_env.at.line) d->algo_env = s->algo_env;
    if (s->tuned_bytes > d->tuned_bytes) {
        d->tuned_bytes = s->tuned_bytes;
        d->tuned_algo = s->tuned_algo;
        d->tuned_proto = s->tuned_proto;
        d->tuned_coll = s->tuned_coll;
        d->tuned_at = s->tuned_at;
    }
    if (!d->ib_nodev) d->ib_nodev_loc = s->ib_nodev_loc;
    d->ib_nodev += s->ib_nodev;
    if (!d->soft_roce && s->soft_roce) {
        d->soft_roce_loc = s->soft_roce_loc;
        cf__copy(d->soft_roce_dev, sizeof d->soft_roce_dev, s->soft_roce_dev);
    }
    d->soft_roce += s->soft_roce;
    d->info_lines += s->info_lines;
    d->init_complete += s->init_complete;
    if (!d->plugin_fail && s->plugin_fail) {
        d->plugin_fail_loc = s->plugin_fail_loc;
        d->plugin_fail_code = s->plugin_fail_code;
        cf__copy(d->plugin_fail_msg, sizeof d->plugin_fail_msg, s->plugin_fail_msg);
    }
    d->plugin_fail += s->plugin_fail;
    if (d->gid_index < 0) d->gid_index = s->gid_index;
    d->sock_loopback += s->sock_loopback;
    d->local_channels += s->local_channels;
    d->sock_other += s->sock_other;
}

/* Keeps the first of each hint of d, else s's. */
static void hints_merge(cf__audit_hints *d, const cf__audit_hints *s)
{
    if (!d->restrict_hca.at.line) d->restrict_hca = s->restrict_hca;
    if (!d->restrict_if.at.line) d->restrict_if = s->restrict_if;
    if (!d->container_limit.at.line) d->container_limit = s->container_limit;
    if (!d->ib_disable.at.line) d->ib_disable = s->ib_disable;
    if (!d->algo_env.at.line) d->algo_env = s->algo_env;
    if (!d->gid_index.at.line) d->gid_index = s->gid_index;
    for (int k = 0; k < 3; k++)
        if (!(d->env & (1 << k)) && (s->env & (1 << k))) d->env_at[k] = s->env_at[k];
    d->env |= s->env;
    if (!d->no_devib.line) d->no_devib = s->no_devib;
}

static void seg_merge(cf_audit *a, cf__audit_seg *d, const cf__audit_seg *s)
{
    ev_merge(a, &d->ev, &s->ev);
    kv_merge(a, &d->hosts, &s->hosts);
    kv_merge(a, &d->ranks, &s->ranks);
    kv_merge(a, &d->procs, &s->procs);
    kv_merge(a, &d->list_procs, &s->list_procs);
    if (s->max_rank_seen > d->max_rank_seen) d->max_rank_seen = s->max_rank_seen;
    if (!d->la.seen && s->la.seen) d->la = s->la;
    if (s->env_gdr_level > d->env_gdr_level) {
        d->env_gdr_level = s->env_gdr_level;
        d->env_gdr_loc = s->env_gdr_loc;
    }
    if (!d->lsmod) d->lsmod_loc = s->lsmod_loc;
    d->lsmod += s->lsmod;
    if (!d->peermem) d->peermem_loc = s->peermem_loc;
    d->peermem += s->peermem;
    hints_merge(&d->hints, &s->hints);
}

/* Forms the groups (runs) of DESIGN §5 from the segments: a segment with
 * NCCL lines only joins another file's segment it is linked to; hardware
 * dumps (topology, ports) with no run of their own join the only run of
 * the input, or each other when there is none; with several runs they
 * stay apart (nothing tells which run's nodes they show). Numbers the
 * groups in input order; returns how many hold a run. */
int cf__audit_form_groups(cf_audit *a, int *ngroups)
{
    int ns = a->nsegs, njob = 0, job_root = -1, hw_root = -1, ng = 0;
    char *has_run = NULL, *job = NULL, *grp_run = NULL, *parts = NULL, *mark = NULL;
    *ngroups = 0;
    if (ns == 0) return 0;
    has_run = cf__calloc((size_t)ns, 1);
    job = cf__calloc((size_t)ns, 1);
    grp_run = cf__calloc((size_t)ns, 1);
    parts = cf__calloc((size_t)ns, 1);
    mark = cf__calloc((size_t)ns, 1);
    if (!has_run || !job || !grp_run || !parts || !mark) {
        a->oom = 1;
        goto done;
    }
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        parts[p->seg] = 1;
        if (p->kind == CF__PART_PERF && (cf__audit_run_has_content(p->r) || cf__audit_run_has_facts(p->r))) has_run[p->seg] = 1;
        if (p->kind == CF__PART_PERF || p->kind == CF__PART_NCCL || p->kind == CF__PART_FRAMEWORK) job[p->seg] = 1;
    }
    for (int i = 0; i < ns; i++) {
        a->segs[i]->root = i;
        a->segs[i]->group = 0;
        grp_run[i] = has_run[i];
    }
    /* NCCL-only segments of one file join linked segments of other files */
    for (int i = 0; i < ns; i++) {
        if (!job[i] || has_run[i] || !parts[i]) continue;
        for (int j = 0; j < ns; j++) {
            if (j == i || !job[j] || !parts[j] || a->segs[j]->file == a->segs[i]->file) continue;
            if (segs_linked(a->segs[i], a->segs[j])) seg_union(a, i, j, grp_run);
        }
    }
    /* count the runs: distinct groups of segments with a run or NCCL lines */
    for (int i = 0; i < ns; i++) {
        int r;
        if (!job[i] || !parts[i]) continue;
        r = seg_find(a, i);
        if (!mark[r]) {
            mark[r] = 1;
            njob++;
            job_root = r;
        }
    }
    for (int i = 0; i < ns; i++) {
        if (job[i] || !parts[i]) continue;
        if (njob == 1) seg_union(a, i, job_root, grp_run);
        else if (njob == 0) {
            if (hw_root < 0) hw_root = i;
            else seg_union(a, i, hw_root, grp_run);
        }
    }
    for (int i = 0; i < ns; i++) seg_find(a, i);
    for (int i = 0; i < ns; i++)
        if (a->segs[i]->root != i) seg_merge(a, a->segs[a->segs[i]->root], a->segs[i]);
    for (int i = 0; i < a->nparts; i++) {
        cf__audit_seg *r = a->segs[a->segs[a->parts[i].seg]->root];
        if (!r->group) r->group = ++ng;
    }
    *ngroups = ng;
done:
    cf__free(has_run);
    cf__free(job);
    cf__free(grp_run);
    cf__free(parts);
    cf__free(mark);
    return njob;
}

/* The root segment of part i's group. */
int cf__audit_part_root(const cf_audit *a, int pi) { return a->segs[a->parts[pi].seg]->root; }


void cf__audit_group_roots(const cf_audit *a, int *roots)
{
    for (int i = 0; i < a->nsegs; i++)
        if (a->segs[i]->root == i && a->segs[i]->group > 0) roots[a->segs[i]->group - 1] = i;
}

/* The run the top level describes: the last nccl-tests table's (DESIGN §5:
 * busbw of the last run), else the last NCCL log's or framework log's,
 * else the last part's. */
int cf__audit_primary_group(const cf_audit *a)
{
    int primary = 0;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        if (p->kind == CF__PART_PERF && cf__audit_run_has_content(p->r)) primary = a->segs[cf__audit_part_root(a, i)]->group;
    }
    for (int i = 0; i < a->nparts && !primary; i++) {
        int k = a->nparts - 1 - i;
        const cf__audit_part *p = &a->parts[k];
        if (p->kind == CF__PART_PERF || p->kind == CF__PART_NCCL || p->kind == CF__PART_FRAMEWORK)
            primary = a->segs[cf__audit_part_root(a, k)]->group;
    }
    if (!primary && a->nparts > 0) primary = a->segs[cf__audit_part_root(a, a->nparts - 1)]->group;
    return primary;
}
