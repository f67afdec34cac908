/* server.c — the daemon of `clusterfit serve` on libmicrohttpd.
 *
 * libmicrohttpd runs its own threads (a small pool with epoll where the
 * kernel has it), which only read requests, send replies and answer
 * /healthz; the routes run in SERVER_WORKERS worker threads, each request's
 * connection suspended meanwhile (issue 21). The main thread only waits for
 * SIGINT, SIGTERM or SIGHUP, blocked in every thread and taken with
 * sigwait(), then lets the routes in progress finish and stops the daemon,
 * so a stop never interrupts a request half-way. Per request the head is
 * checked first (api.c's srv_api_check: Host, Origin, route and method,
 * content type; then head.c's srv_head_check: transfer coding, header
 * lines, sizes), before any byte of the body is read and before the cache
 * is consulted (issue 21; docs/security.md, "The order of the checks");
 * then this file collects the query parameters and the body (raw, or the
 * file field of a multipart/form-data upload, multipart.c), bounded by
 * limits.h: a declared oversize body
 * is answered 413 before it is read, one that grows past the cap closes the
 * connection, all bodies together stay under a global budget taken as bytes
 * arrive, and a body slower than a floor rate is dropped. Slow clients
 * (issue 15): a watchdog thread drops connections whose request head has not
 * arrived within a deadline, and past soft limits (per address, in all)
 * sheds the connections that have waited longest for their head; the idle
 * timeout drops silent ones. Replies marked cacheable by api.c are kept,
 * keyed by the raw request target, bounded in entries and bytes, until the
 * catalog file (or its WAL) changes on disk — the catalog is only changed
 * by `clusterfit import`, another process, so the file is the only signal
 * there is (api.c reopens its catalog handle when the file at the path is
 * another one: cf_catalog_replaced). Each completed request is logged as one line on stderr, control
 * bytes escaped. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include "server.h"
#include "head.h"

/* libmicrohttpd's threads (a pool, epoll where the kernel has it): they
 * only read requests and send replies, and answer /healthz, so none waits
 * behind a route's work (issue 21: /healthz took 2.3-3.2 s under 1,000
 * uncached GETs while each pool thread ran its queued requests in turn). */
#define SERVER_THREADS 4

/* Worker threads that run the routes (plans, audits, catalog reads); a
 * request whose route runs there is suspended meanwhile. A slow plan or a
 * large audit occupies one while the others keep answering; the machines
 * this runs on have a few cores. */
#define SERVER_WORKERS 4

/* Query parameters kept per request; more is a 400. */
#define MAX_ARGS SRV_MAX_ARGS

typedef struct cache_entry {
    char *key;
    struct MHD_Response *resp;
    unsigned status;
    size_t len;
} cache_entry;

/* One open connection, as the watchdog sees it (issue 15): slow clients are
 * dropped by a deadline on the request head and shed, oldest first, when
 * their address or all connections together pass the soft limits. */
typedef struct conn_slot {
    int used;
    int fd;                         /* the socket (shut down, never closed, here) */
    int busy;                       /* a request's head has arrived: being read or answered */
    int shed;                       /* already shut down by the watchdog */
    struct sockaddr_storage addr;   /* the client's address (port ignored) */
    struct timespec since;          /* connection start, or the end of its last request */
} conn_slot;

typedef struct server {
    srv_api *api;
    const char *db_path;
    pthread_mutex_t conn_lock;      /* conns[]; held across shutdown() so no fd is reused */
    conn_slot conns[CF_MAX_HTTP_CONNECTIONS];
    double head_deadline_s;         /* request head deadline (and body grace) */
    unsigned long shed_count;       /* connections dropped by the watchdog */
    int stopping;                   /* the watchdog ends */
    pthread_t watchdog;
    pthread_mutex_t cache_lock;
    cache_entry cache[CF_MAX_HTTP_CACHE_ENTRIES];
    size_t n_cache;
    size_t cache_bytes;             /* bytes of the cached bodies and keys */
    struct stat db_seen, wal_seen;  /* catalog files as the cache last saw them */
    int db_seen_ok, wal_seen_ok;
    unsigned long generation;       /* counts cache clears */
    size_t evict;                   /* next entry replaced when the cache is full */
    pthread_mutex_t budget_lock;
    long bodies_bytes;              /* bytes reserved by bodies in flight */
    pthread_mutex_t work_lock;      /* the job queue, pending, work_stop */
    pthread_cond_t work_ready;      /* a job was queued, or the workers stop */
    pthread_cond_t work_idle;       /* pending fell to 0 */
    struct request *q_head, *q_tail; /* requests waiting for a worker */
    int pending;                    /* requests queued or running in a worker */
    int unsent;                     /* requests given to a worker and not yet completed */
    int work_stop;                  /* stopping: routes run inline, workers end */
    pthread_t workers[SERVER_WORKERS];
    int n_workers;                  /* workers started */
    /* While the daemon starts, libmicrohttpd's messages are kept here and
     * printed once, as the reason of our own message, not beside it. */
    int starting;
    char start_log[256];
} server;

