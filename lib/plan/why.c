/* why.c — the sentences of `plan` and `scale` (DESIGN §4.5: every row has a
 * why): the why line of a ranked row (bottleneck; scaling efficiency E;
 * parallel efficiency P with sticker vs effective price) and the scaling
 * note that explains an E above CF_PLAN_E_NOTE_MIN.
 *
 * The bottleneck is the largest of the exposed communication and bubble
 * terms of the step model's breakdown, named with the link it crosses; under
 * WHY_MIN_SHARE of the step none is blamed and the row is compute-bound. An
 * E above 1 is blamed on memory only when the fastest layout on N0 without
 * the memory limit would be at least as fast per GPU as the row's
 * (cf__plan_free_step_s): then the extra nodes only buy room for a faster
 * layout. Sentences are built with snprintf into caller buffers: no
 * allocation except the note's JSON. */
#include <math.h>
#include <stdio.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "model/model_int.h"

/* Below this share of the step, no communication or bubble term is called
 * the bottleneck: the row is compute-bound. */
#define WHY_MIN_SHARE 0.05

/* "over 3200 Gbit/s EFA", or the NVLink of one node; a group of `gpus` GPUs
 * (0: no more than a node's) larger than the node but inside an NVL72
 * domain (GB200/GB300: 4 GPUs a node, 72 a domain) runs "within the NVLink
 * domain (nvl72)". */
static void over_text(char *buf, size_t cap, const cf_offering *o, int nodes, long gpus)
{
    if ((nodes <= 1 || o->network == CF_NET_NONE) && o->intra_link == CF_INTRA_NVL72 &&
        gpus > o->gpus_per_node)
        snprintf(buf, cap, "within the NVLink domain (%s)", cf_intra_link_name(o->intra_link));
    else if (nodes <= 1 || o->network == CF_NET_NONE)
        snprintf(buf, cap, "within the node (%s)", cf_intra_link_name(o->intra_link));
    else if (!isnan(o->network_gbps_per_node))
        snprintf(buf, cap, "over %.0f Gbit/s %s", o->network_gbps_per_node, cf_network_label(o->network));
    else
        snprintf(buf, cap, "over %s", cf_network_label(o->network));
}

void cf__plan_e_reason(char *buf, size_t cap, const cf__plan_point *p0, const cf__plan_point *pt,
                       int llm, int memory_bound)
{
    char l0[96], l1[96];
    cf_layout_words(l0, sizeof l0, &p0->lay, llm ? CF_WL_LLM : CF_WL_DATA_PARALLEL);
    cf_layout_words(l1, sizeof l1, &pt->lay, llm ? CF_WL_LLM : CF_WL_DATA_PARALLEL);
    if (memory_bound)
        snprintf(buf, cap, "above 1 because memory binds on %d node%s: the fastest layout that fits "
                 "there is %s, while %d nodes have room for %s", p0->nodes, p0->nodes == 1 ? "" : "s",
                 l0, pt->nodes, l1);
    else
        snprintf(buf, cap, "above 1: on %d node%s the fastest layout is %s, and even without the "
                 "memory limit no layout of its %ld GPUs is as fast per GPU as %s on %d nodes",
                 p0->nodes, p0->nodes == 1 ? "" : "s", l0,
                 (long)p0->lay.tp * p0->lay.pp * p0->lay.dp * p0->lay.cp,
                 l1, pt->nodes);
}

/* Whether E at pt is above 1 only because memory binds on N0 (see plan.h). */
static int memory_bound(const cf__plan_point *pt, const cf__plan_point *p0, double free0_s)
{
    double ef = cf__plan_scaling_eff(pt->nodes, cf__plan_pt_s(pt), p0->nodes, free0_s);
    return !(ef > 1.0 + 1e-9);
}

/* The sentence for a step with no term above WHY_MIN_SHARE. */
/* The parts of a step the why line weighs: TP, bubble, PP, DP, CP, EP. */
#define WHY_TERMS 6

static void compute_bound_text(char *what, size_t cap, const cf__plan_point *pt, const double *terms)
{
    double st = pt->res.step_time_s, comm = 0;
    char mfu[32] = "";
    for (int i = 0; i < WHY_TERMS; i++) comm += terms[i] > 0 ? terms[i] : 0;
    if (pt->res.mfu > 0) snprintf(mfu, sizeof mfu, " (MFU %.0f %%)", pt->res.mfu * 100);
    snprintf(what, cap, "no communication bottleneck: communication and bubble %.0f %% of the step%s",
             st > 0 ? 100 * comm / st : 0.0, mfu);
}

/* The sentence for bottleneck term k (0 TP, 1 bubble, 2 PP send/recv, 3 DP,
 * 4 CP, 5 EP all-to-all) taking pct % of the step. */
