/* hash.c — the one FNV-1a loop of the library (64 bit; Fowler, Noll, Vo,
 * http://www.isthe.com/chongo/tech/comp/fnv/) and a set of 64-bit keys
 * with small integer values (open addressing, capped).
 *
 * cf__fnv1a is plain FNV-1a and continues a running hash, so a value built
 * from several pieces (the catalog's shipped-data hash, stored in its
 * file) is the standard hash of their concatenation. cf__hash is the key
 * of the audit's host and rank sets; it starts from CF__HASH_START, not
 * the FNV offset basis, and never returns 0 (the empty-slot key). Its
 * values decide where keys sit in a set, hence the order in which the
 * audit visits them, so that start is kept as it has always been. */
#include <string.h>
#include "base/base.h"

uint64_t cf__fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL; /* the 64-bit FNV prime, 2^40 + 2^8 + 0xb3 */
    }
    return h;
}

uint64_t cf__hash(const char *s, size_t n, uint64_t seed)
{
    uint64_t h = cf__fnv1a(CF__HASH_START ^ seed, s, n);
    return h ? h : 1;
}

/* ----------------------------------------------------------------- kvset */

void cf__kvset_init(cf__kvset *s, size_t max)
{
    memset(s, 0, sizeof *s);
    s->max = max;
}

void cf__kvset_clear(cf__kvset *s)
{
    if (!s) return;
    cf__free(s->slots);
    s->slots = NULL;
    s->cap = s->n = 0;
}

cf__kv *cf__kvset_find(const cf__kvset *s, uint64_t key)
{
    size_t i;
    if (!s->slots || key == 0) return NULL;
    i = (size_t)(key & (s->cap - 1));
    while (s->slots[i].key) {
        if (s->slots[i].key == key) return &s->slots[i];
        i = (i + 1) & (s->cap - 1);
    }
    return NULL;
}

static int kv_grow(cf__kvset *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 64;
    cf__kv *ns = cf__calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    for (size_t k = 0; k < s->cap; k++) {
        if (!s->slots[k].key) continue;
        size_t i = (size_t)(s->slots[k].key & (ncap - 1));
        while (ns[i].key) i = (i + 1) & (ncap - 1);
        ns[i] = s->slots[k];
    }
    cf__free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return 0;
}

cf__kv *cf__kvset_get(cf__kvset *s, uint64_t key, int *oom)
{
    cf__kv *e;
    size_t i;
    if (key == 0) key = 1;
    e = cf__kvset_find(s, key);
    if (e) return e;
    if (s->n >= s->max) {
        s->dropped++;
        return NULL;
    }
    if ((s->n + 1) * 2 > s->cap && kv_grow(s) != 0) {
        if (oom) *oom = 1;
        return NULL;
    }
    i = (size_t)(key & (s->cap - 1));
    while (s->slots[i].key) i = (i + 1) & (s->cap - 1);
    s->slots[i].key = key;
    s->n++;
    return &s->slots[i];
}