/* One request's state, from its request line to its completion. */
typedef struct request {
    struct timespec t0;
    char method[16];
    char *uri;                      /* the raw request target as sent (cache key, log) */
    size_t target_len;              /* bytes of the raw target as sent (uri may be cut) */
    int started;                    /* the headers were seen (on_request's first call) */
    struct timespec body_t0;        /* first body byte */
    size_t body_seen;               /* body bytes received, kept or not */
    unsigned status;                /* 0 until a reply is queued */
    size_t sent;                    /* body bytes of the reply */
    char *body;
    size_t len, cap;
    long reserved;                  /* bytes counted in server.bodies_bytes */
    int head_ok;                    /* the head passed every check (on_headers): only then is
                                       a body kept, a post processor made, the cache consulted */
    int failed;                     /* the body was refused: HTTP status to answer */
    const char *refusal;            /* why, when failed is 400 (static text); NULL: malformed */
    size_t discarded;               /* body bytes read and dropped after a refusal */
    int multipart;                  /* a multipart/form-data body: parsed once read whole */
    int job;                        /* 0; 1 queued or running in a worker; 2 its reply is in rep */
    struct request *next;           /* the job queue */
    struct MHD_Connection *conn;    /* suspended while its route runs in a worker */
    srv_kv kv[SRV_MAX_ARGS];        /* the parameters of rq (libmicrohttpd's strings) */
    srv_request rq;                 /* what the worker answers */
    srv_reply rep;                  /* its reply */
    unsigned long gen;              /* the cache generation when the cache was asked */
    char upload_name[128];          /* the upload's file name, as the audit shows it */
    server *srv;                    /* the server this request belongs to */
} request;

/* --- helpers ------------------------------------------------------------------ */

/* Copies src into dst (size n), cut to fit: log fields only. */
static void copy_cut(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Escapes a byte string for the log: printable ASCII kept, everything
 * else (control bytes, %0a decoded or raw, escape sequences, bytes >= 0x80)
 * as \xHH, and the backslash itself, so one request is one log line. */
static void log_escape(char *dst, size_t n, const char *src)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && o + 5 < n; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '\\') {
            dst[o++] = (char)*p;
        } else {
            dst[o++] = '\\'; dst[o++] = 'x';
            dst[o++] = hex[*p >> 4]; dst[o++] = hex[*p & 15];
        }
    }
    dst[o] = '\0';
}

static int reserve(server *s, request *r, long more)
{
    int ok;
    pthread_mutex_lock(&s->budget_lock);
    ok = s->bodies_bytes + more <= CF_MAX_HTTP_BODIES_TOTAL_BYTES;
    if (ok) {
        s->bodies_bytes += more;
        r->reserved += more;
    }
    pthread_mutex_unlock(&s->budget_lock);
    return ok;
}

static void release(server *s, request *r)
{
    pthread_mutex_lock(&s->budget_lock);
    s->bodies_bytes -= r->reserved;
    pthread_mutex_unlock(&s->budget_lock);
    r->reserved = 0;
}

/* Appends to the request body within `cap`: -1 when over it, -2 when the
 * budget of all bodies together is spent (or memory is short). */
static int body_append(server *s, request *r, const char *data, size_t n, size_t cap)
{
    if (n > cap - r->len) return -1;
    if (r->len + n + 1 > r->cap) {
        size_t want = r->cap ? r->cap : 64 * 1024;
        char *nb;
        while (want < r->len + n + 1) want *= 2;
        if (want > cap + 1) want = cap + 1;
        if ((long)want > r->reserved && !reserve(s, r, (long)want - r->reserved)) return -2;
        nb = realloc(r->body, want);
        if (!nb) return -2;
        r->body = nb;
        r->cap = want;
    }
    memcpy(r->body + r->len, data, n);
    r->len += n;
    r->body[r->len] = '\0';
    return 0;
}

/* --- cache -------------------------------------------------------------------- */

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void cache_clear_locked(server *s)
{
    for (size_t i = 0; i < s->n_cache; i++) {
        free(s->cache[i].key);
        MHD_destroy_response(s->cache[i].resp);
    }
    s->n_cache = 0;
    s->cache_bytes = 0;
}

/* Empties the cache when the catalog file or its WAL changed. Locked. */
static void cache_check_locked(server *s)
{
    char wal[4096];
    struct stat db, w;
    int db_ok = stat(s->db_path, &db) == 0;
    int wal_ok;
    snprintf(wal, sizeof wal, "%s-wal", s->db_path);
    wal_ok = stat(wal, &w) == 0;
    if (db_ok != s->db_seen_ok || wal_ok != s->wal_seen_ok || (db_ok && !same_file(&db, &s->db_seen)) ||
        (wal_ok && !same_file(&w, &s->wal_seen))) {
        cache_clear_locked(s);
        s->generation++;
        s->db_seen_ok = db_ok;
        s->wal_seen_ok = wal_ok;
        if (db_ok) s->db_seen = db;
        if (wal_ok) s->wal_seen = w;
    }
}

/* Queues the cached response for `key` if there is one (under the lock, so
 * a concurrent clear cannot free it first); returns 1 if queued. *gen gets
 * the cache generation the caller must pass to cache_put. */
static int cache_queue(server *s, const char *key, struct MHD_Connection *c, request *r,
                       unsigned long *gen)
{
    int done = 0;
    pthread_mutex_lock(&s->cache_lock);
    cache_check_locked(s);
    *gen = s->generation;
    for (size_t i = 0; i < s->n_cache; i++) {
        if (strcmp(s->cache[i].key, key) == 0) {
            r->status = s->cache[i].status;
            r->sent = s->cache[i].len;
            done = MHD_queue_response(c, s->cache[i].status, s->cache[i].resp) == MHD_YES ? 1 : -1;
            break;
        }
    }
    pthread_mutex_unlock(&s->cache_lock);
    return done;
}

