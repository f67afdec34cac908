/* opts.h — one option table per command drives both its parsing and its
 * --help (curl's and Redis's habit: one source for the options and their
 * documentation). Each cmd_*.c declares a cli_cmd: its usage text, its table
 * of cli_opt; cli_opts_parse() is the one
 * getopt_long loop of the tool and cli_opts_help() prints --help from the
 * same table. tests/cli/help-man-agree.t checks every table against the
 * command's man fragment (docs/man/NN-CMD.man for src/cmd_CMD.c); it reads
 * the option names from the `.name = "..."` initializers, so tables use
 * designated initializers. */
#ifndef CLUSTERFIT_OPTS_H
#define CLUSTERFIT_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include "cli.h"

typedef enum cli_kind {
    CLI_END = 0,        /* ends the table */
    CLI_SECTION,        /* no option: `help` is printed as a line of its own
                           ("\nFilters:"); the options after it are listed as
                           usual */
    CLI_FLOW_SECTION,   /* the same, and the options after it (up to the next
                           section) are listed by name and metavar only,
                           several to a line */
    CLI_HELP,           /* --help: prints the help; the command exits 0 */
    CLI_FLAG,           /* no value: sets the int at `off` to 1 */
    CLI_STR,            /* the value, as given, into the const char * at `off` */
    CLI_INT,            /* an integer in [min, max] into the int at `off` */
    CLI_LONG,           /* an integer in [min, max] into the long at `off` */
    CLI_NUM,            /* a number in [min, max] into the double at `off` */
    CLI_FORMAT,         /* one of `formats` into the cli_format at `off` */
    CLI_CALL            /* `set` checks the value and stores it */
} cli_kind;

typedef struct cli_opt cli_opt;

/* A CLI_CALL option's check: `dst` is the command's values plus o->off.
 * Returns 0, or -1 after printing the usage error (cli_usage_error). */
typedef int (*cli_set_fn)(const char *cmd, const cli_opt *o, const char *val, void *dst);

struct cli_opt {
    const char *name;       /* long name without "--"; NULL for a section */
    char short_name;        /* one-letter alias ('h' for -h), 0 for none */
    cli_kind kind;          /* how the value is read and where it goes */
    const char *metavar;    /* the value in the help ("W", "yes|no"); also
                               shown for a flag ("--remove ID...") */
    const char *help;       /* help text; '\n' starts a line under the first */
    size_t off;             /* offsetof() the value in the command's struct */
    double min, max;        /* CLI_INT, CLI_LONG, CLI_NUM bounds */
    unsigned formats;       /* CLI_FORMAT: the cli_format values accepted */
    cli_set_fn set;         /* CLI_CALL */
    int join;               /* listed on the line of the option before it
                               ("--tp T, --pp P, --dp D"), whose help it
                               shares (its own help is NULL) */
    const char *(*more)(void); /* text printed wrapped under the help, at
                                  its column (cf_workload_presets; a
                                  default read from a library constant) */
};

typedef struct cli_cmd {
    const char *cmd;        /* "predict step": in messages and the help */
    const char *usage;      /* usage and description lines, printed as is
                               before the options (ends with "\n") */
    const cli_opt *opts;    /* ends with an entry of kind CLI_END */
    const char *footer;     /* printed as is after the options, or NULL */
    int col;                /* column where the option help texts start */
    int no_args;            /* a positional argument is an error:
                               "unexpected argument 'X'" */
} cli_cmd;

/* The kind and offset of an option whose value goes into member m of the
 * command's struct T, checked at compile time to have the kind's type (a
 * comparison of distinct pointer types is an error under -Werror):
 * {.name = "workload", CLI_STR_AT(fit_args, workload), .metavar = "W", ...}.
 * CLI_CALL entries give .off = offsetof(T, m) and check in their `set`
 * (CLI_FILTER_AT: the catalog filters' shared one). */
#define CLI_OFF(T, m, type) (offsetof(T, m) + 0 * sizeof(&((T *)0)->m == (type *)0))
#define CLI_FLAG_AT(T, m) .kind = CLI_FLAG, .off = CLI_OFF(T, m, int)
#define CLI_STR_AT(T, m) .kind = CLI_STR, .off = CLI_OFF(T, m, const char *)
#define CLI_INT_AT(T, m) .kind = CLI_INT, .off = CLI_OFF(T, m, int)
#define CLI_LONG_AT(T, m) .kind = CLI_LONG, .off = CLI_OFF(T, m, long)
#define CLI_NUM_AT(T, m) .kind = CLI_NUM, .off = CLI_OFF(T, m, double)
#define CLI_FORMAT_AT(T, m) .kind = CLI_FORMAT, .off = CLI_OFF(T, m, cli_format)
/* A catalog filter option (`list`, `plan`): the value goes through
 * cf_filter_set (cli_set_filter) into the cf_filter m, under the option's
 * name; {.name = "gdr", CLI_FILTER_AT(list_args, filter), ...}. */
#define CLI_FILTER_AT(T, m) .kind = CLI_CALL, .off = CLI_OFF(T, m, cf_filter), .set = cli_set_filter

/* Parses argv (argv[0] = the command's last word) against c's table into
 * the command's struct `vals`, in order, checking each value as it comes:
 * the first error stops the parse. Returns the index of the first
 * positional argument (argv[i..argc-1]; GNU getopt moves them to the end),
 * or -1 when the command must return *rc now: EXIT_OK after --help, else
 * the usage error's exit code (printed). Options that share a `set`
 * function share getopt's value, so getopt takes an abbreviation that fits
 * several of them as the first (as `list`'s filters always did). */
int cli_opts_parse(const cli_cmd *c, int argc, char **argv, void *vals, int *rc);

/* The value the user gave for the option that spells the library's
 * parameter `param` (its snake_case name, '_' written '-': gpus_per_node is
 * --gpus-per-node), read from the command's struct `vals` after
 * cli_opts_parse: a CLI_STR option's string as given; for a CLI_FLAG of that
 * name "yes", for one named "no-" and that name "no" (--no-sequence-parallel
 * is sequence_parallel no); NULL when not given. This is how a command walks
 * the library's list of parameter names (cf_fabric_param_names, ...)
 * instead of a copy of it. Returns 0, or -1 after printing that c has no
 * such option (a bug: the library has a parameter the command lacks). */
int cli_opts_value(const cli_cmd *c, const void *vals, const char *param, const char **out);

/* Prints c's --help: usage, the options with their help at column c->col
 * (sections, joined and flowed options as the table says), footer; every
 * line fits TF_WIDTH columns when the texts do. */
void cli_opts_help(const cli_cmd *c, FILE *out);

#endif
