/* status.c — status strings, the error record and the exit code of each
 * status. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/status.h"
#include "base/base.h"

const char *cf_strerror(cf_status st)
{
    switch (st) {
    case CF_OK: return "success";
    case CF_ENOMEM: return "out of memory";
    case CF_EINVAL: return "invalid argument";
    case CF_EPARSE: return "malformed input";
    case CF_ELIMIT: return "input over a size limit";
    case CF_EIO: return "input/output error";
    case CF_ENOTFOUND: return "not found";
    case CF_EDB: return "catalog database error";
    case CF_EUNSUPPORTED: return "not supported by the model";
    case CF_EINTERNAL: return "internal error";
    }
    return "unknown status";
}

void cf_error_clear(cf_error *err)
{
    if (!err) return;
    err->file = NULL;
    err->line = 0;
    err->column = 0;
    err->param[0] = '\0';
    err->message[0] = '\0';
}

void cf_error_set(cf_error *err, const char *file, long line, long column, const char *fmt, ...)
{
    va_list ap;
    if (!err) return;
    err->file = file;
    err->line = line;
    err->column = column;
    err->param[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void cf_error_set_param(cf_error *err, const char *param, const char *fmt, ...)
{
    va_list ap;
    if (!err) return;
    err->file = NULL;
    err->line = 0;
    err->column = 0;
    snprintf(err->param, sizeof err->param, "%s", param ? param : "");
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

char *cf_error_format(const cf_error *err, char *buf, size_t n)
{
    if (!buf || n == 0) return buf;
    buf[0] = '\0';
    if (!err) return buf;
    if (err->file && err->line > 0 && err->column > 0)
        snprintf(buf, n, "%s:%ld:%ld: %s", err->file, err->line, err->column, err->message);
    else if (err->file && err->line > 0)
        snprintf(buf, n, "%s:%ld: %s", err->file, err->line, err->message);
    else if (err->file)
        snprintf(buf, n, "%s: %s", err->file, err->message);
    else
        snprintf(buf, n, "%s", err->message);
    return buf;
}

int cf_status_exit_code(cf_status st)
{
    switch (st) {
    case CF_OK: return 0;
    /* A request the model cannot answer for that input (an offering whose
     * gpus_per_node or fabric no source states) is the user's to change,
     * like a bad option: not an internal error. */
    case CF_EINVAL: case CF_ENOTFOUND: case CF_EUNSUPPORTED: return 2;
    case CF_EPARSE: case CF_ELIMIT: return 3;
    default: return 4;
    }
}
