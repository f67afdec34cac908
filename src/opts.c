/* opts.c — the one getopt_long loop of the tool and the --help printer,
 * both driven by a command's option table (src/opts.h). */
#include <getopt.h>
#include <string.h>
#include "opts.h"
#include "textfmt.h"

/* Most entries a table may have (sections included). */
#define CLI_MAX_OPTS 48

/* Index of the value in getopt's option array: options with their own value
 * have getopt value CLI_VAL_BASE + their index in the table. */
#define CLI_VAL_BASE 256

static int has_value(const cli_opt *o)
{
    return o->kind != CLI_FLAG && o->kind != CLI_HELP;
}

static int is_option(const cli_opt *o)
{
    return o->kind != CLI_SECTION && o->kind != CLI_FLOW_SECTION;
}

/* Stores one option's value into vals; 0, -1 after a usage error, 1 for
 * --help. */
static int take(const cli_cmd *c, const cli_opt *o, const char *arg, void *vals)
{
    char *dst = (char *)vals + o->off;
    char flag[64];
    long l;
    snprintf(flag, sizeof flag, "--%s", o->name);
    switch (o->kind) {
    case CLI_HELP: return 1;
    case CLI_FLAG: *(int *)(void *)dst = 1; return 0;
    case CLI_STR: *(const char **)(void *)dst = arg; return 0;
    case CLI_INT:
        if (cli_parse_int(c->cmd, flag, arg, (long)o->min, (long)o->max, &l) != 0) return -1;
        *(int *)(void *)dst = (int)l;
        return 0;
    case CLI_LONG:
        return cli_parse_int(c->cmd, flag, arg, (long)o->min, (long)o->max, (long *)(void *)dst);
    case CLI_NUM: return cli_parse_num(c->cmd, flag, arg, o->min, o->max, (double *)(void *)dst);
    case CLI_FORMAT: return cli_parse_format(c->cmd, arg, o->formats, (cli_format *)(void *)dst);
    case CLI_CALL: return o->set(c->cmd, o, arg, dst);
    default: break;
    }
    cli_usage_error(c->cmd, "%s: no handler for this option (a bug)", flag);
    return -1;
}

