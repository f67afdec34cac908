/* fuzz_http.c — the server's request-head checks (server/head.c:
 * srv_head_check, srv_multipart_boundary) and its multipart/form-data
 * parser (server/multipart.c: srv_multipart_parse), without a socket. The
 * input is a raw request: a request line, header lines up to an empty line
 * (CRLF or LF), then the body. The head's fields are filled as server.c
 * fills them from libmicrohttpd's parse (the target's length, the count and
 * bytes of header lines and query parameters, Transfer-Encoding,
 * Content-Length, Content-Type), each header value its own exact-size heap
 * copy so AddressSanitizer sees a read past its end. The body goes, in its
 * own heap copy of len + 1 bytes (the parser writes the NUL), through the
 * multipart parser with the request's Content-Type and with a fixed one
 * (boundary "XyZ"), so mutations of the body alone reach the parser.
 * server/head.c and server/multipart.c are not in the library: replay.sh
 * and run.sh compile them into this harness with -Iserver (nothing else of
 * the server is linked). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "head.h"

#define MAX_KEPT 8

/* A copy of p[0..n) as a NUL-terminated heap string. */
static char *dup_n(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

static void parse_body(const char *ctype, const uint8_t *body, size_t len)
{
    char *copy = malloc(len + 1);
    srv_upload up;
    const char *why = NULL;
    if (!copy) return;
    memcpy(copy, body, len);
    if (srv_multipart_parse(ctype, copy, len, &up, &why) == 0) {
        if (up.len > len || copy[up.len] != '\0' || strnlen(up.name, sizeof up.name) == sizeof up.name)
            abort();
    } else if (!why) {
        abort();
    }
    free(copy);
}

/* The query of the target t[0..n): parameters and bytes as collect_arg counts them. */
static void count_args(const uint8_t *t, size_t n, srv_head *h)
{
    const uint8_t *q = memchr(t, '?', n);
    if (!q) return;
    for (const uint8_t *p = q + 1, *end = t + n; p <= end;) {
        const uint8_t *amp = memchr(p, '&', (size_t)(end - p));
        size_t k = amp ? (size_t)(amp - p) : (size_t)(end - p);
        h->n_args++;
        h->arg_bytes += k + 2;
        if (h->n_args > SRV_MAX_ARGS) h->args_overflow = 1;
        if (!amp) break;
        p = amp + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    srv_head h;
    srv_refusal why;
    char *kept[MAX_KEPT], method[16] = "";
    size_t n_kept = 0, i = 0, line_end;
    memset(&h, 0, sizeof h);
    /* The request line: METHOD SP TARGET SP VERSION. */
    line_end = 0;
    while (line_end < size && data[line_end] != '\n') line_end++;
    {
        const uint8_t *sp = memchr(data, ' ', line_end), *sp2;
        size_t ml = sp ? (size_t)(sp - data) : line_end;
        memcpy(method, data, ml < sizeof method - 1 ? ml : sizeof method - 1);
        if (sp && (sp2 = memchr(sp + 1, ' ', line_end - (size_t)(sp + 1 - data))) != NULL) {
            h.target_len = (size_t)(sp2 - sp - 1);
            count_args(sp + 1, h.target_len, &h);
        }
    }
    h.method = method;
    i = line_end + 1;
    /* Header lines up to an empty one. */
    while (i < size) {
        size_t e = i, vn;
        const uint8_t *colon, *v;
        char **slot = NULL;
        while (e < size && data[e] != '\n') e++;
        vn = e > i && data[e - 1] == '\r' ? e - 1 - i : e - i;
        if (vn == 0) { i = e + 1; break; }
        h.n_headers++;
        h.header_bytes += vn + 2;
        colon = memchr(data + i, ':', vn);
        if (colon) {
            size_t kn = (size_t)(colon - (data + i));
            v = colon + 1;
            while (v < data + i + vn && (*v == ' ' || *v == '\t')) v++;
            if (kn == 17 && strncasecmp((const char *)data + i, "transfer-encoding", 17) == 0) slot = (char **)&h.transfer_encoding;
            else if (kn == 14 && strncasecmp((const char *)data + i, "content-length", 14) == 0) slot = (char **)&h.content_length;
            else if (kn == 12 && strncasecmp((const char *)data + i, "content-type", 12) == 0) slot = (char **)&h.content_type;
            if (slot && !*slot && n_kept < MAX_KEPT && (kept[n_kept] = dup_n(v, (size_t)(data + i + vn - v))))
                *slot = kept[n_kept++];
        }
        i = e + 1;
    }
    if (srv_head_check(&h, &why) != 0 && (why.status < 400 || why.status > 599 || !why.code)) abort();
    if (h.content_type) {
        const char *b;
        size_t bn;
        if (srv_multipart_boundary(h.content_type, &b, &bn) == 0 &&
            (bn == 0 || bn > 70 || b < h.content_type || b + bn > h.content_type + strlen(h.content_type)))
            abort();
    }
    if (i <= size) {
        parse_body(h.content_type ? h.content_type : "multipart/form-data", data + i, size - i);
        parse_body("multipart/form-data; boundary=XyZ", data + i, size - i);
    }
    for (size_t k = 0; k < n_kept; k++) free(kept[k]);
    return 0;
}
