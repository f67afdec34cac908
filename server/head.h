/* head.h — the framing and size checks of a request's head (head.c) and the
 * multipart/form-data body (multipart.c), on their own so that they run
 * without a socket: server.c fills a srv_head from libmicrohttpd's parsed
 * head, and the fuzz harness (tests/fuzz/fuzz_http.c) from raw bytes.
 * Private to server/ and its tests. The checks of names (Host, Origin),
 * routes and content types are api.c's (srv_api_check); these come after
 * them (docs/security.md, "The order of the checks"). */
#ifndef CLUSTERFIT_SERVER_HEAD_H
#define CLUSTERFIT_SERVER_HEAD_H

#include <stddef.h>

/* A request's head, as far as these checks need it. Strings are borrowed,
 * NULL when the header is absent. */
typedef struct srv_head {
    const char *method;             /* "GET", "POST", ... */
    size_t target_len;              /* bytes of the raw request target */
    size_t n_headers;               /* header lines */
    size_t header_bytes;            /* their names and values, 4 more a line (": ", CRLF) */
    size_t n_args;                  /* query parameters */
    size_t arg_bytes;               /* their decoded names and values, 2 more each */
    int args_overflow;              /* more parameters than the server keeps (n_args is a floor) */
    const char *transfer_encoding;  /* the Transfer-Encoding header */
    const char *content_length;     /* the Content-Length header */
    const char *content_type;       /* the Content-Type header */
} srv_head;

/* Query parameters a request may have (more: 400). */
#define SRV_MAX_ARGS 64

/* Why a request was refused: its status, srv_error's code and the message. */
typedef struct srv_refusal {
    unsigned status;                /* 400, 411, 413, 414, 431 or 501 */
    const char *code;               /* "bad_request", "payload_too_large", ... (static) */
    char message[512];              /* what was wrong and the bound */
} srv_refusal;

/* The checks, in this order: Transfer-Encoding (any coding but chunked: 501
 * not_implemented; chunked: 411 length_required, a body must declare its
 * Content-Length, so that libmicrohttpd never decodes chunks and answers a
 * bad one itself), the header lines' count and bytes (431), the query
 * parameters' count and bytes (400), the target's length (414), a declared
 * body over CF_MAX_HTTP_BODY_BYTES (413), a multipart/form-data body
 * without a usable boundary (400). 0 when the head passes; -1 with *why. */
int srv_head_check(const srv_head *h, srv_refusal *why);

/* The boundary of a multipart/form-data Content-Type (`boundary=B` or
 * `boundary="B"`, 1 to 70 bytes, RFC 2046): 0 with *b and *n pointing into
 * ctype; -1 when there is none or it is malformed. */
int srv_multipart_boundary(const char *ctype, const char **b, size_t *n);

/* The upload of a multipart/form-data body: the data of every part named
 * "file" or "log", or carrying a filename, concatenated (other fields are
 * ignored). */
typedef struct srv_upload {
    size_t len;                     /* bytes of the upload, moved to the start of the body */
    int seen;                       /* such a part was found */
    char name[128];                 /* the first such part's file name (basename, control
                                       bytes and '\' as '_'), "upload" when it has none */
} srv_upload;

/* Parses `body` (len bytes; ctype its Content-Type) in place: the upload's
 * bytes are moved to body[0..out->len) and body[out->len] is set to NUL
 * (body must have len + 1 bytes). 0 on success; -1 with a static reason in
 * *why: no boundary, a part without a Content-Disposition name, a part
 * without its end, no closing delimiter. */
int srv_multipart_parse(const char *ctype, char *body, size_t len, srv_upload *out,
                        const char **why);

#endif
