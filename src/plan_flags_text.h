/* plan_flags_text.h — a ranked row's flags in words and the `*` legend,
 * shared by the training and the serve plan's text. */
#ifndef CLUSTERFIT_PLAN_FLAGS_TEXT_H
#define CLUSTERFIT_PLAN_FLAGS_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* "reserved price (on-demand unknown); largest cluster not stated, capped at
 * 16,384 GPUs" from row's `flags` (doc gives stale_months), into buf (cap
 * bytes); "" when the row has none. */
void plan_flags_text(char *buf, size_t cap, json_t *row, json_t *doc, long max_gpus);

/* The legend of the `*` mark, when a row of `ranked` rests on assumptions;
 * known_only 1 names --known-only (a training plan's option). */
void plan_assumed_legend(FILE *out, json_t *ranked, int known_only);

#endif
