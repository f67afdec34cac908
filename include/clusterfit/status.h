/* status.h — the one status enum of libclusterfit, and the parse-error record.
 *
 * Every public function that can fail returns cf_status (0 = CF_OK), as curl's
 * CURLcode and SQLite's result codes do. Errors in input files also fill a
 * cf_error with file, line and column (1-based) and a message naming the field
 * and what was expected, so front ends can print `FILE:LINE:COLUMN: message`.
 *
 * Ownership, the same word for the same thing in every header:
 * - `cf_X_clear(x)` frees what a caller-owned struct holds (its strings,
 *   arrays) and leaves it empty; the struct itself stays the caller's (on
 *   the stack, or a member of something else).
 * - `cf_X_free(x)` frees an object the library allocated for the caller,
 *   members and the object itself; x must not be used afterwards.
 * Both accept NULL. What a function gives the caller, and which of the two
 * gives it back, is said in its contract ("ownership").
 */
#ifndef CLUSTERFIT_STATUS_H
#define CLUSTERFIT_STATUS_H

#include <stddef.h>

#if defined(__GNUC__)
#define CF_API __attribute__((visibility("default")))
#else
#define CF_API
#endif

/* The statuses, one row each: X(name, value, message, exit code). This one
 * list makes the cf_status enum below, the messages of cf_strerror() and the
 * exit codes of cf_status_exit_code() (libuv's UV_ERRNO_MAP). Exit codes are
 * the tool's (DESIGN §6, README "Exit codes"): 0 success, 2 usage error or a
 * request the model cannot answer for that input, 3 bad input file, 4
 * internal error (1 is the audit's verdict, not a status). */
#define CF_STATUS_MAP(X)                                                              \
    X(CF_OK,           0, "success",                    0)                            \
    /* an allocation failed */                                                        \
    X(CF_ENOMEM,       1, "out of memory",              4)                            \
    /* a bad argument or option value (usage error) */                                \
    X(CF_EINVAL,       2, "invalid argument",           2)                            \
    /* malformed input file or document (bad input) */                                \
    X(CF_EPARSE,       3, "malformed input",            3)                            \
    /* input over a limit of limits.h */                                              \
    X(CF_ELIMIT,       4, "input over a size limit",    3)                            \
    /* read or write failed */                                                        \
    X(CF_EIO,          5, "input/output error",         4)                            \
    /* no such offering, preset, GPU, ...: the user's to change */                    \
    X(CF_ENOTFOUND,    6, "not found",                  2)                            \
    /* the SQLite catalog failed */                                                   \
    X(CF_EDB,          7, "catalog database error",     4)                            \
    /* valid input the model cannot handle (a fact it needs is unknown, such as an */ \
    /* offering's gpus_per_node or fabric): the user's to change, like a bad option */\
    X(CF_EUNSUPPORTED, 8, "not supported by the model", 2)                            \
    /* a bug */                                                                       \
    X(CF_EINTERNAL,    9, "internal error",             4)

typedef enum cf_status {
#define CF__STATUS_ENUM(name, value, message, exit_code) name = value,
    CF_STATUS_MAP(CF__STATUS_ENUM)
#undef CF__STATUS_ENUM
} cf_status;

/* Longest message kept in a cf_error, bytes including the NUL. */
#define CF_ERROR_MSG_MAX 512

/* Longest parameter name kept in a cf_error, bytes including the NUL. */
#define CF_ERROR_PARAM_MAX 40

/* Where and why input was rejected. `file` is borrowed from the caller (or NULL);
 * line and column are 1-based, 0 when not applicable.
 *
 * `param` names the input at fault when a call refuses a parameter: its
 * library name in snake_case, as the JSON API spells it ("gpus_per_node",
 * "nodes", "offering"), "" when the refusal is not about one parameter.
 * When param is set, the message contains that name as a word, and its
 * first whole-word occurrence is the reference to the parameter, so a
 * front end can show it in its own spelling (the CLI's --gpus-per-node). */
typedef struct cf_error {
    const char *file;
    long line;
    long column;
    char param[CF_ERROR_PARAM_MAX];
    char message[CF_ERROR_MSG_MAX];
} cf_error;

/* A static English description of `st`; never NULL. */
CF_API const char *cf_strerror(cf_status st);

/* Clears `err` (file NULL, line/column 0, empty param and message). NULL-safe. */
CF_API void cf_error_clear(cf_error *err);

/* Sets err's position and a printf-style message, and clears param (the
 * message is not about one parameter). NULL-safe (then a no-op). */
CF_API void cf_error_set(cf_error *err, const char *file, long line, long column,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Refusal of one parameter: sets err->param to `param` (its snake_case
 * library name, cut to CF_ERROR_PARAM_MAX - 1 bytes) and a printf-style
 * message that contains that name as a word (see cf_error); no position.
 * NULL-safe: with err NULL nothing is formatted. */
CF_API void cf_error_set_param(cf_error *err, const char *param, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Formats `err` as "FILE:LINE:COLUMN: message" (parts that are unset are left
 * out) into buf of size n; returns buf. */
CF_API char *cf_error_format(const cf_error *err, char *buf, size_t n);

/* Maps a status to the tool's exit code (DESIGN §6): CF_OK 0, CF_EINVAL,
 * CF_ENOTFOUND and CF_EUNSUPPORTED (a request the model cannot answer for
 * that input: a fact it needs is unknown) 2, CF_EPARSE/CF_ELIMIT 3,
 * everything else 4. */
CF_API int cf_status_exit_code(cf_status st);

/* Failure injection for tests (curl torture mode, SQLite fault simulation):
 * after `n` more successful allocations through the library's allocator, every
 * allocation fails until reset with n < 0. Not thread-safe; tests only. */
CF_API void cf_alloc_fail_after(long n);

/* Number of allocations the library's allocator has made since the last
 * cf_alloc_fail_after() call; lets a test loop over every allocation point. */
CF_API long cf_alloc_count(void);

#endif