/* Keeps `resp` unless the cache was cleared since generation `gen` (the reply
 * may predate a catalog change). Returns 1 when the cache took
 * `resp` (it then owns it; libmicrohttpd responses may be queued any number
 * of times). */
static int cache_put(server *s, const char *key, struct MHD_Response *resp, unsigned status,
                     size_t len, unsigned long gen)
{
    int kept = 0;
    size_t cost = len + strlen(key) + 1;
    if (len > (size_t)CF_MAX_HTTP_CACHE_ENTRY_BYTES) return 0;  /* too big to keep */
    pthread_mutex_lock(&s->cache_lock);
    if (gen == s->generation) {
        int dup = 0;
        char *k;
        size_t slot = s->n_cache;
        for (size_t i = 0; i < s->n_cache; i++)
            if (strcmp(s->cache[i].key, key) == 0) dup = 1;
        k = dup ? NULL : strdup(key);
        /* Full in entries or in bytes: replace entries in turn (a response
         * stays alive while a connection still sends it: libmicrohttpd
         * counts references). */
        while (k && s->n_cache > 0 &&
               (s->n_cache == CF_MAX_HTTP_CACHE_ENTRIES ||
                s->cache_bytes + cost > (size_t)CF_MAX_HTTP_CACHE_BYTES)) {
            size_t v = s->evict++ % s->n_cache;
            s->cache_bytes -= s->cache[v].len + strlen(s->cache[v].key) + 1;
            free(s->cache[v].key);
            MHD_destroy_response(s->cache[v].resp);
            s->cache[v] = s->cache[--s->n_cache];
        }
        slot = s->n_cache;
        if (k) {
            s->n_cache++;
            s->cache[slot].key = k;
            s->cache[slot].resp = resp;
            s->cache[slot].status = status;
            s->cache[slot].len = len;
            s->cache_bytes += cost;
            kept = 1;
        }
    }
    pthread_mutex_unlock(&s->cache_lock);
    return kept;
}

/* --- replies -------------------------------------------------------------------- */

static const char *content_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot) return "application/octet-stream";
    if (strcmp(dot, ".html") == 0) return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0) return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0) return "text/css; charset=utf-8";
    if (strcmp(dot, ".svg") == 0) return "image/svg+xml";
    if (strcmp(dot, ".png") == 0) return "image/png";
    return "application/octet-stream";
}

static void common_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                            "script-src 'self'; frame-ancestors 'none'");
    MHD_add_response_header(resp, "Cache-Control", "no-cache");
}

static struct MHD_Response *build_response(const srv_reply *rep, size_t *len)
{
    struct MHD_Response *resp;
    if (rep->file) {
        resp = MHD_create_response_from_buffer(rep->file->len, (void *)rep->file->data,
                                               MHD_RESPMEM_PERSISTENT);
        if (resp) MHD_add_response_header(resp, "Content-Type", content_type(rep->file->path));
        *len = rep->file->len;
    } else {
        static const char oom[] =
            "{\"error\":{\"code\":\"internal\",\"message\":\"could not build the reply\"}}";
        char *text = rep->json ? json_dumps(rep->json, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                                       JSON_REAL_PRECISION(10)) : NULL;
        if (text) {
            *len = strlen(text);
            resp = MHD_create_response_from_buffer(*len, text, MHD_RESPMEM_MUST_FREE);
            if (!resp) free(text);
        } else {
            *len = sizeof oom - 1;
            resp = MHD_create_response_from_buffer(*len, (void *)oom, MHD_RESPMEM_PERSISTENT);
        }
        if (resp) MHD_add_response_header(resp, "Content-Type", "application/json");
    }
    if (resp) {
        common_headers(resp);
        if (rep->allow) MHD_add_response_header(resp, "Allow", rep->allow);
        if (rep->status == 503) MHD_add_response_header(resp, "Retry-After", "5");
    }
    return resp;
}

static enum MHD_Result queue(struct MHD_Connection *c, request *r, unsigned status,
                             struct MHD_Response *resp, size_t len)
{
    enum MHD_Result ret;
    if (!resp) return MHD_NO;
    r->status = status;
    r->sent = len;
    ret = MHD_queue_response(c, status, resp);
    return ret;
}

static enum MHD_Result queue_error(struct MHD_Connection *c, request *r, unsigned status,
                                   const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static enum MHD_Result queue_error(struct MHD_Connection *c, request *r, unsigned status,
                                   const char *code, const char *fmt, ...)
{
    srv_reply rep = {0};
    char msg[SRV_MSG_MAX];
    struct MHD_Response *resp;
    size_t len = 0;
    enum MHD_Result ret;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    srv_error(&rep, status, code, "%s", msg);
    resp = build_response(&rep, &len);
    json_decref(rep.json);
    ret = queue(c, r, status, resp, len);
    if (resp) MHD_destroy_response(resp);
    return ret;
}

/* Queues the reply api.c built (not cached) and frees its JSON. */
static enum MHD_Result queue_reply(struct MHD_Connection *c, request *r, srv_reply *rep)
{
    size_t len = 0;
    struct MHD_Response *resp = build_response(rep, &len);
    enum MHD_Result ret = queue(c, r, rep->status, resp, len);
    if (resp) MHD_destroy_response(resp);
    json_decref(rep->json);
    rep->json = NULL;
    return ret;
}

/* --- parameters ------------------------------------------------------------------ */

typedef struct args {
    srv_kv kv[MAX_ARGS];
    size_t n;
    size_t bytes;
    int overflow;
} args;

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    args *a = cls;
    (void)kind;
    if (a->n == MAX_ARGS) {
        a->overflow = 1;
        return MHD_NO;
    }
    a->kv[a->n].key = key ? key : "";  /* never NULL for the routes' strcmp */
    a->kv[a->n].value = value;
    a->bytes += (key ? strlen(key) : 0) + 2 + (value ? strlen(value) : 0);
    a->n++;
    return MHD_YES;
}

