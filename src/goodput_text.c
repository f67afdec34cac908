/* goodput_text.c — the goodput line of a row in the terminal output of
 * `plan`, `scale` and `fabrics`, from the row's library JSON (goodput,
 * steady_time_to_train_h, goodput_detail): one place, so the three
 * commands say it alike. */
#include <math.h>
#include <stdio.h>
#include "cli.h"
#include "opts.h"
#include "goodput_text.h"
#include "textfmt.h"

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int goodput_count_prec(double x)
{
    return isfinite(x) && fabs(x) < 9.95 ? 1 : 0;
}

const char *goodput_text(char *buf, size_t cap, const json_t *row)
{
    const json_t *d = json_object_get(row, "goodput_detail");
    const json_t *b = json_object_get(d, "breakdown");
    const json_t *f = json_object_get(d, "failures");
    char steady[32];
    double s = num(b, "steady_h");
    buf[0] = '\0';
    if (!d) return buf;
    if (json_is_true(json_object_get(d, "no_failures"))) {
        snprintf(buf, cap, "1.00, steady state (--no-failures)");
        return buf;
    }
    tf_hours(steady, sizeof steady, s);
    if (json_is_string(json_object_get(row, "unfit_reason")) && json_is_null(json_object_get(d, "time_to_train_h"))) {
        /* a job that never finishes: its reason, not a breakdown of 0 */
        snprintf(buf, cap, "%.2f of %s steady: %s", num(row, "goodput"), steady,
                 json_string_value(json_object_get(row, "unfit_reason")));
        return buf;
    }
    snprintf(buf, cap, "%.2f of %s steady: checkpoints +%.1f %%, lost work +%.1f %%, "
             "restarts +%.1f %% (%.*f expected interruptions), input reads +%.1f %%; storage %s%s",
             num(row, "goodput"), steady, 100 * num(b, "ckpt_stall_h") / s,
             100 * num(b, "lost_work_h") / s, 100 * num(b, "restart_h") / s,
             goodput_count_prec(num(f, "interruptions")), num(f, "interruptions"), 100 * num(b, "data_stall_h") / s,
             json_string_value(json_object_get(d, "storage")) ? json_string_value(json_object_get(d, "storage")) : "?",
             json_is_true(json_object_get(d, "storage_assumed")) ? " (not stated: assumed)" : "");
    return buf;
}

int goodput_set_opt(const char *cmd, const cli_opt *o, const char *val, void *dst)
{
    char name[32];
    cf_error err;
    cf_error_clear(&err);
    if (cf_goodput_opts_set(dst, cli_lib_name(o->name, name, sizeof name), val, &err) == CF_OK)
        return 0;
    cli_respell(&err);
    cli_param_error(cmd, &err);
    return -1;
}