static void bottleneck_text(char *what, size_t cap, const cf_offering *o, const cf__plan_point *pt,
                            int k, int pct, int kind)
{
    const cf_layout *l = &pt->lay;
    char over[96];
    over_text(over, sizeof over, o, pt->nodes, 0);
    switch (k) {
    case 0: {
        char tpover[96];
        int span = (o->intra_link == CF_INTRA_NVL72 || l->tp <= o->gpus_per_node) ? 1 : pt->nodes;
        over_text(tpover, sizeof tpover, o, span, l->tp);
        snprintf(what, cap, "TP %s %s exposes %d %% of the step",
                 l->sequence_parallel ? "all-gather/reduce-scatter" : "all-reduce", tpover, pct);
        break;
    }
    case 1:
        snprintf(what, cap, "pipeline bubble (PP%d%s) takes %d %% of the step", l->pp,
                 l->vp > 1 ? " interleaved" : "", pct);
        break;
    case 2:
        snprintf(what, cap, "PP send/recv %s exposes %d %% of the step", over, pct);
        break;
    case 3:
        /* A stencil's ranks are not data-parallel replicas (mpi.c): its
         * term is the halo exchange and the residual's all-reduce. */
        if (kind == CF_WL_STENCIL)
            snprintf(what, cap, "MPI halo exchange and all-reduce %s expose %d %% of the step", over, pct);
        else
            snprintf(what, cap, "DP %s %s exposes %d %% of the step",
                     l->zero == 3 ? "all-gather/reduce-scatter (ZeRO-3)" : "all-reduce", over, pct);
        break;
    case 4:
        snprintf(what, cap, "CP K/V exchange %s exposes %d %% of the step", over, pct);
        break;
    default: {
        /* The EP group: ep ranks etp apart, within one NVLink domain when
         * ep*etp GPUs fit in it. */
        char epover[96];
        long span_gpus = (long)(l->ep > 0 ? l->ep : 1) * (l->etp > 0 ? l->etp : 1);
        int dom = o->intra_link == CF_INTRA_NVL72 ? (int)CF_K(NVL72_DOMAIN_GPUS) : o->gpus_per_node;
        int span = span_gpus <= dom ? 1 : (int)((span_gpus + o->gpus_per_node - 1) / o->gpus_per_node);
        over_text(epover, sizeof epover, o, span > pt->nodes ? pt->nodes : span, span_gpus);
        snprintf(what, cap, "MoE all-to-all (dispatch and combine over EP%d) %s exposes %d %% of the step",
                 l->ep, epover, pct);
        break;
    }
    }
}

/* The E part of the why line. */
static void efficiency_text(char *eff, size_t cap, const cf__plan_point *pt,
                            const cf__plan_point *p0, int n0, double e, int llm, double free0_s)
{
    if (pt->nodes == n0)
        snprintf(eff, cap, "E %.2f on the smallest cluster that fits (%d node%s)", e, n0,
                 n0 == 1 ? "" : "s");
    else if (e > CF_PLAN_E_NOTE_MIN && p0) {
        char reason[400];
        cf__plan_e_reason(reason, sizeof reason, p0, pt, llm, memory_bound(pt, p0, free0_s));
        snprintf(eff, cap, "E %.2f at %d nodes vs %d, %s", e, pt->nodes, n0, reason);
    } else
        snprintf(eff, cap, "E %.2f at %d nodes vs %d", e, pt->nodes, n0);
}

void cf__plan_why(char *buf, size_t cap, const cf_offering *o, const cf__plan_point *pt,
                  const cf__plan_point *p0, int n0, double e, double p, double sticker,
                  double effective, const char *currency, int kind, double free0_s)
{
    int llm = kind == CF_WL_LLM;
    const cf_step_breakdown *b = &pt->res.breakdown;
    double st = pt->res.step_time_s;
    double terms[WHY_TERMS] = {b->tp_comm_s, b->pp_bubble_s, b->pp_comm_s, b->dp_comm_exposed_s,
                               b->cp_comm_s, b->ep_comm_s};
    int k = 0;
    char what[256], eff[512];
    for (int i = 1; i < WHY_TERMS; i++)
        if (terms[i] > terms[k]) k = i;
    if (!(st > 0) || !(terms[k] / st >= WHY_MIN_SHARE))
        compute_bound_text(what, sizeof what, pt, terms);
    else
        bottleneck_text(what, sizeof what, o, pt, k, (int)lround(100 * terms[k] / st), kind);
    efficiency_text(eff, sizeof eff, pt, p0, n0, e, llm, free0_s);
    snprintf(buf, cap, "%s; %s; P %.2f: %.2f %s/GPU-h sticker is %.2f effective", what, eff, p,
             sticker, currency, effective);
}

json_t *cf__plan_scaling_note(const cf__plan_point *pt, const cf__plan_point *p0, double e,
                              int llm, double free0_s)
{
    char reason[400], text[480];
    int mem, bad = 0;
    json_t *j;
    if (!p0 || !pt->found || pt == p0 || !(e > CF_PLAN_E_NOTE_MIN)) return json_null();
    mem = memory_bound(pt, p0, free0_s);
    cf__plan_e_reason(reason, sizeof reason, p0, pt, llm, mem);
    snprintf(text, sizeof text, "E %.2f at %d nodes is %s.", e, pt->nodes, reason);
    if (!(j = json_object())) return NULL;
    bad |= cf__json_set(j, "text", json_string(text));
    bad |= cf__json_set(j, "cause", json_string(mem ? "memory" : "other"));
    bad |= cf__json_set(j, "n0", json_integer(p0->nodes));
    bad |= cf__json_set(j, "n0_layout", cf__plan_layout_json(&p0->lay, 0));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}
