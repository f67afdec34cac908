/* tree.c — reading a host tree under a sysroot: every path the probe reads
 * is a host path ("/sys/class/infiniband") read under the root through a
 * file access (cf__tree_fs: the disk here, or a tree in memory, memfs.c);
 * reads are capped (CF_MAX_PROBE_FILE_BYTES), directory listings sorted and
 * capped, links resolved and kept inside the tree. Every string handed on
 * is checked: a file or entry name that is not UTF-8 text, or a path or
 * value that does not fit, is recorded in `skipped` with its host path and
 * the reason, and the caller goes on (nothing is ever cut silently). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "base/base.h"
#include "probe/probe_int.h"

/* ------------------------------------------------------------ the disk */

static int disk_lexists(void *ctx, const char *p)
{
    struct stat st;
    (void)ctx;
    return lstat(p, &st) == 0;
}

static char *disk_realpath(void *ctx, const char *p)
{
    char *r, *c;
    (void)ctx;
    if (!(r = realpath(p, NULL))) return NULL;
    c = cf__strdup(r);      /* cf__free, and the allocation counted */
    free(r);
    if (!c) errno = ENOMEM;
    return c;
}

static int disk_kind(void *ctx, const char *p)
{
    struct stat st;
    (void)ctx;
    if (stat(p, &st) != 0) return -1;
    return S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' : 'o';
}

static cf_status disk_read(void *ctx, const char *p, size_t cap, const char *cap_name, char **buf, size_t *len,
                           cf_error *err)
{
    (void)ctx;
    return cf__read_file(p, cap, cap_name, buf, len, err);
}

static int disk_list(void *ctx, const char *p, int (*fn)(void *arg, const char *name), void *arg)
{
    DIR *d = opendir(p);
    struct dirent *e;
    (void)ctx;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (fn(arg, e->d_name) != 0) break;
    closedir(d);
    return 0;
}

const cf__tree_fs *cf__tree_disk_fs(void)
{
    static const cf__tree_fs disk = {NULL, disk_lexists, disk_realpath, disk_kind, disk_read, disk_list};
    return &disk;
}

/* ------------------------------------------------------------ text */

