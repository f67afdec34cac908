/* status.h — the one status enum of libclusterfit, the error record, and
 * the ownership words every header uses.
 *
 * Every public function that can fail returns cf_status (0 = CF_OK), as curl's
 * CURLcode and SQLite's result codes do. Errors in input files also fill a
 * cf_error with file, line and column (1-based) and a message naming the field
 * and what was expected, so front ends can print `FILE:LINE:COLUMN: message`.
 *
 * Contracts: each function's comment is a short list — what it computes,
 * inputs (with units), output, errors, ownership, source — leaving out the
 * items that do not apply.
 *
 * Ownership, the same word for the same thing in every header:
 * - `cf_X_clear(x)` frees what a caller-owned struct holds (its strings,
 *   arrays) and leaves it empty; the struct itself stays the caller's (on
 *   the stack, or a member of something else).
 * - `cf_X_free(x)` frees an object the library allocated for the caller,
 *   members and the object itself; x must not be used afterwards.
 *   `cf_catalog_close` is the `_free` of the catalog that cf_catalog_open
 *   opened (an open file, as fclose and sqlite3_close name it).
 * - JSON values handed to the caller are new references: json_decref().
 *   The one string handed to the caller (cf_audit_report_text) is
 *   malloc'd: free().
 * - "Static storage" results are the library's, never freed, valid until
 *   exit. "Borrowed" inputs are read during the call only, unless the
 *   contract says they are kept.
 * Every _clear, _free and _close accepts NULL. What a function gives the
 * caller, and which of these gives it back, is said in its contract
 * ("ownership").
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
 * internal error, 5 the environment (a file locked by another process, a
 * full disk, a read-only file: retry or fix the system, not the input; 1
 * is the audit's verdict, not a status). */
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
    /* an input file the user named cannot be opened or read (missing, a */           \
    /* directory, no permission): bad input, like a malformed one */                  \
    X(CF_EIO,          5, "cannot read an input file",  3)                            \
    /* no such offering, preset, GPU, ...: the user's to change */                    \
    X(CF_ENOTFOUND,    6, "not found",                  2)                            \
    /* the SQLite catalog failed */                                                   \
    X(CF_EDB,          7, "catalog database error",     4)                            \
    /* valid input the model cannot handle (a fact it needs is unknown, such as an */ \
    /* offering's gpus_per_node or fabric): the user's to change, like a bad option */\
    X(CF_EUNSUPPORTED, 8, "not supported by the model", 2)                            \
    /* a bug */                                                                       \
    X(CF_EINTERNAL,    9, "internal error",             4)                            \
    /* the catalog file is locked by another process past the wait (issue 15) */    \
    X(CF_EBUSY,       10, "locked by another process",  5)                            \
    /* the system refused: disk full, read-only file or file system */               \
    X(CF_EENV,        11, "disk full or read-only",     5)

typedef enum cf_status {
#define CF__STATUS_ENUM(name, value, message, exit_code) name = value,
    CF_STATUS_MAP(CF__STATUS_ENUM)
#undef CF__STATUS_ENUM
} cf_status;

/* Bytes of cf_error.message, NUL included. The longest messages list the
 * accepted values (every GPU of data/gpus.csv is ~210 bytes) with the value
 * refused; a longer message is cut to fit. */
#define CF_ERROR_MSG_MAX 512

/* Bytes of cf_error.param, NUL included: parameter names are snake_case
 * words such as "ranks_per_node" (< 20 bytes); a longer one is cut. */
#define CF_ERROR_PARAM_MAX 40

/* Where and why input was rejected.
 *
 * `param` names the input at fault when a call refuses a parameter: its
 * library name in snake_case, as the JSON API spells it ("gpus_per_node",
 * "nodes", "offering"), "" when the refusal is not about one parameter.
 * When param is set, the message contains that name as a word, and its
 * first whole-word occurrence is the reference to the parameter, so a
 * front end can show it in its own spelling (the CLI's --gpus-per-node). */
typedef struct cf_error {
    const char *file;       /* input named in the message, borrowed from the caller; NULL = none */
    long line;              /* 1-based line in file; 0 = not applicable */
    long column;            /* 1-based column (a CSV cell's position); 0 = not applicable */
    char param[CF_ERROR_PARAM_MAX];     /* the refused parameter's name, or "" */
    char message[CF_ERROR_MSG_MAX];     /* why, in English, without the position */
} cf_error;

/* A description of a status.
 * - output: the message of st in CF_STATUS_MAP ("invalid argument");
 *   "unknown status" for a value outside the enum; never NULL
 * - ownership: static storage */
CF_API const char *cf_strerror(cf_status st);

/* Empties an error record.
 * - output: file NULL, line and column 0, param and message ""
 * - ownership: err is the caller's (it holds no allocation); NULL is a no-op */
CF_API void cf_error_clear(cf_error *err);

/* Records an error that is not about one parameter.
 * - inputs: file (or NULL), 1-based line and column (0 = not applicable),
 *   a printf-style message
 * - output: err's position and message (cut to CF_ERROR_MSG_MAX - 1 bytes);
 *   param ""
 * - ownership: file is kept in err (borrowed: it must outlive err's use);
 *   NULL err is a no-op */
CF_API void cf_error_set(cf_error *err, const char *file, long line, long column,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Records the refusal of one parameter.
 * - inputs: param, its snake_case library name; a printf-style message
 *   that contains that name as a word (see cf_error)
 * - output: err->param (cut to CF_ERROR_PARAM_MAX - 1 bytes), the message;
 *   no position (file NULL, line and column 0)
 * - ownership: param is copied; with err NULL nothing is formatted */
CF_API void cf_error_set_param(cf_error *err, const char *param, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* An error as one line.
 * - output: "FILE:LINE:COLUMN: message", "FILE:LINE: message",
 *   "FILE: message" or "message", as far as file, line and column are set;
 *   "" for err NULL; cut to n - 1 bytes
 * - ownership: writes into the caller's buf (n bytes) and returns buf; buf
 *   NULL or n 0 writes nothing */
CF_API char *cf_error_format(const cf_error *err, char *buf, size_t n);

/* The tool's exit code of a status (DESIGN §6).
 * - output: the exit code of st in CF_STATUS_MAP (0, 2, 3, 4 or 5); 4 for a
 *   value outside the enum */
CF_API int cf_status_exit_code(cf_status st);

/* Failure injection for tests (curl torture mode, SQLite fault simulation).
 * - computes: after `n` more successful allocations through the library's
 *   allocator, every allocation fails (CF_ENOMEM paths) until a call with
 *   n < 0; resets cf_alloc_count() to 0. SQLite's and jansson's own
 *   allocations are not counted
 * - ownership: process-wide state; not thread-safe; tests only */
CF_API void cf_alloc_fail_after(long n);

/* Allocations made through the library's allocator since the last
 * cf_alloc_fail_after() call, failed ones included, so a test can loop over
 * every allocation point.
 * - ownership: process-wide state; not thread-safe; tests only */
CF_API long cf_alloc_count(void);

#endif