/* --- the request callback ------------------------------------------------------------ */

static int has_body_method(const char *m)
{
    return strcmp(m, "POST") == 0 || strcmp(m, "PUT") == 0 || strcmp(m, "PATCH") == 0;
}

/* The request's head as api.c's checks see it: no body, no parameters. */
static void head_of(struct MHD_Connection *c, const char *url, const char *method, srv_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->method = method;
    rq->path = url;
    rq->host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    rq->origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    rq->content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
}

/* Sums the header lines for srv_head_check. */
static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    srv_head *h = cls;
    (void)kind;
    h->n_headers++;
    h->header_bytes += (key ? strlen(key) : 0) + (value ? strlen(value) : 0) + 4;
    return MHD_YES;
}

/* The framing and sizes the head declares (head.c: transfer coding, header
 * lines, query, target, declared body, multipart boundary). MHD_YES when
 * they pass; else the refusal is queued. */
static enum MHD_Result check_sizes(struct MHD_Connection *c, request *r, const char *method,
                                   const char *ctype)
{
    srv_head h;
    srv_refusal why;
    args a = {0};
    memset(&h, 0, sizeof h);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_arg, &a);
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_header, &h);
    h.method = method;
    h.target_len = r->target_len;
    h.n_args = a.n;
    h.arg_bytes = a.bytes;
    h.args_overflow = a.overflow;
    h.transfer_encoding = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    h.content_length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    h.content_type = ctype;
    if (srv_head_check(&h, &why) != 0) return queue_error(c, r, why.status, why.code, "%s", why.message);
    return MHD_YES;
}

/* First call: the head only (issue 21). Every check a request's head
 * allows (Host, Origin, route and method, content type: srv_api_check;
 * then the framing and sizes: srv_head_check) is made here, before any
 * byte of the body is read and before the cache can answer: a refused
 * request is answered now, and its body is never parsed. */
static enum MHD_Result on_headers(server *s, struct MHD_Connection *c, request *r, const char *url,
                                  const char *method)
{
    srv_request rq;
    srv_reply rep;
    enum MHD_Result ret;
    head_of(c, url, method, &rq);
    if (srv_api_check(s->api, &rq, &rep) != 0) return queue_reply(c, r, &rep);
    if ((ret = check_sizes(c, r, method, rq.content_type)) != MHD_YES || r->status) return ret;
    r->head_ok = 1;
    r->multipart = has_body_method(method) && rq.content_type &&
                   strncasecmp(rq.content_type, "multipart/form-data", 19) == 0;
    return MHD_YES;
}

/* Body data: appended within the caps; after a refusal the rest is read and
 * dropped (so the error can still be answered), up to the cap, then the
 * connection is closed. */
static enum MHD_Result on_data(server *s, request *r, const char *data, size_t n)
{
    int rc = 0;
    double el;
    if (!r->body_seen) clock_gettime(CLOCK_MONOTONIC, &r->body_t0);
    r->body_seen += n;
    /* The rate floor: past the grace, a body slower than
     * CF_HTTP_BODY_MIN_BYTES_PER_S on average is dropped (it would hold its
     * slot and its share of the body budget for as long as it likes). */
    el = ms_since(&r->body_t0) / 1e3;
    if (el > s->head_deadline_s && (double)r->body_seen < el * CF_HTTP_BODY_MIN_BYTES_PER_S)
        return MHD_NO;
    if (r->failed) {
        r->discarded += n;
        return r->discarded > (size_t)CF_MAX_HTTP_BODY_BYTES ? MHD_NO : MHD_YES;
    }
    if ((rc = body_append(s, r, data, n, CF_MAX_HTTP_BODY_BYTES)) != 0) r->failed = rc == -1 ? 413 : 503;
    return MHD_YES;
}

/* --- workers ------------------------------------------------------------------- */

/* Runs queued routes; the reply goes into the request, whose connection is
 * then resumed (libmicrohttpd calls on_request again, which queues it). */
static void *worker(void *cls)
{
    server *s = cls;
    for (;;) {
        request *r;
        struct MHD_Connection *c;
        pthread_mutex_lock(&s->work_lock);
        while (!s->q_head && !s->work_stop) pthread_cond_wait(&s->work_ready, &s->work_lock);
        r = s->q_head;
        if (!r) {
            pthread_mutex_unlock(&s->work_lock);
            return NULL;
        }
        s->q_head = r->next;
        if (!s->q_head) s->q_tail = NULL;
        pthread_mutex_unlock(&s->work_lock);
        srv_api_handle(s->api, &r->rq, &r->rep);
        pthread_mutex_lock(&s->work_lock);
        r->job = 2;
        c = r->conn;
        pthread_mutex_unlock(&s->work_lock);
        MHD_resume_connection(c);     /* r may be freed from here on */
        pthread_mutex_lock(&s->work_lock);
        if (--s->pending == 0) pthread_cond_broadcast(&s->work_idle);
        pthread_mutex_unlock(&s->work_lock);
    }
}

/* Queues r's route for a worker and suspends its connection: 1; 0 when the
 * server is stopping (the caller then runs the route itself). /healthz is
 * never queued, so it answers however many routes wait. */
