/* cli.c — helpers shared by the subcommands: errors, formats, the catalog
 * path. The only place of the tool that reads the environment besides main. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "cli.h"
#include "opts.h"

/* The names --format takes, in the order an error lists them. A command's
 * human format is "text" whether it prints a table (FMT_TABLE) or a report
 * (FMT_TEXT): every --help, man fragment and error spells it "text", and
 * "table" is taken as its synonym (issue 23: some commands said table|json,
 * others text|json). */
static const struct {
    const char *name;  /* the spelling --help and errors show */
    unsigned fmts;     /* the cli_format values it stands for */
} format_names[] = {{"text", FMT_TABLE | FMT_TEXT}, {"csv", FMT_CSV}, {"json", FMT_JSON}};

int cli_parse_format(const char *cmd, const char *s, unsigned allowed, cli_format *out)
{
    char accepted[64] = "";
    size_t n = 0;
    int human = s && (strcmp(s, "text") == 0 || strcmp(s, "table") == 0);
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++) {
        unsigned f = format_names[i].fmts & allowed;
        int w;
        if (!f) continue;
        if (s && (strcmp(s, format_names[i].name) == 0 || (human && i == 0))) {
            *out = (cli_format)f;  /* one bit: no command allows both TABLE and TEXT */
            return 0;
        }
        /* "text, csv, json": appended with its length checked (the three
         * names take 15 bytes; the buffer has room to spare). */
        w = snprintf(accepted + n, sizeof accepted - n, "%s%s", n ? ", " : "", format_names[i].name);
        if (w < 0 || (size_t)w >= sizeof accepted - n) break;
        n += (size_t)w;
    }
    cli_usage_error(cmd, "unknown --format '%s' (accepted: %s)", s ? s : "", accepted);
    return -1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clusterfit%s%s: ", cmd && *cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'clusterfit %s%s--help'.\n", cmd ? cmd : "", cmd && *cmd ? " " : "");
    return EXIT_USAGE;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The first whole-word occurrence of `word` in s, or NULL. */
static const char *find_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; n && (p = strstr(p, word)) != NULL; p++)
        if ((p == s || !word_char(p[-1])) && !word_char(p[n])) return p;
    return NULL;
}

const char *cli_error_text(const cf_error *err, cf_status st, char *buf, size_t n)
{
    char msg[CF_ERROR_MSG_MAX + 512], flag[CF_ERROR_PARAM_MAX + 2];
    const char *at;
    size_t i;
    if (!err || !err->message[0]) {
        snprintf(buf, n, "%s", cf_strerror(st));
        return buf;
    }
    cf_error_format(err, msg, sizeof msg);
    if (!err->param[0]) {
        snprintf(buf, n, "%s", msg);
        return buf;
    }
    /* The library's snake_case name as this tool's flag: --kebab-case. */
    flag[0] = flag[1] = '-';
    for (i = 0; err->param[i] && i + 3 < sizeof flag; i++)
        flag[i + 2] = err->param[i] == '_' ? '-' : err->param[i];
    flag[i + 2] = '\0';
    at = find_word(msg, err->param);
    if (at)
        snprintf(buf, n, "%.*s%s%s", (int)(at - msg), msg, flag, at + strlen(err->param));
    else
        snprintf(buf, n, "%s: %s", flag, msg);
    return buf;
}

int cli_lib_error(const char *cmd, cf_status st, const cf_error *err)
{
    char buf[CF_ERROR_MSG_MAX + 600];
    fprintf(stderr, "clusterfit %s: %s\n", cmd, cli_error_text(err, st, buf, sizeof buf));
    return cf_status_exit_code(st);
}

/* Flags whose library name carries its unit: {flag, library name}. */
static const char *const unit_names[][2] = {{"deadline", "deadline_h"}, {"margin", "margin_pct"}};

const char *cli_lib_name(const char *flag, char *buf, size_t cap)
{
    size_t i;
    for (i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++)
        if (strcmp(flag, unit_names[i][0]) == 0) return unit_names[i][1];
    for (i = 0; flag[i] && i + 1 < cap; i++) buf[i] = flag[i] == '-' ? '_' : flag[i];
    if (cap) buf[i < cap ? i : cap - 1] = '\0';
    return buf;
}

