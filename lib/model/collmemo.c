/* collmemo.c — the memo of collective times that one search keeps for one
 * fabric (issue 20's search cost): `plan` predicts hundreds of thousands
 * of steps per node type, and each asks the collective model the same few
 * hundred questions (the TP all-gather of a micro-batch is the same at
 * every pipeline depth, ZeRO stage and recompute; the DP all-reduce of a
 * stage's gradients at every micro-batch): the 405B plan over the catalog
 * asked 2.64 M collectives of which 12,129 differ, deepseek-v3's 10.3 M of
 * 52,244.
 *
 * A question is (collective, bytes as the collective model receives them,
 * nodes, ranks per node) with the algorithm left to the model (auto): the
 * only inputs of cf_collective_predict besides the fabric, so a slot gives
 * back exactly the time the model would compute (the same function of the
 * same inputs). The table is direct-mapped: a question whose slot holds
 * another is asked again and takes the slot; nothing is ever wrong, only
 * recomputed. Only answers the model gave (CF_OK) are kept: a refusal is
 * asked again, so its reason is formatted where the caller wants one.
 * The memo is bound to one fabric by cf__coll_memo_reset; the step model
 * ignores a memo bound to another (model/step.c). No allocation. */
#include <string.h>
#include "model/model_int.h"

void cf__coll_memo_reset(cf__coll_memo *m, const cf_fabric *fab)
{
    memset(m->slot, 0, sizeof m->slot);
    m->fab = fab;
    m->hits = m->misses = 0;
}

/* The slot of a question: a 64-bit mix (splitmix64's finaliser) of its
 * fields, cut to the table's size (a power of two). */
static size_t slot_of(int op, uint64_t bytes, int nodes, int rpn)
{
    uint64_t x = bytes ^ ((uint64_t)(unsigned)op << 56) ^ ((uint64_t)(unsigned)nodes << 20) ^
                 ((uint64_t)(unsigned)rpn << 44);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (size_t)(x & (CF__COLL_MEMO_SLOTS - 1));
}

int cf__coll_memo_get(cf__coll_memo *m, int op, uint64_t bytes, int nodes, int rpn, double *time_s)
{
    const cf__coll_memo_slot *s = &m->slot[slot_of(op, bytes, nodes, rpn)];
    if (s->op == op + 1 && s->bytes == bytes && s->nodes == nodes && s->rpn == rpn) {
        *time_s = s->time_s;
        m->hits++;
        return 1;
    }
    m->misses++;
    return 0;
}

void cf__coll_memo_put(cf__coll_memo *m, int op, uint64_t bytes, int nodes, int rpn, double time_s)
{
    cf__coll_memo_slot *s = &m->slot[slot_of(op, bytes, nodes, rpn)];
    s->op = op + 1;
    s->bytes = bytes;
    s->nodes = nodes;
    s->rpn = rpn;
    s->time_s = time_s;
}