void cf__text_copy(char *dst, size_t cap, const char *src, size_t n)
{
    if (!cap) return;
    if (n >= cap) {
        n = cap - 1;
        /* Back off over continuation bytes to the start of the cut
         * character, and leave that character out. */
        if ((unsigned char)src[n] >= 0x80) {
            while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80) n--;
        }
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void cf__text_repair(char *s)
{
    size_t len = strlen(s), i = 0;
    long off;
    while (i < len && (off = cf__bad_utf8((const unsigned char *)s + i, len - i, 1)) >= 0) {
        s[i + (size_t)off] = '?';
        i += (size_t)off + 1;
    }
}

/* ------------------------------------------------------------ the tree */

void cf__tree_skip(cf__tree *t, const char *path, const char *fmt, ...)
{
    char why[256], where[CF__PROBE_FULL];
    va_list ap;
    json_t *o;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (json_array_size(t->skipped) >= (size_t)CF_MAX_PROBE_ENTRIES) return;
    cf__text_copy(where, sizeof where, path, strlen(path));
    cf__text_repair(where);
    cf__text_repair(why);
    o = json_object();
    if (cf__json_set(o, "path", json_string(where)) | cf__json_set(o, "reason", json_string(why))) {
        json_decref(o);
        t->oom = 1;
        return;
    }
    if (json_array_append_new(t->skipped, o) != 0) t->oom = 1;
}

int cf__tree_path(cf__tree *t, char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    int w;
    va_start(ap, fmt);
    w = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    if (w >= 0 && (size_t)w < cap) return 0;
    if (cap) {
        cf__tree_skip(t, buf, "path longer than %zu bytes (CF_MAX_PROBE_PATH_BYTES): not read", cap - 1);
        buf[0] = '\0';     /* "": every read of it fails, with nothing more recorded */
    }
    return -1;
}

/* root + path into buf (CF__PROBE_FULL bytes); 0, or -1 when too long
 * (recorded: only a host path over CF_MAX_PROBE_PATH_BYTES can be). */
static int full(cf__tree *t, const char *path, char *buf)
{
    size_t rl = strlen(t->root), pl = strlen(path);
    if (pl == 0) return -1;     /* a path cf__tree_path refused (recorded there) */
    if (pl >= CF__PROBE_PATH || rl + pl >= CF__PROBE_FULL) {
        cf__tree_skip(t, path, "path longer than %zu bytes (CF_MAX_PROBE_PATH_BYTES): not read", CF__PROBE_PATH - 1);
        return -1;
    }
    memcpy(buf, t->root, rl);
    memcpy(buf + rl, path, pl + 1);
    return 0;
}

/* Whether resolved path r is inside the tree. */
static int within(const cf__tree *t, const char *r)
{
    size_t rl = strlen(t->root);
    return rl == 0 || (strncmp(r, t->root, rl) == 0 && (r[rl] == '/' || r[rl] == '\0'));
}

/* Whether the entry at full path p, links followed, is inside the tree:
 * 1 inside, 0 absent (a dangling link too), -1 outside (recorded). The live
 * host (root "") has no outside. */
static int inside(cf__tree *t, const char *path, const char *p)
{
    char *r;
    int ok;
    if (t->root[0] == '\0') return 1;
    r = t->fs->realpath(t->fs->ctx, p);
    if (!r) {
        if (errno == ENOMEM) t->oom = 1;
        return errno == ENOENT || errno == ENOTDIR ? 0 : 1;
    }
    ok = within(t, r);
    if (!ok) cf__tree_skip(t, path, "link leaves the tree (to %s)", r);
    cf__free(r);
    return ok ? 1 : -1;
}

int cf__tree_exists(cf__tree *t, const char *path)
{
    char p[CF__PROBE_FULL];
    if (full(t, path, p) != 0) return 0;
    return t->fs->lexists(t->fs->ctx, p);
}

int cf__tree_slurp(cf__tree *t, const char *path, char **buf, size_t *len)
{
    char p[CF__PROBE_FULL];
    cf_error err;
    cf_status s;
    int r, k;
    *buf = NULL;
    *len = 0;
    if (full(t, path, p) != 0) return -1;
    if ((r = inside(t, path, p)) <= 0) return r;
    if ((k = t->fs->kind(t->fs->ctx, p)) < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return 0;
        cf__tree_skip(t, path, "cannot stat: %s", strerror(errno));
        return -1;
    }
    if (k != 'f') {
        cf__tree_skip(t, path, "not a regular file");
        return -1;
    }
    cf_error_clear(&err);
    s = t->fs->read(t->fs->ctx, p, (size_t)CF_MAX_PROBE_FILE_BYTES, "CF_MAX_PROBE_FILE_BYTES", buf, len, &err);
    if (s == CF_ENOMEM) {
        t->oom = 1;
        return -1;
    }
    if (s != CF_OK) {
        cf__tree_skip(t, path, "%s", err.message);
        return -1;
    }
    return 1;
}

/* Why the text of a file cannot be used (NULL when it can). */
static const char *bad_text(const char *buf, size_t len, size_t cap, char *why, size_t whycap)
{
    long off;
    if (memchr(buf, '\0', len)) return "binary content where text was expected";
    if ((off = cf__bad_utf8((const unsigned char *)buf, len, 1)) >= 0) {
        snprintf(why, whycap, "not UTF-8 text (byte 0x%02x at offset %ld)", (unsigned char)buf[off], off);
        return why;
    }
    if (len >= cap) {
        snprintf(why, whycap, "longer than the %zu bytes this value may have", cap ? cap - 1 : 0);
        return why;
    }
    return NULL;
}

int cf__tree_read(cf__tree *t, const char *path, char *out, size_t cap, int quiet)
{
    char *buf = NULL, whybuf[96];
    const char *why;
    size_t len = 0;
    int r;
    json_t *saved = NULL;
    if (cap) out[0] = '\0';
    if (quiet) {
        /* Read without recording: swap in a scratch array. */
        saved = t->skipped;
        t->skipped = json_array();
    }
    r = cf__tree_slurp(t, path, &buf, &len);
    if (quiet) {
        json_decref(t->skipped);
        t->skipped = saved;
    }
    if (r <= 0) return r;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t' ||
                       buf[len - 1] == '\r' || buf[len - 1] == '\0'))
        len--;
    if ((why = bad_text(buf, len, cap, whybuf, sizeof whybuf)) != NULL) {
        if (!quiet) cf__tree_skip(t, path, "%s", why);
        cf__free(buf);
        return -1;
    }
    memcpy(out, buf, len);
    out[len] = '\0';
    cf__free(buf);
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void cf__tree_names_free(char **names, long n)
{
    for (long i = 0; i < n; i++) cf__free(names[i]);
    cf__free(names);
}

