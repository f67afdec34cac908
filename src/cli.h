/* cli.h — what the subcommands of the `clusterfit` tool share: the global
 * context (--db), output formats, error printing, exit codes (DESIGN §6).
 * The tool is a thin front end: all logic is in libclusterfit. */
#ifndef CLUSTERFIT_CLI_H
#define CLUSTERFIT_CLI_H

#include <stdio.h>
#include <jansson.h>
#include "clusterfit/clusterfit.h"

enum {
    EXIT_OK = 0,
    EXIT_AUDIT_FAILED = 1,  /* audit status failed or invalid */
    EXIT_NONE = 1,          /* no offering passes plan's filters: "none", as grep's 1 */
    EXIT_USAGE = 2,
    EXIT_BAD_INPUT = 3,
    EXIT_INTERNAL = 4,
    EXIT_ENV = 5,           /* locked catalog, full disk, read-only file (CF_EBUSY, CF_EENV) */
    EXIT_AUDIT_UNJUDGED = 6 /* audit status unjudged: a busbw shown, not compared with a rate */
};

typedef struct cli_ctx {
    const char *db_path;    /* --db, else CLUSTERFIT_DB, else the user's data dir */
    const char *now;        /* CLUSTERFIT_NOW (YYYY-MM-DD) or NULL = today */
} cli_ctx;

typedef enum cli_format { FMT_TABLE = 1, FMT_TEXT = 2, FMT_CSV = 4, FMT_JSON = 8 } cli_format;

/* Parses --format's value against the formats the command allows (a mask of
 * cli_format); prints a usage error naming the accepted ones and returns -1
 * on a bad value, else 0. */
int cli_parse_format(const char *cmd, const char *s, unsigned allowed, cli_format *out);

/* Prints "clusterfit CMD: message" and "Try 'clusterfit CMD --help'." to
 * stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a library error ("clusterfit CMD: FILE:LINE:COL: msg" or the status
 * string) to stderr and returns the exit code for `st`. A refused parameter
 * (err->param) is named as this tool's flag (cli_error_text). */
int cli_lib_error(const char *cmd, cf_status st, const cf_error *err);

/* A setter's refusal of an option value (cf_fabric_set, cf_coll_query_set)
 * printed as a usage error, the option spelled as its flag; EXIT_USAGE. */
int cli_param_error(const char *cmd, const cf_error *err);

/* The library's name of a flag: the flag with '-' written '_', except the
 * flags whose library name carries its unit (--deadline is deadline_h,
 * --margin is margin_pct). Writes at most cap bytes into buf and returns
 * it, or the static name. */
const char *cli_lib_name(const char *flag, char *buf, size_t cap);

/* A library refusal about deadline_h or margin_pct respelled with the flag's
 * name (--deadline, --margin) in err->message and err->param; every other
 * snake_case name cli_error_text turns into its flag by itself. */
void cli_respell(cf_error *err);

/* err's message (FILE:LINE:COL prefixed when set; the status string when
 * empty) into buf (size n) with the parameter it refuses in the tool's
 * spelling: the first whole-word occurrence of err->param ("gpus_per_node")
 * becomes the flag ("--gpus-per-node"). Returns buf. */
const char *cli_error_text(const cf_error *err, cf_status st, char *buf, size_t n);

/* The catalog file's path into path (size n): --db or $CLUSTERFIT_DB,
 * else $XDG_DATA_HOME/clusterfit/catalog.db, else
 * ~/.local/share/clusterfit/catalog.db. 1 when the user chose it, 0 for a
 * default (whose directory cli_open_catalog creates). */
int cli_catalog_path(const cli_ctx *ctx, char *path, size_t n);

/* Opens the catalog (creating the user's data directory when needed).
 * Prints the error and returns an exit code != 0 on failure. */
int cli_open_catalog(const cli_ctx *ctx, const char *cmd, cf_catalog **out);

/* The catalog's note (cf_catalog_note) after a read that succeeded, as
 * "clusterfit CMD: warning: ..." on stderr (nothing when empty). */
void cli_catalog_note(const char *cmd, const cf_catalog *cat);

/* A failed catalog read: the note (path and reason) or the status's text;
 * returns the exit code (5 for a locked catalog). */
int cli_catalog_error(const char *cmd, const cf_catalog *cat, cf_status st);

/* Today as YYYY-MM-DD into buf: ctx->now (CLUSTERFIT_NOW, checked) or the
 * UTC date (cf_today). 0 on success, -1 when CLUSTERFIT_NOW is not a date. */
int cli_today(const cli_ctx *ctx, char *buf, size_t n);

/* Writes `j` as indented JSON plus newline to stdout, then json_decref(j).
 * Returns EXIT_OK, or EXIT_INTERNAL if j is NULL or the write failed. */
int cli_print_json(json_t *j);

/* Parses a strictly positive integer option; prints a usage error and
 * returns -1 on failure. */
int cli_parse_int(const char *cmd, const char *opt, const char *s, long min, long max, long *out);
int cli_parse_num(const char *cmd, const char *opt, const char *s, double min, double max, double *out);

/* The catalog filter options of `list` and `plan` (--multinode, --network,
 * --gdr, ...): the CLI_CALL setter of their table entries (CLI_FILTER_AT in
 * src/opts.h; `dst` is the command's cf_filter). Hands the option's name and
 * value to cf_filter_set, the one parser of the filters, which the server's
 * /api/offerings and the plan API's "filters" use too, and prints its reason
 * as a usage error ("clusterfit plan: --gdr: expected one of yes, no, got
 * \"maybe\""). Returns 0, or -1 after the message. */
struct cli_opt;
int cli_set_filter(const char *cmd, const struct cli_opt *o, const char *val, void *dst);

/* Subcommands: argv[0] is the subcommand name. Each prints its own --help. */
int cmd_list(const cli_ctx *ctx, int argc, char **argv);
int cmd_show(const cli_ctx *ctx, int argc, char **argv);
int cmd_providers(const cli_ctx *ctx, int argc, char **argv);
int cmd_import(const cli_ctx *ctx, int argc, char **argv);
int cmd_predict(const cli_ctx *ctx, int argc, char **argv);
int cmd_fit(const cli_ctx *ctx, int argc, char **argv);
int cmd_plan(const cli_ctx *ctx, int argc, char **argv);
int cmd_scale(const cli_ctx *ctx, int argc, char **argv);
int cmd_validate(const cli_ctx *ctx, int argc, char **argv);
int cmd_audit(const cli_ctx *ctx, int argc, char **argv);
int cmd_probe(const cli_ctx *ctx, int argc, char **argv);
int cmd_recipe(const cli_ctx *ctx, int argc, char **argv);
int cmd_serve(const cli_ctx *ctx, int argc, char **argv);
int cmd_fabrics(const cli_ctx *ctx, int argc, char **argv);
int cmd_version(const cli_ctx *ctx, int argc, char **argv);
int cmd_goodput(const cli_ctx *ctx, int argc, char **argv);

/* `predict step` (src/cmd_predict_step.c), dispatched by main.c as a
 * command of its own; argv[0] is "step". */
int cmd_predict_step(const cli_ctx *ctx, int argc, char **argv);

#endif