static int submit(server *s, struct MHD_Connection *c, request *r)
{
    if (strcmp(r->rq.path, "/healthz") == 0) return 0;
    pthread_mutex_lock(&s->work_lock);
    if (s->work_stop || s->n_workers == 0) {
        pthread_mutex_unlock(&s->work_lock);
        return 0;
    }
    r->job = 1;
    r->conn = c;
    r->next = NULL;
    MHD_suspend_connection(c);        /* before a worker can resume it */
    if (s->q_tail) s->q_tail->next = r;
    else s->q_head = r;
    s->q_tail = r;
    s->pending++;
    s->unsent++;
    pthread_cond_signal(&s->work_ready);
    pthread_mutex_unlock(&s->work_lock);
    return 1;
}

/* Stopping: no route is queued any more, the queued ones finish and their
 * connections are resumed (libmicrohttpd refuses to stop with a connection
 * suspended), then the workers end; their replies are given up to
 * CF_HTTP_TIMEOUT_S to be sent (issue 21: a plan in progress when SIGHUP
 * came got no reply). */
static void workers_stop(server *s)
{
    struct timespec nap = {0, 10 * 1000 * 1000};
    pthread_mutex_lock(&s->work_lock);
    s->work_stop = 1;
    pthread_cond_broadcast(&s->work_ready);
    while (s->pending > 0) pthread_cond_wait(&s->work_idle, &s->work_lock);
    pthread_mutex_unlock(&s->work_lock);
    for (int i = 0; i < s->n_workers; i++) pthread_join(s->workers[i], NULL);
    s->n_workers = 0;
    for (int waited = 0; waited < CF_HTTP_TIMEOUT_S * 100; waited++) {
        int left;
        pthread_mutex_lock(&s->work_lock);
        left = s->unsent;
        pthread_mutex_unlock(&s->work_lock);
        if (left <= 0) break;
        nanosleep(&nap, NULL);
    }
}

static void workers_start(server *s)
{
    while (s->n_workers < SERVER_WORKERS &&
           pthread_create(&s->workers[s->n_workers], NULL, worker, s) == 0)
        s->n_workers++;
}

/* The reply of r's route (in r->rep), queued and kept in the cache when it
 * may be. */
static enum MHD_Result send_route_reply(server *s, struct MHD_Connection *c, request *r,
                                        const char *key, int is_get)
{
    size_t len = 0;
    struct MHD_Response *resp = build_response(&r->rep, &len);
    enum MHD_Result ret = queue(c, r, r->rep.status, resp, len);
    if (resp && !(is_get && r->rep.cacheable && r->rep.status == 200 && ret == MHD_YES &&
                  cache_put(s, key, resp, r->rep.status, len, r->gen)))
        MHD_destroy_response(resp);
    json_decref(r->rep.json);
    r->rep.json = NULL;
    return ret;
}

/* The request as api.c sees it, in r->rq: the parameters (on_headers
 * checked their count and size), the head, the body or the multipart
 * upload. 0; -1 when the multipart body is malformed (*why). */
static int route_request(struct MHD_Connection *c, request *r, const char *url, const char *method,
                         const char **why)
{
    args a = {0};
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_arg, &a);
    memcpy(r->kv, a.kv, a.n * sizeof a.kv[0]);
    head_of(c, url, method, &r->rq);
    r->rq.args = r->kv;
    r->rq.n_args = a.n;
    r->rq.body = r->body;
    r->rq.body_len = r->len;
    if (r->multipart) {
        char none[1];
        srv_upload up;
        if (srv_multipart_parse(r->rq.content_type, r->body ? r->body : none, r->len, &up, why) != 0)
            return -1;
        memcpy(r->upload_name, up.name, sizeof r->upload_name);
        r->rq.body = up.seen ? r->body : NULL;
        r->rq.body_len = up.len;
        r->rq.upload_name = up.seen ? r->upload_name : NULL;
    }
    return 0;
}

/* Last call: the body (if any) is in. The head passed its checks in
 * on_headers, so the cache answers only requests whose Host (and Origin)
 * were accepted; an accepted name never changes a reply, so the key is the
 * raw target alone. The route runs in a worker (the connection suspended
 * meanwhile); libmicrohttpd calls again once it is resumed, and the reply
 * is sent then. */
static enum MHD_Result answer(server *s, struct MHD_Connection *c, request *r, const char *url,
                              const char *method)
{
    const char *key = r->uri ? r->uri : url, *why = NULL;
    int is_get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;

    if (r->job == 2) return send_route_reply(s, c, r, key, is_get);
    if (r->job == 1) return MHD_YES;    /* not resumed yet: nothing to do */
    if (!r->head_ok)    /* on_headers queues a reply for every request it refuses */
        return queue_error(c, r, 500, "internal", "the request was not checked");
    if (r->failed == 413)
        return queue_error(c, r, 413, "payload_too_large", "the body is larger than %ld bytes",
                           (long)CF_MAX_HTTP_BODY_BYTES);
    if (r->failed == 503)
        return queue_error(c, r, 503, "unavailable", "too many large requests in progress; try again shortly");
    if (r->failed)
        return queue_error(c, r, 400, "bad_request", "%s", r->refusal ? r->refusal : "malformed body");
    /* The cache key is the raw request target, as sent: two requests share
     * an entry only when their bytes are the same, so no decoded value
     * (provider=X%26sort%3Dgbps) can stand for another query. */
    if (is_get) {
        int q = cache_queue(s, key, c, r, &r->gen);
        if (q) return q > 0 ? MHD_YES : MHD_NO;
    }
    if (route_request(c, r, url, method, &why) != 0) return queue_error(c, r, 400, "bad_request", "%s", why);
    if (submit(s, c, r)) return MHD_YES;
    srv_api_handle(s->api, &r->rq, &r->rep);
    return send_route_reply(s, c, r, key, is_get);
}

