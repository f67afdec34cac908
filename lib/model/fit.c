/* fit.c — `fit`: the smallest number of nodes (of a GPU model and GPUs per
 * node) on which a workload fits in GPU memory, and a layout that fits
 * there (DESIGN.md §4.3).
 *
 * LLMs: for N = 1, 2, ... nodes, every layout with tp a divisor of the GPUs
 * per node (and of the heads), pp up to the layers, cp in {1, 2, 4, 8} when
 * seq >= 8192 (DESIGN §4.5), ZeRO 1, 2, 3 (0 with one data-parallel rank;
 * the workload's layout_hint.zero when it has one), recompute none,
 * selective, full, micro-batch 1, sequence parallel on. Of the layouts that
 * fit, `fit` keeps the one with the least model parallelism (tp*pp*cp),
 * then the lowest ZeRO stage, then the least recompute, then pp before tp
 * growth (smaller tp): the layout an experienced user tries first. The
 * fastest layout on a given fabric is `plan`'s job. Other kinds: memory per
 * GPU falls with the GPU count (data-parallel batch per GPU, stencil cells
 * per GPU); an embarrassingly parallel task fits one GPU or nowhere.
 * Allocation-free; a refusal says why in the caller's cf_error. */
#include <math.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "model/model_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

typedef struct best {
    int found;
    long score;
    double bytes;
    cf_layout lay;
} best;

static void consider(best *b, const cf_layout *l, long score, double bytes)
{
    if (!b->found || score < b->score || (score == b->score && bytes < b->bytes)) {
        b->found = 1;
        b->score = score;
        b->bytes = bytes;
        b->lay = *l;
    }
}

/* The layouts with tp, cp and pp given (dp = the rest of the GPUs): for each
 * ZeRO stage allowed, the least recompute that fits. */
static void try_pp(const cf_workload *w, int tp, int cp, long pp, long dp, double usable, best *b)
{
    static const cf_recompute rcs[] = {CF_RECOMPUTE_NONE, CF_RECOMPUTE_SELECTIVE, CF_RECOMPUTE_FULL};
    if (pp > w->llm.layers || dp < 1 || dp > w->global_batch_seqs) return;
    for (int z = 0; z <= 3; z++) {
        if (w->zero_hint >= 0 ? z != w->zero_hint : (dp * cp > 1 ? z == 0 : z != 0))
            continue;
        for (size_t ri = 0; ri < 3; ri++) {
            cf_layout l;
            double bytes;
            long score;
            cf_layout_init(&l);
            l.tp = tp;
            l.pp = (int)pp;
            l.dp = (int)dp;
            l.cp = cp;
            l.zero = z;
            l.recompute = rcs[ri];
            bytes = cf__llm_memory_bytes(w, &l, NULL);
            if (bytes > usable) continue;
            score = (((long)tp * pp * cp) * 16 + z) * 4 + (long)ri;
            consider(b, &l, score, bytes);
            break;  /* more recompute only scores worse */
        }
    }
}

static int llm_fit_on(const cf_workload *w, int gpn, long nodes, double usable, best *b)
{
    static const int cps[] = {1, 2, 4, 8};
    long gpus = nodes * gpn;
    const cf_llm_shape *s = &w->llm;
    memset(b, 0, sizeof *b);
    for (int tp = 1; tp <= gpn; tp++) {
        if (gpn % tp != 0 || s->heads % tp != 0) continue;
        for (size_t ci = 0; ci < sizeof cps / sizeof cps[0]; ci++) {
            int cp = cps[ci];
            long rest;
            if (cp > 1 && (s->seq < 8192 || s->seq % cp != 0)) continue;
            if (gpus % ((long)tp * cp) != 0) continue;
            rest = gpus / ((long)tp * cp);
            /* pp runs over the divisors of rest, found in pairs (d, rest/d)
             * up to sqrt(rest): a loop to the layers (a file may say 10^12)
             * or to rest would take minutes when nothing fits. The order
             * does not matter: scores differ for different pp. */
            for (long d = 1; d <= rest / d; d++) {
                if (rest % d != 0) continue;
                try_pp(w, tp, cp, d, rest / d, usable, b);
                if (d != rest / d) try_pp(w, tp, cp, rest / d, d, usable, b);
            }
        }
    }
    return b->found;
}

cf_status cf_fit(const cf_workload *w, const char *gpu, int gpus_per_node, cf_fit_result *out,
                 cf_error *err)
{
    double usable;
    cf_status st;
    if (!w || !gpu || !out) {
        cf_error_set(err, NULL, 0, 0, "no workload, GPU or result");
        return CF_EINVAL;
    }
    if (cf__int_check("gpus_per_node", gpus_per_node, 1, CF_MAX_GPUS_PER_NODE, err) != CF_OK)
        return CF_EINVAL;
    memset(out, 0, sizeof *out);
    cf_layout_init(&out->layout);
    out->memory_per_gpu_gib = NAN;
    usable = cf__gpu_usable_bytes(gpu);
    if (!(usable > 0)) {
        const cf_gpu_spec *g;
        st = cf__gpu_check(gpu, &g, err);
        if (st == CF_OK && err)
            cf_error_set_param(err, "gpu", "the hardware table states no memory for gpu %s", g->name);
        return CF_ENOTFOUND;
    }
    for (long n = 1; n <= CF_FIT_MAX_NODES; n++) {
        long gpus = n * gpus_per_node;
        if (w->kind == CF_WL_LLM) {
            best b;
            if (!llm_fit_on(w, gpus_per_node, n, usable, &b)) continue;
            out->min_nodes = (int)n;
            out->layout = b.lay;
            out->memory_per_gpu_gib = b.bytes / GIB;
            break;
        } else {
            double bytes = cf__other_memory_bytes(w, gpus);
            if (bytes > usable) {
                if (w->kind == CF_WL_EMBARRASSING) break;   /* per task: more GPUs do not help */
                continue;
            }
            out->min_nodes = (int)n;
            out->layout.dp = (int)gpus;
            out->memory_per_gpu_gib = bytes / GIB;
            break;
        }
    }
    out->fits_one_node = out->min_nodes == 1;
    return CF_OK;
}

json_t *cf_fit_result_to_json(const cf_fit_result *r)
{
    json_t *o, *l = NULL;
    o = json_object();
    if (!o) return NULL;
    if (r->min_nodes > 0) {
        l = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:s}", "tp", r->layout.tp, "pp", r->layout.pp,
                      "dp", r->layout.dp, "cp", r->layout.cp, "micro_batch", r->layout.micro_batch,
                      "zero", r->layout.zero, "recompute", cf_recompute_name(r->layout.recompute));
        if (!l) goto fail;
    } else {
        l = json_null();
    }
    if (json_object_set_new(o, "fits_one_node", json_boolean(r->fits_one_node)) != 0 ||
        json_object_set_new(o, "min_nodes", json_integer(r->min_nodes)) != 0 ||
        json_object_set_new(o, "memory_per_gpu_gib",
                            r->min_nodes > 0 ? json_real(r->memory_per_gpu_gib) : json_null()) != 0)
        goto fail;
    if (json_object_set_new(o, "layout", l) != 0) {
        l = NULL;
        goto fail;
    }
    return o;
fail:
    json_decref(l);
    json_decref(o);
    return NULL;
}