/* What a listing collects. */
typedef struct listing {
    cf__tree *t;
    const char *path;   /* the host path listed */
    char **v;           /* cap slots, grown up to CF_MAX_PROBE_ENTRIES */
    long n, cap, dropped;
} listing;

static int one_name(void *arg, const char *name)
{
    listing *l = arg;
    size_t nl = strlen(name);
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return 0;
    if (nl > CF__PROBE_NAME_MAX || strchr(name, '/') || cf__bad_utf8((const unsigned char *)name, nl, 0) >= 0) {
        char where[CF__PROBE_PATH];
        snprintf(where, sizeof where, "%s/%s", l->path, name);
        cf__tree_skip(l->t, where, "%s", nl > CF__PROBE_NAME_MAX ? "entry name longer than 255 bytes"
                                                                  : "entry name is not UTF-8 text");
        return 0;
    }
    if (l->n >= CF_MAX_PROBE_ENTRIES) {
        l->dropped++;
        return 0;
    }
    if (l->n == l->cap) {
        long nc = l->cap ? l->cap * 2 : 16;
        char **nv;
        if (nc > CF_MAX_PROBE_ENTRIES) nc = CF_MAX_PROBE_ENTRIES;
        if (!(nv = cf__realloc(l->v, (size_t)nc * sizeof *nv))) {
            l->t->oom = 1;
            return -1;
        }
        l->v = nv;
        l->cap = nc;
    }
    if (!(l->v[l->n] = cf__strdup(name))) {
        l->t->oom = 1;
        return -1;
    }
    l->n++;
    return 0;
}

long cf__tree_list(cf__tree *t, const char *path, char ***names)
{
    char p[CF__PROBE_FULL];
    listing l;
    int in;
    *names = NULL;
    if (full(t, path, p) != 0) return -1;
    if ((in = inside(t, path, p)) <= 0) return in;
    memset(&l, 0, sizeof l);
    l.t = t;
    l.path = path;
    if (t->fs->list(t->fs->ctx, p, one_name, &l) != 0) {
        int e = errno;
        cf__tree_names_free(l.v, l.n);
        if (e == ENOENT || e == ENOTDIR) return 0;
        cf__tree_skip(t, path, "cannot list: %s", strerror(e));
        return -1;
    }
    if (l.dropped)
        cf__tree_skip(t, path, "%ld entries past the first %ld (CF_MAX_PROBE_ENTRIES) not read", l.dropped,
                      CF_MAX_PROBE_ENTRIES);
    if (l.n) qsort(l.v, (size_t)l.n, sizeof *l.v, by_name);
    *names = l.v;
    return l.n;
}

int cf__tree_resolve(cf__tree *t, const char *path, char *out, size_t cap)
{
    char p[CF__PROBE_FULL];
    char *r;
    const char *host;
    size_t rl = strlen(t->root);
    int ret = -1;
    if (cap) out[0] = '\0';
    if (full(t, path, p) != 0) return -1;
    if (!t->fs->lexists(t->fs->ctx, p)) return 0;
    if (!(r = t->fs->realpath(t->fs->ctx, p))) {
        if (errno == ENOMEM) t->oom = 1;
        else if (errno == ENOENT) cf__tree_skip(t, path, "link to a missing entry");
        else cf__tree_skip(t, path, "cannot resolve: %s", strerror(errno));
        return -1;
    }
    /* r is inside the tree (so at least rl bytes long) before its tail is
     * read: a link that leaves it may resolve to a path shorter than the
     * root (ASan, a clone at a short path: heap read past r). */
    host = within(t, r) && strlen(r) >= rl ? (r[rl] ? r + rl : "/") : NULL;
    if (!host) cf__tree_skip(t, path, "link leaves the tree (to %s)", r);
    else if (cf__bad_utf8((const unsigned char *)host, strlen(host), 0) >= 0)
        cf__tree_skip(t, path, "resolves to a path that is not UTF-8 text");
    else if (strlen(host) >= cap)
        cf__tree_skip(t, path, "resolves to a path longer than %zu bytes (CF_MAX_PROBE_PATH_BYTES)", cap - 1);
    else {
        memcpy(out, host, strlen(host) + 1);
        ret = 1;
    }
    cf__free(r);
    return ret;
}
