/* fit.c — `fit`: the smallest number of nodes (of a GPU model and GPUs per
 * node) on which a workload fits in GPU memory, and a layout that fits
 * there (DESIGN.md §4.3).
 *
 * LLMs: for N = 1, 2, ... nodes, every TP × CP × PP × DP split of the one
 * layout space (model/layouts.c: tp a divisor of the GPUs per node and of
 * the heads, cp in {1, 2, 4, 8} from 8192 tokens with 2·cp dividing the
 * sequence, pp up to 64 and the layers, dp at most the batch), with ZeRO 1,
 * 2, 3 (0 with one data-parallel rank; the workload's layout_hint.zero when
 * it has one), recompute none, selective, full, micro-batch 1, sequence
 * parallel on. Of the layouts that fit, `fit` keeps the one with the least
 * model parallelism (tp*pp*cp), then the lowest ZeRO stage, then the least
 * recompute, then (MoE) the least expert parallelism, then etp 1 before etp > 1, then the least memory: the layout an experienced user tries
 * first. The fastest layout on a given fabric is `plan`'s job. Other kinds:
 * memory per GPU falls with the GPU count (data-parallel batch per GPU,
 * stencil cells per GPU); an embarrassingly parallel task fits one GPU or
 * nowhere. Allocation-free; a refusal says why in the caller's cf_error. */
#include <math.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "model/model_int.h"
#include "model/serve_int.h"

typedef struct best {
    int found;
    long score;
    double bytes;
    cf_layout lay;
} best;

/* Lower score first; at equal score the least expert tensor parallelism
 * (etp 1 before etp = tp: the experts' matrices stay whole where they
 * can), then the least memory. */
static void consider(best *b, const cf_layout *l, long score, double bytes)
{
    if (!b->found || score < b->score ||
        (score == b->score && (l->etp < b->lay.etp || (l->etp == b->lay.etp && bytes < b->bytes)))) {
        b->found = 1;
        b->score = score;
        b->bytes = bytes;
        b->lay = *l;
    }
}

/* The layouts of one TP × CP × PP × DP split: for each ZeRO stage allowed,
 * the least recompute that fits. */
static void try_split(const cf_workload *w, const cf_layout *split, double usable, best *b)
{
    static const cf_recompute rcs[] = {CF_RECOMPUTE_NONE, CF_RECOMPUTE_SELECTIVE, CF_RECOMPUTE_FULL};
    long mp = (long)split->tp * split->pp * split->cp;  /* model parallelism */
    for (int z = 0; z <= 3; z++) {
        if (w->zero_hint >= 0 ? z != w->zero_hint : ((long)split->dp * split->cp > 1 ? z == 0 : z != 0))
            continue;
        for (size_t ri = 0; ri < 3; ri++) {
            cf_layout l;
            double bytes;
            long eps;
            cf_layout_init(&l);
            l.tp = split->tp;
            l.pp = split->pp;
            l.dp = split->dp;
            l.cp = split->cp;
            l.ep = split->ep;
            l.etp = split->etp;
            l.zero = z;
            l.recompute = rcs[ri];
            bytes = cf__llm_memory_bytes(w, &l, NULL);
            if (bytes > usable) continue;
            /* then the least expert parallelism, ep x etp GPUs per expert
             * layer (the all-to-all stays within the fewest GPUs); at a
             * tie consider() keeps etp 1 */
            eps = (long)l.ep * l.etp;
            if (eps > CF_MAX_LAYOUT_DEGREE) eps = CF_MAX_LAYOUT_DEGREE;
            consider(b, &l, ((mp * 16 + z) * 4 + (long)ri) * (CF_MAX_LAYOUT_DEGREE + 1) + eps, bytes);
            break;  /* more recompute only scores worse */
        }
    }
}

/* The best-scoring layout that fits on `nodes` nodes of `gpn` GPUs. cf_fit
 * is given no intra-node link, so tp stays within one node (no NVL72
 * rack-wide domain). */
static int llm_fit_on(const cf_workload *w, int gpn, long nodes, double usable, best *b)
{
    cf__layout_iter it;
    cf_layout split;
    memset(b, 0, sizeof *b);
    cf_layout_init(&split);
    cf__layout_iter_init(&it, w, nodes * gpn, gpn);
    while (cf__layout_iter_next(&it, &split)) try_split(w, &split, usable, b);
    return b->found;
}