int cli_opts_parse(const cli_cmd *c, int argc, char **argv, void *vals, int *rc)
{
    struct option lo[CLI_MAX_OPTS + 1];
    char shorts[2 * CLI_MAX_OPTS + 2];
    size_t n = 0, ns = 0;
    int ch, idx;

    memset(lo, 0, sizeof lo);
    shorts[ns++] = ':';     /* getopt silent; ':' tells a missing value */
    for (size_t i = 0; c->opts[i].kind != CLI_END; i++) {
        const cli_opt *o = &c->opts[i];
        if (i >= CLI_MAX_OPTS) {
            fprintf(stderr, "clusterfit %s: more than %d entries in the option table (a bug)\n", c->cmd,
                    CLI_MAX_OPTS);
            *rc = EXIT_INTERNAL;
            return -1;
        }
        if (!is_option(o)) continue;
        lo[n].name = o->name;
        lo[n].has_arg = has_value(o) ? required_argument : no_argument;
        lo[n].val = CLI_VAL_BASE + (int)i;
        /* Options checked by the same function share the value, as list's
         * filters shared one case of a switch before this table. */
        if (o->kind == CLI_CALL)
            for (size_t k = 0; k < i; k++)
                if (c->opts[k].kind == CLI_CALL && c->opts[k].set == o->set) {
                    lo[n].val = CLI_VAL_BASE + (int)k;
                    break;
                }
        n++;
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (has_value(o)) shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';

    optind = 0;
    opterr = 0;
    for (;;) {
        const cli_opt *o = NULL;
        int r;
        idx = -1;
        ch = getopt_long(argc, argv, shorts, lo, &idx);
        if (ch == -1) break;
        if (ch == '?' || ch == ':') {
            if (ch == ':') *rc = cli_usage_error(c->cmd, "%s needs a value", argv[optind - 1]);
            else *rc = cli_usage_error(c->cmd, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
        if (idx >= 0) {
            /* A long option: the entry getopt matched (for a shared value,
             * the option actually named). */
            for (size_t i = 0, k = 0; c->opts[i].kind != CLI_END; i++) {
                if (!is_option(&c->opts[i])) continue;
                if (k++ == (size_t)idx) {
                    o = &c->opts[i];
                    break;
                }
            }
        } else {
            for (size_t i = 0; c->opts[i].kind != CLI_END; i++)
                if (is_option(&c->opts[i]) && c->opts[i].short_name == ch) {
                    o = &c->opts[i];
                    break;
                }
        }
        if (!o) {
            *rc = cli_usage_error(c->cmd, "unknown option");
            return -1;
        }
        r = take(c, o, optarg, vals);
        if (r > 0) {
            cli_opts_help(c, stdout);
            *rc = EXIT_OK;
            return -1;
        }
        if (r < 0) {
            *rc = EXIT_USAGE;
            return -1;
        }
    }
    if (c->no_args && optind < argc) {
        *rc = cli_usage_error(c->cmd, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return optind;
}

int cli_opts_value(const cli_cmd *c, const void *vals, const char *param, const char **out)
{
    char flag[64];
    size_t n = strlen(param);
    int found = 0;
    if (n >= sizeof flag) n = sizeof flag - 1;
    for (size_t i = 0; i < n; i++) flag[i] = param[i] == '_' ? '-' : param[i];
    flag[n] = '\0';
    *out = NULL;
    for (size_t i = 0; c->opts[i].kind != CLI_END; i++) {
        const cli_opt *o = &c->opts[i];
        const char *at = (const char *)vals + o->off;
        int negated;
        if (!o->name || (o->kind != CLI_STR && o->kind != CLI_FLAG)) continue;
        negated = o->kind == CLI_FLAG && strncmp(o->name, "no-", 3) == 0 && strcmp(o->name + 3, flag) == 0;
        if (!negated && strcmp(o->name, flag) != 0) continue;
        found = 1;
        if (o->kind == CLI_STR) {
            if (*(const char *const *)(const void *)at) *out = *(const char *const *)(const void *)at;
        } else if (*(const int *)(const void *)at) {
            *out = negated ? "no" : "yes";
        }
    }
    if (found) return 0;
    fprintf(stderr, "clusterfit %s: no option for the parameter '%s' (a bug)\n", c->cmd, param);
    return -1;
}

/* "--name METAVAR" into buf. */
static const char *label(char *buf, size_t cap, const cli_opt *o)
{
    snprintf(buf, cap, "--%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    return buf;
}

/* Prints the parts (labels of options) from column `indent`, `sep` between
 * them, a new line (indented again) before a part that would pass TF_WIDTH.
 * Returns the column after the last part. `after` is printed after every
 * part but the last (the ',' of "--tp T, --pp P"). */
static size_t flow(FILE *out, const char *const *parts, size_t n, size_t indent, const char *after,
                   const char *sep)
{
    size_t colm = indent;
    fprintf(out, "%*s", (int)indent, "");
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(parts[i]) + (i + 1 < n ? strlen(after) : 0);
        if (i > 0) {
            if (colm + strlen(sep) + len > TF_WIDTH) {
                fprintf(out, "\n%*s", (int)indent, "");
                colm = indent;
            } else {
                fputs(sep, out);
                colm += strlen(sep);
            }
        }
        fprintf(out, "%s%s", parts[i], i + 1 < n ? after : "");
        colm += len;
    }
    return colm;
}

/* The help of one option (or joined group) starting at column `at`, its
 * further lines at column `col`, then its `more` list. */
static void help_text(FILE *out, const cli_opt *o, size_t at, int col)
{
    const char *h = o->help ? o->help : "";
    char lead[TF_WIDTH + 1];
    size_t indent = (size_t)col < sizeof lead ? (size_t)col : sizeof lead - 1;
    if (at + 2 > (size_t)col) fputs("  ", out);     /* a long label: two spaces */
    else fprintf(out, "%*s", col - (int)at, "");
    for (;;) {
        size_t len = strcspn(h, "\n");
        fprintf(out, "%.*s\n", (int)len, h);
        if (!h[len]) break;
        h += len + 1;
        fprintf(out, "%*s", col, "");
    }
    if (o->more) {
        memset(lead, ' ', indent);
        lead[indent] = '\0';
        tf_wrap(out, lead, o->more(), TF_WIDTH);
    }
}

void cli_opts_help(const cli_cmd *c, FILE *out)
{
    char labels[CLI_MAX_OPTS][96];
    const char *parts[CLI_MAX_OPTS];
    int flowing = 0;
    size_t i = 0;
    fputs(c->usage, out);
    while (i < CLI_MAX_OPTS && c->opts[i].kind != CLI_END) {
        const cli_opt *o = &c->opts[i];
        size_t n = 0, at;
        if (!is_option(o)) {
            fprintf(out, "%s\n", o->help);
            flowing = o->kind == CLI_FLOW_SECTION;
            i++;
            continue;
        }
        if (flowing) {
            /* The options up to the next section, by label only. */
            while (i < CLI_MAX_OPTS && c->opts[i].kind != CLI_END && is_option(&c->opts[i])) {
                parts[n] = label(labels[n], sizeof labels[n], &c->opts[i]);
                n++;
                i++;
            }
            flow(out, parts, n, 2, "", "   ");
            fputc('\n', out);
            continue;
        }
        /* One option and those joined to it. */
        do {
            parts[n] = label(labels[n], sizeof labels[n], &c->opts[i]);
            n++;
            i++;
        } while (i < CLI_MAX_OPTS && c->opts[i].kind != CLI_END && c->opts[i].join);
        at = flow(out, parts, n, 2, ",", " ");
        help_text(out, o, at, c->col);
    }
    if (c->footer) fputs(c->footer, out);
}