void cli_respell(cf_error *err)
{
    char msg[CF_ERROR_MSG_MAX];
    for (size_t i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++) {
        const char *flag = unit_names[i][0], *lib = unit_names[i][1], *at;
        if (strcmp(err->param, lib) != 0) continue;
        at = strstr(err->message, lib);
        if (at) {
            snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - err->message), err->message, flag,
                     at + strlen(lib));
            snprintf(err->message, sizeof err->message, "%s", msg);
        }
        snprintf(err->param, sizeof err->param, "%s", flag);
        return;
    }
}

int cli_param_error(const char *cmd, const cf_error *err)
{
    char buf[CF_ERROR_MSG_MAX + 600];
    return cli_usage_error(cmd, "%s", cli_error_text(err, CF_EINVAL, buf, sizeof buf));
}

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            *p = '/';
            return -1;
        }
        *p = '/';
    }
    return 0;
}

int cli_catalog_path(const cli_ctx *ctx, char *path, size_t n)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (ctx->db_path && *ctx->db_path) {
        snprintf(path, n, "%s", ctx->db_path);
        return 1;
    }
    if (xdg && *xdg)
        snprintf(path, n, "%s/clusterfit/catalog.db", xdg);
    else if (home && *home)
        snprintf(path, n, "%s/.local/share/clusterfit/catalog.db", home);
    else
        snprintf(path, n, "clusterfit-catalog.db");
    return 0;
}

int cli_open_catalog(const cli_ctx *ctx, const char *cmd, cf_catalog **out)
{
    char path[4096];
    cf_error err;
    cf_status st;
    cf_error_clear(&err);
    if (!cli_catalog_path(ctx, path, sizeof path)) {
        if (mkdirs(path) != 0) {
            fprintf(stderr, "clusterfit %s: cannot create the directory of %s: %s; choose a "
                    "catalog file with --db\n", cmd, path, strerror(errno));
            return EXIT_ENV;
        }
    }
    st = cf_catalog_open(path, out, &err);
    if (st != CF_OK) return cli_lib_error(cmd, st, &err);
    cli_catalog_note(cmd, *out);
    return EXIT_OK;
}

void cli_catalog_note(const char *cmd, const cf_catalog *cat)
{
    const char *note = cf_catalog_note(cat);
    if (note[0]) fprintf(stderr, "clusterfit %s: warning: %s\n", cmd, note);
}

int cli_catalog_error(const char *cmd, const cf_catalog *cat, cf_status st)
{
    const char *note = cf_catalog_note(cat);
    if (!note[0]) return cli_lib_error(cmd, st, NULL);
    fprintf(stderr, "clusterfit %s: %s\n", cmd, note);
    return cf_status_exit_code(st);
}

int cli_print_json(json_t *j)
{
    int rc;
    if (!j) {
        fprintf(stderr, "clusterfit: out of memory building JSON\n");
        return EXIT_INTERNAL;
    }
    rc = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(j);
    if (rc != 0 || fputc('\n', stdout) == EOF) return EXIT_INTERNAL;
    return EXIT_OK;
}

int cli_set_filter(const char *cmd, const cli_opt *o, const char *val, void *dst)
{
    cf_error err;
    char flag[64];
    cf_status st;
    cf_error_clear(&err);
    /* The name as the user typed it, so the library's reason starts with
     * the option's spelling ("--gdr: expected ..."). */
    snprintf(flag, sizeof flag, "--%s", o->name);
    st = cf_filter_set(dst, flag, val, &err);
    if (st == CF_OK) return 0;
    cli_usage_error(cmd, "%s", err.message[0] ? err.message : cf_strerror(st));
    return -1;
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, long min, long max, long *out)
{
    long v;
    if (cf_parse_long(s, &v) != CF_OK || v < min || v > max) {
        cli_usage_error(cmd, "%s expects an integer from %ld to %ld, got '%s'", opt, min, max, s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_num(const char *cmd, const char *opt, const char *s, double min, double max, double *out)
{
    double v;
    if (cf_parse_double(s, &v) != CF_OK || v < min || v > max) {
        cli_usage_error(cmd, "%s expects a number from %g to %g, got '%s'", opt, min, max, s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_today(const cli_ctx *ctx, char *buf, size_t n)
{
    long d;
    if (ctx->now && *ctx->now) {
        if (cf_age_days(ctx->now, ctx->now, &d) != CF_OK) return -1;
        snprintf(buf, n, "%s", ctx->now);
        return 0;
    }
    {
        char today[CF_DATE_SIZE];
        if (cf_today(time(NULL), today) != CF_OK || (size_t)snprintf(buf, n, "%s", today) >= n)
            return -1;
    }
    return 0;
}