static request *request_new(server *s, const char *uri)
{
    request *r = calloc(1, sizeof *r);
    size_t len = uri ? strlen(uri) : 0;
    if (!r) return NULL;
    r->srv = s;
    clock_gettime(CLOCK_MONOTONIC, &r->t0);
    r->target_len = len;
    if (len > (size_t)CF_MAX_HTTP_TARGET_BYTES) len = 256;     /* kept for the log only */
    r->uri = malloc(len + 1);
    if (!r->uri) {
        free(r);
        return NULL;
    }
    memcpy(r->uri, uri ? uri : "", len);
    r->uri[len] = '\0';
    return r;
}

/* The request line has arrived: its raw target is kept (libmicrohttpd
 * decodes the path and the parameters afterwards, in place). */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)c;
    return request_new(cls, uri);
}

/* --- slow clients (issue 15) ----------------------------------------------------- */

static double secs_since(const struct timespec *t0, const struct timespec *now)
{
    return (double)(now->tv_sec - t0->tv_sec) + (double)(now->tv_nsec - t0->tv_nsec) / 1e9;
}

static int same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family) return 0;
    if (a->ss_family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)(const void *)a)->sin_addr,
                      &((const struct sockaddr_in *)(const void *)b)->sin_addr, sizeof(struct in_addr)) == 0;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
    return 0;
}

/* A connection's slot (socket context): busy 1 when a request's head has
 * arrived, 0 when it waits for the next head (from now). */
static void conn_mark(server *s, struct MHD_Connection *c, int busy)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    conn_slot *k = ci ? ci->socket_context : NULL;
    if (!k) return;
    pthread_mutex_lock(&s->conn_lock);
    k->busy = busy;
    clock_gettime(CLOCK_MONOTONIC, &k->since);
    pthread_mutex_unlock(&s->conn_lock);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    server *s = cls;
    pthread_mutex_lock(&s->conn_lock);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *ad = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        *socket_context = NULL;
        for (size_t i = 0; fd && i < CF_MAX_HTTP_CONNECTIONS; i++) {
            conn_slot *k = &s->conns[i];
            if (k->used) continue;
            memset(k, 0, sizeof *k);
            k->used = 1;
            k->fd = fd->connect_fd;
            if (ad && ad->client_addr)
                memcpy(&k->addr, ad->client_addr, ad->client_addr->sa_family == AF_INET6
                       ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
            clock_gettime(CLOCK_MONOTONIC, &k->since);
            *socket_context = k;
            break;
        }
    } else if (*socket_context) {
        /* Called before libmicrohttpd closes the socket: under the lock, the
         * watchdog never shuts down a descriptor that was reused. */
        ((conn_slot *)*socket_context)->used = 0;
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&s->conn_lock);
}

static void shed(server *s, conn_slot *k)
{
    shutdown(k->fd, SHUT_RDWR);     /* libmicrohttpd sees the end and closes it */
    k->shed = 1;
    s->shed_count++;
}

/* The oldest connection waiting for its head for more than the shedding age,
 * from `addr` (NULL: any). Locked. */
static conn_slot *oldest_waiting(server *s, const struct sockaddr_storage *addr,
                                 const struct timespec *now)
{
    conn_slot *best = NULL;
    for (size_t i = 0; i < CF_MAX_HTTP_CONNECTIONS; i++) {
        conn_slot *k = &s->conns[i];
        if (!k->used || k->busy || k->shed || (addr && !same_addr(&k->addr, addr))) continue;
        if (secs_since(&k->since, now) < CF_HTTP_SHED_AGE_S) continue;
        if (!best || secs_since(&k->since, now) > secs_since(&best->since, now)) best = k;
    }
    return best;
}

/* Every 100 ms: a head not complete within the deadline is dropped; past
 * the soft limits (per address, all together), the oldest connections still
 * waiting for their head are shed until the count is back under them. */
static void *watchdog(void *cls)
{
    server *s = cls;
    for (;;) {
        struct timespec now, nap = {0, 100 * 1000 * 1000};
        size_t total = 0, old = 0;
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&s->conn_lock);
        if (s->stopping) {
            pthread_mutex_unlock(&s->conn_lock);
            return NULL;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (size_t i = 0; i < CF_MAX_HTTP_CONNECTIONS; i++) {
            conn_slot *k = &s->conns[i];
            if (!k->used || k->shed) continue;
            if (!k->busy && secs_since(&k->since, &now) > s->head_deadline_s) shed(s, k);
            else total++;
            if (!k->shed && !k->busy && secs_since(&k->since, &now) >= CF_HTTP_SHED_AGE_S) old++;
        }
        /* Only a connection waiting for its head past the shedding age is
         * shed: none, nothing to count (a burst of busy connections costs
         * the watchdog one pass, not one per pair). */
        for (size_t i = 0; old && i < CF_MAX_HTTP_CONNECTIONS; i++) {
            conn_slot *k = &s->conns[i], *v;
            size_t same = 0;
            if (!k->used || k->shed || k->busy || secs_since(&k->since, &now) < CF_HTTP_SHED_AGE_S)
                continue;
            for (size_t j = 0; j < CF_MAX_HTTP_CONNECTIONS; j++)
                if (s->conns[j].used && !s->conns[j].shed && same_addr(&s->conns[j].addr, &k->addr)) same++;
            while (same > CF_HTTP_SHED_CONNECTIONS_PER_IP && (v = oldest_waiting(s, &k->addr, &now))) {
                shed(s, v);
                same--;
                total--;
            }
        }
        while (old && total > CF_HTTP_SHED_CONNECTIONS) {
            conn_slot *v = oldest_waiting(s, NULL, &now);
            if (!v) break;
            shed(s, v);
            total--;
        }
        pthread_mutex_unlock(&s->conn_lock);
    }
}

