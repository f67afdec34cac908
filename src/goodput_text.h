/* goodput_text.h — the goodput line of a plan, scale or fabrics row. */
#ifndef CLUSTERFIT_GOODPUT_TEXT_H
#define CLUSTERFIT_GOODPUT_TEXT_H

#include <stddef.h>
#include <jansson.h>

/* "0.84 of 101 d steady: checkpoints +9.4 %, lost work +2.0 %, restarts
 * +8.9 % (587 expected interruptions), input reads +0.0 %; storage nfs" from a row
 * carrying goodput_detail, into buf (cap bytes); "" when it has none.
 * Returns buf. */
const char *goodput_text(char *buf, size_t cap, const json_t *row);

/* The decimals an expected (fractional) count is printed with: 1 under
 * 10 ("0.3 expected interruptions"), else 0. */
int goodput_count_prec(double x);

/* A goodput option of a command's table (CLI_CALL; off = its
 * cf_goodput_opts): the library's setter cf_goodput_opts_set, its refusal
 * shown as a usage error naming the flag (exit 2). */
struct cli_opt;
int goodput_set_opt(const char *cmd, const struct cli_opt *o, const char *val, void *dst);

#endif
