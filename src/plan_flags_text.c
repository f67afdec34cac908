/* plan_flags_text.c — a ranked row's flags (what the plan assumed where the
 * catalog is silent: the library's `flags`, lib/plan/plan.c) in words, and
 * the legend of the `*` mark: the same for a training row (cmd_plan.c) and
 * a serve row (serve_cli.c). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "plan_flags_text.h"
#include "textfmt.h"

/* "minimum rental not stated, 1 h assumed" (CF_PLAN_DEFAULT_MIN_RENTAL_H). */
static const char *min_rental_words(void)
{
    static char text[64];
    snprintf(text, sizeof text, "minimum rental not stated, %g h assumed", CF_PLAN_DEFAULT_MIN_RENTAL_H);
    return text;
}

/* A ranked row's flags (assumptions the plan made, DESIGN §4.5) in words:
 * "reserved price (on-demand unknown); largest cluster not stated, capped at
 * 16,384 GPUs". Empty when the row has none. */
void plan_flags_text(char *buf, size_t cap, json_t *row, json_t *doc, long max_gpus)
{
    json_t *flags = json_object_get(row, "flags");
    size_t i, n = 0;
    json_t *f;
    char num[32];
    buf[0] = '\0';
    json_array_foreach(flags, i, f) {
        const char *k = json_string_value(f), *words = NULL;
        if (!k) continue;
        if (strcmp(k, "reserved_price") == 0) words = "reserved price (on-demand unknown)";
        else if (strcmp(k, "max_cluster_unknown") == 0) {
            tf_thousands(num, sizeof num, (double)max_gpus);
            if (n < cap)
                n += (size_t)snprintf(buf + n, cap - n, "%slargest cluster not stated, capped at %s GPUs",
                                      n ? "; " : "", num);
            continue;
        } else if (strcmp(k, "billing_increment_unknown") == 0)
            words = "billing increment not stated, billed to the second";
        else if (strcmp(k, "min_commitment_unknown") == 0)
            words = min_rental_words();
        else if (strcmp(k, "gdr_unknown") == 0) words = "GPUDirect RDMA not stated";
        else if (strcmp(k, "nics_per_node_unknown") == 0)
            words = "NICs per node not stated, one per GPU assumed";
        else if (strcmp(k, "network_unknown") == 0) {
            /* With network_gbps_unknown the family is stated: that flag's words say what is not. */
            size_t j;
            json_t *g;
            int gbps = 0;
            json_array_foreach(flags, j, g)
                gbps |= json_string_value(g) && strcmp(json_string_value(g), "network_gbps_unknown") == 0;
            if (gbps) continue;
            words = "network between nodes not stated: one node only";
        } else if (strcmp(k, "stale_price") == 0) {
            const char *d = json_string_value(json_object_get(row, "price_dated"));
            if (n < cap)
                n += (size_t)snprintf(buf + n, cap - n, "%sprice dated %s, more than %ld months old",
                                      n ? "; " : "", d ? d : "unknown",
                                      (long)json_integer_value(json_object_get(doc, "stale_months")));
            continue;
        } else if (strcmp(k, "network_gbps_unknown") == 0)
            words = "network's Gbit/s per node not stated: one node only";
        else if (strcmp(k, "non_blocking_unknown") == 0)
            words = "non-blocking not stated, taken as not (congestion grows with nodes)";
        else if (strcmp(k, "rail_optimized_unknown") == 0)
            words = "rail-optimized not stated, taken as not";
        else if (strcmp(k, "compute_efficiency_unvalidated") == 0)
            words = "no published training row for this GPU, compute efficiency of the nearest "
                    "validated generation assumed";
        else words = k;
        if (n < cap) n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", words);
    }
}

void plan_assumed_legend(FILE *out, json_t *ranked, int known_only)
{
    size_t i;
    json_t *r;
    int marked = 0;
    json_array_foreach(ranked, i, r)
        marked |= json_is_true(json_object_get(r, "rests_on_assumptions"));
    if (marked && known_only)
        fputs("*: the row's place rests on a fact the catalog does not state (largest\n"
              "   cluster, NICs, fabric topology: its assumes: line); --known-only ranks\n"
              "   on stated facts alone.\n", out);
    else if (marked)
        fputs("*: the row's place rests on a fact the catalog does not state (largest\n"
              "   cluster, NICs, fabric topology: its assumes: line).\n", out);
}