static void watchdog_stop(server *s)
{
    pthread_mutex_lock(&s->conn_lock);
    s->stopping = 1;
    pthread_mutex_unlock(&s->conn_lock);
    pthread_join(s->watchdog, NULL);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    server *s = cls;
    request *r = *con_cls;
    (void)version;
    if (!r) {   /* the URI callback could not allocate */
        r = request_new(s, url);
        if (!r) return MHD_NO;
        *con_cls = r;
    }
    if (!r->started) {
        r->started = 1;
        copy_cut(r->method, sizeof r->method, method);
        conn_mark(s, c, 1);
        return on_headers(s, c, r, url, method);
    }
    if (r->status) {
        /* Answered from the headers (413, 503): read nothing more. */
        return *upload_size ? MHD_NO : MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        return on_data(s, r, upload, n);
    }
    return answer(s, c, r, url, method);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    server *s = cls;
    request *r = *con_cls;
    const union MHD_ConnectionInfo *ci;
    char addr[INET6_ADDRSTRLEN] = "-", line[1024], when[32], target[600], method[64];
    time_t now = time(NULL);
    struct tm tm;
    static const char *const why[] = {"ok", "error", "timeout", "shutdown", "read-error", "client-abort"};

    if (!r) return;
    conn_mark(s, c, 0);
    log_escape(target, sizeof target, r->uri ? r->uri : "-");
    ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, addr, sizeof addr);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, addr, sizeof addr);
    }
    log_escape(method, sizeof method, r->method[0] ? r->method : "-");
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK && r->status)
        snprintf(line, sizeof line, "%s %s %s %s %u %zu %.2fms\n", when, addr, method, target,
                 r->status, r->sent, ms_since(&r->t0));
    else
        snprintf(line, sizeof line, "%s %s %s %s %u - %.2fms closed (%s)\n", when, addr, method,
                 target, r->status, ms_since(&r->t0), (unsigned)toe < 6 ? why[toe] : "?");
    fputs(line, stderr);
    json_decref(r->rep.json);
    if (r->job) {
        pthread_mutex_lock(&s->work_lock);
        s->unsent--;
        pthread_mutex_unlock(&s->work_lock);
    }
    free(r->body);
    free(r->uri);
    release(s, r);
    free(r);
    *con_cls = NULL;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    server *s = cls;
    char buf[512];
    size_t n;
    vsnprintf(buf, sizeof buf, fmt, ap);
    n = strlen(buf);
    while (n && buf[n - 1] == '\n') buf[--n] = '\0';
    if (s && s->starting) {
        /* Only the main thread runs while the daemon starts. */
        if (!s->start_log[0]) snprintf(s->start_log, sizeof s->start_log, "%.255s", buf);
        return;
    }
    fprintf(stderr, "clusterfit serve: %s\n", buf);
}

/* Binds a socket to `addr` the way libmicrohttpd will (SO_REUSEADDR), then
 * closes it: a port in use or not ours to take is told once, clearly, with
 * errno, before the daemon starts. 0 when the bind would succeed, else errno. */
static int probe_bind(const struct addrinfo *ai)
{
    int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol), on = 1, e = 0;
    if (fd < 0) return 0; /* let the daemon report it */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (ai->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0) e = errno;
    close(fd);
    return e;
}

/* --- run -------------------------------------------------------------------------- */

/* The connection cap: CF_MAX_HTTP_CONNECTIONS when the open-file limit
 * holds it with room for the catalog and the log (raised to it when the
 * hard limit allows), else what the limit leaves, said once. */
static unsigned connection_cap(void)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)CF_MAX_HTTP_CONNECTIONS + 64;
    unsigned cap;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return CF_MAX_HTTP_CONNECTIONS;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
        if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return CF_MAX_HTTP_CONNECTIONS;
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want) return CF_MAX_HTTP_CONNECTIONS;
    cap = rl.rlim_cur > 192 ? (unsigned)(rl.rlim_cur - 64) : 128;
    fprintf(stderr, "clusterfit serve: the open-file limit (%lu) allows %u connections at once, "
            "not %d (ulimit -n)\n", (unsigned long)rl.rlim_cur, cap, CF_MAX_HTTP_CONNECTIONS);
    return cap;
}

static void server_init(server *s, const srv_config *cfg)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->cache_lock, NULL);
    pthread_mutex_init(&s->budget_lock, NULL);
    pthread_mutex_init(&s->conn_lock, NULL);
    pthread_mutex_init(&s->work_lock, NULL);
    pthread_cond_init(&s->work_ready, NULL);
    pthread_cond_init(&s->work_idle, NULL);
    s->db_path = cfg->db_path;
    /* Tests shorten the head deadline (CLUSTERFIT_SERVE_DEADLINE_S), never lengthen it. */
    s->head_deadline_s = cfg->head_deadline_s > 0 && cfg->head_deadline_s < CF_HTTP_HEAD_DEADLINE_S
                         ? cfg->head_deadline_s : CF_HTTP_HEAD_DEADLINE_S;
}

