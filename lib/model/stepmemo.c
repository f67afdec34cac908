/* stepmemo.c — the memo that one search keeps for the step model (issue
 * 20's search cost): `plan` predicts hundreds of thousands of steps per
 * node type, and they ask the same questions again and again.
 *
 * Collective times: the 405B plan over the catalog asked the collective
 * model 2.64 M questions of which 12,129 differ, deepseek-v3's 10.3 M of
 * 52,244 (the TP all-gather of a micro-batch is the same at every pipeline
 * depth, ZeRO stage and recompute; the DP all-reduce of a stage's
 * gradients at every micro-batch). A question is (collective, bytes as the
 * collective model receives them, nodes, ranks per node) with the
 * algorithm left to the model (auto): the only inputs of
 * cf_collective_predict besides the fabric.
 *
 * Per-layer parts of an LLM step (model/step.c): a layer's compute and its
 * TP, CP and EP communication depend on tp, cp, the micro-batch, ep, etp,
 * the recompute and the compute rate, not on pp, dp, vp or (for an MoE
 * model) the ZeRO stage, so one answer serves every pipeline depth of a
 * split. The key holds every value of the layout and of the step's
 * dimensions they read (cf__layer_key); the workload shape, precision and
 * framework they also read are the memo's binding, checked on every step
 * (cf__step_memo_fits).
 *
 * Both tables are direct-mapped: a question whose slot holds another is
 * computed again and takes the slot; nothing kept is ever wrong, only
 * recomputed. Only answers the model gave are kept: a refusal is asked
 * again, so its reason is formatted where the caller wants one. Bound to
 * one fabric (and workload shape) by cf__step_memo_reset; the step model
 * ignores a memo bound to another fabric. No allocation. */
#include <math.h>
#include <string.h>
#include "model/model_int.h"

void cf__step_memo_reset(cf__step_memo *m, const cf_fabric *fab, const cf_workload *w)
{
    memset(m->coll, 0, sizeof m->coll);
    memset(m->layer, 0, sizeof m->layer);
    m->fab = fab;
    m->gpu = NULL;
    m->bound = w != NULL;
    /* memcpy: the padding too, so that a copy of w compares equal */
    if (w) memcpy(&m->llm, &w->llm, sizeof m->llm);
    else memset(&m->llm, 0, sizeof m->llm);
    m->precision = w ? w->precision : CF_PREC_BF16;
    m->framework = w ? w->framework : CF_FW_DEFAULT;
    for (size_t i = 0; i < sizeof m->eff / sizeof m->eff[0]; i++) m->eff[i] = NAN;
    m->flops_ok = 0;
    if (w && w->kind == CF_WL_LLM) {
        cf__mem_shape_init(w, &m->ms);
        cf__mem_shape_mix(&m->ms, &w->llm);
    }
    else memset(&m->ms, 0, sizeof m->ms);
    m->hits = m->misses = m->layer_hits = m->layer_misses = 0;
}

int cf__step_memo_fits(const cf__step_memo *m, const cf_workload *w)
{
    return m->bound && w->precision == m->precision && w->framework == m->framework &&
           memcmp(&w->llm, &m->llm, sizeof m->llm) == 0;
}

/* A 64-bit mix (splitmix64's finaliser). */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* The slot of a collective question, cut to the table's size. */
static size_t coll_slot(int op, uint64_t bytes, int nodes, int rpn)
{
    uint64_t x = bytes ^ ((uint64_t)(unsigned)op << 56) ^ ((uint64_t)(unsigned)nodes << 20) ^
                 ((uint64_t)(unsigned)rpn << 44);
    return (size_t)(mix(x) & (CF__COLL_MEMO_SLOTS - 1));
}

int cf__coll_memo_get(cf__step_memo *m, int op, uint64_t bytes, int nodes, int rpn, double *time_s)
{
    const cf__coll_memo_slot *s = &m->coll[coll_slot(op, bytes, nodes, rpn)];
    if (s->op == op + 1 && s->bytes == bytes && s->nodes == nodes && s->rpn == rpn) {
        *time_s = s->time_s;
        m->hits++;
        return 1;
    }
    m->misses++;
    return 0;
}

void cf__coll_memo_put(cf__step_memo *m, int op, uint64_t bytes, int nodes, int rpn, double time_s)
{
    cf__coll_memo_slot *s = &m->coll[coll_slot(op, bytes, nodes, rpn)];
    s->op = op + 1;
    s->bytes = bytes;
    s->nodes = nodes;
    s->rpn = rpn;
    s->time_s = time_s;
}

static uint64_t bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* The slot of a layer key. */
static size_t layer_slot(const cf__layer_key *k)
{
    uint64_t x = (uint64_t)(unsigned)k->tp | (uint64_t)(unsigned)k->cp << 8 |
                 (uint64_t)(unsigned)k->micro_batch << 16 | (uint64_t)(unsigned)k->ep << 24 |
                 (uint64_t)(unsigned)k->etp << 40 | (uint64_t)(unsigned)k->recompute << 56 |
                 (uint64_t)(unsigned)k->sp << 60 | (uint64_t)(unsigned)k->tp_overlap << 62;
    /* the doubles folded in by odd multipliers, one mix for all */
    x ^= bits(k->rc_frac) * 0x9e3779b97f4a7c15ULL ^ bits(k->peak) * 0xc2b2ae3d27d4eb4fULL ^
         bits(k->peak_attn) * 0x165667b19e3779f9ULL;
    return (size_t)(mix(x) & (CF__LAYER_MEMO_SLOTS - 1));
}

/* Field by field (the key has padding); the doubles by value, so a NAN
 * never matches and is computed again. */
static int same_key(const cf__layer_key *a, const cf__layer_key *b)
{
    return a->tp == b->tp && a->cp == b->cp && a->micro_batch == b->micro_batch && a->ep == b->ep &&
           a->etp == b->etp && a->recompute == b->recompute && a->sp == b->sp &&
           a->tp_overlap == b->tp_overlap && a->rc_frac == b->rc_frac && a->peak == b->peak &&
           a->peak_attn == b->peak_attn;
}

int cf__layer_memo_get(cf__step_memo *m, const cf__layer_key *k, cf__layer_parts *out)
{
    const cf__layer_memo_slot *s = &m->layer[layer_slot(k)];
    if (s->used && same_key(&s->key, k)) {
        *out = s->parts;
        m->layer_hits++;
        return 1;
    }
    m->layer_misses++;
    return 0;
}

void cf__layer_memo_put(cf__step_memo *m, const cf__layer_key *k, const cf__layer_parts *p)
{
    cf__layer_memo_slot *s = &m->layer[layer_slot(k)];
    s->used = 1;
    s->key = *k;
    s->parts = *p;
}
