/* head.c — the framing and size checks of a request's head (head.h), made
 * once the head has arrived and api.c's name and route checks passed,
 * before any byte of the body is read. No libmicrohttpd here: server.c and
 * the fuzz harness fill the srv_head. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "clusterfit/limits.h"
#include "head.h"

static int refuse(srv_refusal *why, unsigned status, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int refuse(srv_refusal *why, unsigned status, const char *code, const char *fmt, ...)
{
    va_list ap;
    why->status = status;
    why->code = code;
    va_start(ap, fmt);
    vsnprintf(why->message, sizeof why->message, fmt, ap);
    va_end(ap);
    return -1;
}

static int has_body_method(const char *m)
{
    return m && (strcmp(m, "POST") == 0 || strcmp(m, "PUT") == 0 || strcmp(m, "PATCH") == 0);
}

/* A transfer coding: libmicrohttpd decodes only `chunked`, and reads any
 * other until the connection closes (a client waiting for a reply then
 * gets none until the idle timeout, issue 21). Neither is taken: the body
 * of every route is small enough to declare its length, and a chunk
 * libmicrohttpd finds malformed is answered by libmicrohttpd itself,
 * without the server's headers. */
static int check_coding(const srv_head *h, srv_refusal *why)
{
    const char *te = h->transfer_encoding;
    if (!te) return 0;
    while (*te == ' ' || *te == '\t') te++;
    if (strncasecmp(te, "chunked", 7) == 0 && te[7 + strspn(te + 7, " \t")] == '\0')
        return refuse(why, 411, "length_required",
                      "a chunked body is not accepted: send the body with a Content-Length");
    return refuse(why, 501, "not_implemented",
                  "transfer coding not implemented (send the body with a Content-Length "
                  "and no Transfer-Encoding)");
}

static int check_content_length(const srv_head *h, srv_refusal *why)
{
    const char *cl = h->content_length;
    char *end;
    unsigned long long n;
    if (!cl || !has_body_method(h->method)) return 0;
    errno = 0;
    n = strtoull(cl, &end, 10);
    /* Only refused here: the budget of all bodies is taken as bytes
     * arrive, not on a declaration a trickling client never honours. */
    if (errno || end == cl || n > (unsigned long long)CF_MAX_HTTP_BODY_BYTES)
        return refuse(why, 413, "payload_too_large",
                      "the body is larger than %ld bytes (CF_MAX_HTTP_BODY_BYTES)",
                      (long)CF_MAX_HTTP_BODY_BYTES);
    return 0;
}

int srv_head_check(const srv_head *h, srv_refusal *why)
{
    const char *b;
    size_t bn;
    if (check_coding(h, why) != 0) return -1;
    if (h->n_headers > (size_t)CF_MAX_HTTP_HEADERS)
        return refuse(why, 431, "bad_request", "more than %d header lines", CF_MAX_HTTP_HEADERS);
    if (h->header_bytes > (size_t)CF_MAX_HTTP_HEAD_BYTES)
        return refuse(why, 431, "bad_request", "the header lines are longer than %ld bytes in all",
                      (long)CF_MAX_HTTP_HEAD_BYTES);
    if (h->args_overflow || h->n_args > SRV_MAX_ARGS)
        return refuse(why, 400, "bad_request", "more than %d query parameters", SRV_MAX_ARGS);
    if (h->arg_bytes > (size_t)CF_MAX_QUERY_BYTES)
        return refuse(why, 400, "bad_request", "the query string is longer than %ld bytes",
                      (long)CF_MAX_QUERY_BYTES);
    if (h->target_len > (size_t)CF_MAX_HTTP_TARGET_BYTES)
        return refuse(why, 414, "bad_request", "the request target is longer than %ld bytes",
                      (long)CF_MAX_HTTP_TARGET_BYTES);
    if (check_content_length(h, why) != 0) return -1;
    if (has_body_method(h->method) && h->content_type &&
        strncasecmp(h->content_type, "multipart/form-data", 19) == 0 &&
        srv_multipart_boundary(h->content_type, &b, &bn) != 0)
        return refuse(why, 400, "bad_request",
                      "malformed multipart/form-data (no boundary, or one over 70 bytes)");
    return 0;
}
