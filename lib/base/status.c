/* status.c — status strings, the error record and the exit code of each
 * status. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/status.h"
#include "base/base.h"

/* Both maps below come from CF_STATUS_MAP (status.h): one row per status.
 * A value outside the enum is "unknown status" and exit code 4. */
const char *cf_strerror(cf_status st)
{
    switch (st) {
#define STATUS_MESSAGE(name, value, message, exit_code) case name: return message;
    CF_STATUS_MAP(STATUS_MESSAGE)
#undef STATUS_MESSAGE
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
#define STATUS_EXIT_CODE(name, value, message, exit_code) case name: return exit_code;
    CF_STATUS_MAP(STATUS_EXIT_CODE)
#undef STATUS_EXIT_CODE
    }
    return 4;
}
