/* textfmt.h — number formatting and line wrapping shared by the terminal
 * output of `plan`, `scale` and `predict step` (one place instead of a copy
 * per command). Pure functions over caller buffers; nothing allocates. */
#ifndef CLUSTERFIT_TEXTFMT_H
#define CLUSTERFIT_TEXTFMT_H

#include <stdio.h>
#include "clusterfit/vocab.h"

/* Columns every text line of these commands fits in (an 80-column terminal
 * less one, so the cursor never wraps). */
#define TF_WIDTH 79

/* round(v) with thousands separators ("1,234,567") into buf (cap bytes,
 * always terminated); returns buf. v is expected finite and >= 0. */
const char *tf_thousands(char *buf, size_t cap, double v);

/* Prints lead, then text wrapped at spaces so no line passes `width`
 * columns; continuation lines are indented by strlen(lead). Ends with a
 * newline. A word longer than the line is printed whole. */
void tf_wrap(FILE *out, const char *lead, const char *text, size_t width);

/* A duration of h hours as plan's time column writes it: "45 s", "12 min",
 * "7.5 h" (under 48 h), "9.1 d", "462 d" (from 100 days), "unknown" for NAN;
 * into buf (cap bytes); returns buf. */
const char *tf_hours(char *buf, size_t cap, double h);

/* v, or +0 where v would print as -0 at `decimals` decimals (-0.0, or a
 * negative that rounds to zero: "-0.0 %", "-0.00"): every signed number a
 * text prints passes here, so no output ever shows -0. */
double tf_nonneg_zero(double v, int decimals);

/* The fabric's name in words: "InfiniBand", "RoCE", "EFA", ... (the
 * vocabulary name for the others). */
const char *tf_net_label(cf_network n);

#endif