/* The daemon on `ai` with the server's options (the pool, the memory per
 * connection, the caps, the callbacks); NULL when it cannot start, its
 * reason kept in s->start_log. */
static struct MHD_Daemon *start_daemon(server *s, unsigned flags, unsigned port,
                                       const struct addrinfo *ai, unsigned cap)
{
    struct MHD_Daemon *d;
    s->starting = 1;
    d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, s,
                         MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
                         MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CF_HTTP_CONNECTION_MEMORY_BYTES,
                         MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVER_THREADS,
                         MHD_OPTION_CONNECTION_LIMIT, cap,
                         MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                         cap < CF_MAX_HTTP_CONNECTIONS ? cap / 2 : (unsigned)CF_MAX_HTTP_CONNECTIONS_PER_IP,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CF_HTTP_TIMEOUT_S,
                         MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                         MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
                         MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
                         MHD_OPTION_END);
    s->starting = 0;
    return d;
}

cf_status srv_run(const srv_config *cfg)
{
    server s;
    sigset_t set;
    struct addrinfo hints, *ai = NULL;
    struct MHD_Daemon *d = NULL;
    const union MHD_DaemonInfo *di;
    char err[CF_ERROR_MSG_MAX + 512] = "", port_s[16];
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG |
                     MHD_ALLOW_SUSPEND_RESUME;
    int sig = 0, gai;
    cf_status rc = CF_EINTERNAL;

    server_init(&s, cfg);
    /* Block the stop signals in every thread (the daemon's threads inherit
     * this mask) and take them in sigwait() below. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);    /* the terminal or ssh session that started it closed */
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    snprintf(port_s, sizeof port_s, "%u", cfg->port);
    if ((gai = getaddrinfo(cfg->bind, port_s, &hints, &ai)) != 0 || !ai) {
        fprintf(stderr, "clusterfit serve: --bind '%s' is not a numeric IPv4 or IPv6 address (%s)\n",
                cfg->bind, gai_strerror(gai));
        rc = CF_EINVAL;
        goto fail;
    }
    if (ai->ai_family == AF_INET6) flags |= MHD_USE_IPv6;

    /* Port 0 too (a free port): an address of no interface fails alike,
     * with the same hint and exit (issue 23: it exited 4, raw). */
    if ((gai = probe_bind(ai)) != 0) {
        /* Ordinary situations the user settles with --port or --bind. */
        int usage = gai == EADDRINUSE || gai == EACCES || gai == EADDRNOTAVAIL;
        fprintf(stderr, "clusterfit serve: cannot listen on %s port %u: %s%s\n", cfg->bind,
                cfg->port, strerror(gai),
                gai == EADDRINUSE ? " (another program, or another clusterfit serve, has it; "
                                    "choose another with --port, or --port 0 for a free one)"
                : gai == EACCES ? " (ports below 1024 need privileges; choose another with --port)"
                : gai == EADDRNOTAVAIL ? " (no interface of this machine has that address; see --bind)"
                : "");
        rc = usage ? CF_EINVAL : CF_EINTERNAL;
        goto fail;
    }
    s.api = srv_api_new(cfg->db_path, cfg->now, err, sizeof err);
    if (!s.api) {
        fprintf(stderr, "clusterfit serve: %s\n", err);
        rc = CF_EDB;
        goto fail;
    }
    workers_start(&s);
    d = start_daemon(&s, flags, cfg->port, ai, connection_cap());
    if (!d) {
        int e = errno;
        fprintf(stderr, "clusterfit serve: cannot listen on %s port %u: %s\n", cfg->bind, cfg->port,
                s.start_log[0] ? s.start_log : e ? strerror(e) : "libmicrohttpd failed to start");
        goto fail;
    }
    di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    srv_api_set_names(s.api, cfg->bind, di ? (unsigned)di->port : cfg->port, cfg->allow_hosts,
                      cfg->n_allow_hosts);
    if (pthread_create(&s.watchdog, NULL, watchdog, &s) != 0) {
        fprintf(stderr, "clusterfit serve: cannot start the connection watchdog\n");
        workers_stop(&s);
        MHD_stop_daemon(d);
        goto fail;
    }
    fprintf(stderr, "clusterfit serve: listening on http://%s%s%s:%u/ (catalog %s)\n",
            ai->ai_family == AF_INET6 ? "[" : "", cfg->bind, ai->ai_family == AF_INET6 ? "]" : "",
            di ? (unsigned)di->port : cfg->port, cfg->db_path);
    while (sigwait(&set, &sig) != 0) {}
    fprintf(stderr, "clusterfit serve: %s received, stopping\n", sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM");
    watchdog_stop(&s);
    workers_stop(&s);
    MHD_stop_daemon(d);
    fprintf(stderr, "clusterfit serve: stopped\n");
    rc = CF_OK;
fail:
    workers_stop(&s);
    cache_clear_locked(&s);
    srv_api_free(s.api);
    if (ai) freeaddrinfo(ai);
    pthread_mutex_destroy(&s.cache_lock);
    pthread_mutex_destroy(&s.budget_lock);
    pthread_mutex_destroy(&s.conn_lock);
    pthread_mutex_destroy(&s.work_lock);
    pthread_cond_destroy(&s.work_ready);
    pthread_cond_destroy(&s.work_idle);
    return rc;
}