/* The why of an LLM fit: parameters, their states (weights, gradients,
 * optimizer: unsharded), the memory of the layout per GPU by part. */
static void fit_why(cf_fit_result *out, const cf_workload *w, double usable, int gpn)
{
    cf__mem_parts parts;
    const cf_llm_shape *s = &w->llm;
    double total = cf__llm_params_total(s);
    double states = total * (CF_K(BYTES_WEIGHT) + cf__grad_bytes(w) + w->optimizer_bytes_per_param);
    char active[64] = "", fewer[160] = "";
    (void)cf__llm_memory_bytes(w, &out->layout, &parts);
    if (cf__llm_is_moe(s))
        snprintf(active, sizeof active, " (%.3g B active per token)", cf__llm_params_active(s) / 1e9);
    if (out->min_nodes > 1)
        snprintf(fewer, sizeof fewer, "; on %d node%s (%d GPUs) no layout of the search space "
                 "(TP, CP, PP%s, ZeRO, recompute) fits %.1f GiB per GPU", out->min_nodes - 1,
                 out->min_nodes == 2 ? "" : "s", (out->min_nodes - 1) * gpn,
                 cf__llm_is_moe(s) ? ", EP" : "", usable / CF__GIB);
    snprintf(out->why, sizeof out->why, "%.4g B parameters%s hold %.1f TiB of weights, gradients "
             "and optimizer states%s; the layout needs per GPU %.1f GiB of states, %.1f GiB of "
             "activations and %.1f GiB of runtime reserve", total / 1e9, active,
             states / (CF__GIB * 1024.0), fewer, parts.states_bytes / CF__GIB,
             parts.activation_bytes / CF__GIB, parts.reserve_bytes / CF__GIB);
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
    if (cf__serve_refuse(w, "the training fit (cf_fit; cf_serve_fit for serving)", err) != CF_OK)
        return CF_EINVAL;
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
            out->memory_per_gpu_gib = b.bytes / CF__GIB;
            fit_why(out, w, usable, gpus_per_node);
            break;
        } else {
            double bytes = cf__other_memory_bytes(w, gpus);
            if (bytes > usable) {
                if (w->kind == CF_WL_EMBARRASSING) break;   /* per task: more GPUs do not help */
                continue;
            }
            out->min_nodes = (int)n;
            out->layout.dp = (int)gpus;
            out->memory_per_gpu_gib = bytes / CF__GIB;
            break;
        }
    }
    out->fits_one_node = out->min_nodes == 1;
    {
        const cf_gpu_spec *g;
        if (w->kind == CF_WL_LLM && cf_gpu_lookup(gpu, &g) == CF_OK)
            cf_precision_note(g, w->precision, w->name, out->precision_note, sizeof out->precision_note);
    }
    return CF_OK;
}

json_t *cf_fit_result_to_json(const cf_fit_result *r)
{
    json_t *o = json_object(), *l;
    int bad = 0;
    if (!o) return NULL;
    /* With min_nodes > 0 the memory is finite (it fitted under the GPU's). */
    l = r->min_nodes > 0
            ? json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s}", "tp", r->layout.tp,
                        "ep", r->layout.ep > 0 ? r->layout.ep : 1, "etp",
                        r->layout.etp > 0 ? r->layout.etp : 1, "pp", r->layout.pp,
                        "dp", r->layout.dp, "cp", r->layout.cp, "micro_batch", r->layout.micro_batch,
                        "zero", r->layout.zero, "recompute", cf_recompute_name(r->layout.recompute))
            : json_null();
    bad |= cf__json_set(o, "fits_one_node", json_boolean(r->fits_one_node));
    bad |= cf__json_set(o, "min_nodes", json_integer(r->min_nodes));
    bad |= cf__json_set(o, "memory_per_gpu_gib",
                        r->min_nodes > 0 ? cf__json_num(r->memory_per_gpu_gib) : json_null());
    bad |= cf__json_set(o, "layout", l);
    bad |= cf__json_set(o, "why", json_string(r->why));
    bad |= cf__json_set(o, "precision_note",
                        r->precision_note[0] ? json_string(r->precision_note) : json_null());
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}
