/* memfs.c — a host tree held in memory, read through the same file access
 * as the disk (cf__tree_fs), so that the tree reader runs on a tree built
 * from bytes with no disk at all: the fuzz harness of the probe
 * (tests/fuzz/fuzz_probe.c) builds one per input, thousands a second.
 *
 * The tree is a sorted array of entries, each a full path under the root
 * ("/mem/sys/class/net/eno1") with its type and bytes, sorted when first
 * read; a parent directory is implied by the entries below it. Resolution follows the
 * kernel's rules as realpath(3) sees them: components one at a time, a
 * link's target read relative to its directory (or from "/" when
 * absolute), ".." to the parent, at most 40 links (ELOOP, Linux's
 * MAXSYMLINKS), ENOTDIR through a file, ENOENT for what is absent. Outside
 * the root every path is an empty directory (the host's world), so a link
 * that leaves the tree, by "/etc" or by "../../..", resolves there and the
 * reader sees it leave. */
#include <errno.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

/* The disk's stand-in under the fuzzer: the coverage that steers it is the
 * reader's (tree.c, node.c), not that of this file's lookups, and the
 * comparisons below are plain loops (libFuzzer hooks every strcmp call to
 * learn its operands: thousands of path compares an input would dominate
 * the run; a 2-GPU tree ran at ~170 execs/s with them). */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

typedef struct ment {
    char *path;         /* full path, no trailing '/', each '/' as SEP */
    char type;          /* 'f', 'l', 'd', 'p' */
    char *data;         /* file bytes or link target (NUL-terminated) */
    size_t len;
    size_t seq;         /* order of addition: the first for a path wins */
    int plain;          /* no ancestor is a link or a file: the path is its own real path */
} ment;

/* A slot of the lookup table: a path (an entry's, or a prefix of one: an
 * implied directory) by its bytes. */
typedef struct mslot {
    const char *p;      /* into an entry's path; NULL = empty slot */
    size_t len;
    size_t h;           /* hash of the bytes: compared before them */
    long idx;           /* the entry, -1 for an implied directory */
} mslot;

struct cf__memfs {
    char root[256];     /* "/mem" */
    ment *e;
    size_t n, cap;
    mslot *h;           /* open addressing, hcap (a power of 2) slots */
    size_t hcap;
    /* The last resolution: the reader asks for one path two or three times
     * in a row (inside the tree? a file? its bytes). */
    char last_p[CF__PROBE_FULL], last_out[CF__PROBE_FULL];
    int last_follow, last_ret, last_errno, have_last;
    int sorted;
    int oom;            /* an add failed for memory: reads say ENOMEM */
    cf__tree_fs fs;
};

#define MEMFS_MAX_LINKS 40

/* Entries are kept with SEP for '/' (a path holding SEP itself is
 * refused), so that a plain byte compare sorts '/' below every other byte: a
 * directory's subtree is one run right after it ("net", "net/x", "net/y",
 * "net-2"), and its children, implied directories included, are one
 * scan. */
#define SEP '\001'

static void enc(char *dst, const char *src, size_t cap)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++) dst[i] = src[i] == '/' ? SEP : src[i];
    dst[i] = '\0';
}

static int pcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

/* Whether the first n bytes of a are those of b (b at least n long). */
static int prefix(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static int push(cf__memfs *m, char type, char *path, const char *data, size_t len)
{
    ment *x;
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        ment *ne = cf__realloc(m->e, nc * sizeof *ne);
        if (!ne) return -1;
        m->e = ne;
        m->cap = nc;
    }
    x = &m->e[m->n];
    x->path = path;
    x->type = type;
    x->len = len;
    x->seq = m->n;
    x->data = cf__malloc(len + 1);
    if (!x->data) return -1;
    if (len) memcpy(x->data, data, len);
    x->data[len] = '\0';
    m->n++;
    m->sorted = 0;
    m->have_last = 0;
    return 0;
}

int cf__memfs_add(cf__memfs *m, char type, const char *path, const char *data, size_t len)
{
    size_t rl = strlen(m->root), pl;
    char *full;
    const char *s;
    if (!m || (type != 'f' && type != 'l' && type != 'd' && type != 'p')) return -1;
    while (*path == '/') path++;
    pl = strlen(path);
    while (pl > 0 && path[pl - 1] == '/') pl--;
    if (pl == 0 || pl >= CF__PROBE_FULL) return -1;
    /* No "." or ".." component, no empty one. */
    for (s = path; s < path + pl;) {
        size_t c = strcspn(s, "/");
        if (c > (size_t)(path + pl - s)) c = (size_t)(path + pl - s);
        if (c == 0 || (c == 1 && s[0] == '.') || (c == 2 && s[0] == '.' && s[1] == '.')) return -1;
        s += c + 1;
    }
    if (type == 'l' && (len == 0 || memchr(data, '\0', len))) return -1;
    if (memchr(path, SEP, pl)) return -1;
    if (!(full = cf__malloc(rl + pl + 2))) {
        m->oom = 1;
        return -1;
    }
    memcpy(full, m->root, rl);
    full[rl] = '/';
    memcpy(full + rl + 1, path, pl);
    full[rl + pl + 1] = '\0';
    enc(full, full, rl + pl + 2);
    if (push(m, type, full, data, len) != 0) {
        cf__free(full);
        m->oom = 1;
        return -1;
    }
    return 0;
}


static int by_path(const void *a, const void *b)
{
    const ment *x = a, *y = b;
    int c = pcmp(x->path, y->path);
    /* Equal paths in the order they were added: the first wins. */
    if (c) return c;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* FNV-1a (Fowler, Noll, Vo) of n bytes. */
static size_t hash(const char *p, size_t n)
{
    size_t h = (size_t)1469598103934665603ULL;     /* FNV_OFFSET */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * (size_t)1099511628211ULL;  /* FNV_PRIME */
    return h;
}

/* The slot of p (n bytes): its own, or the empty one where it goes. */
static mslot *slot_h(const cf__memfs *m, const char *p, size_t n, size_t h)
{
    size_t i = h & (m->hcap - 1);
    while (m->h[i].p && (m->h[i].h != h || m->h[i].len != n || !prefix(m->h[i].p, p, n))) i = (i + 1) & (m->hcap - 1);
    return &m->h[i];
}

static mslot *slot(const cf__memfs *m, const char *p, size_t n) { return slot_h(m, p, n, hash(p, n)); }

/* The table of every entry and every directory an entry implies (each
 * parent prefix up to a SEP, until one already there). */
static int index_all(cf__memfs *m)
{
    size_t need = 64;
    /* At most a quarter full (entries and their directories): short probes. */
    while (need < 4 * (m->n + 1)) need *= 2;
    cf__free(m->h);
    if (!(m->h = cf__calloc(need, sizeof *m->h))) return -1;
    m->hcap = need;
    for (size_t i = 0; i < m->n; i++) {
        const char *p = m->e[i].path;
        size_t n = strlen(p);
        size_t h = hash(p, n);
        mslot *s = slot_h(m, p, n, h);
        *s = (mslot){p, n, h, (long)i};
        while (n > 0) {
            while (n > 0 && p[n - 1] != SEP) n--;
            if (n <= 1) break;
            n--;            /* the prefix before that SEP */
            h = hash(p, n);
            s = slot_h(m, p, n, h);
            if (s->p) break;            /* it and its ancestors are there */
            *s = (mslot){p, n, h, -1};
        }
    }
    for (size_t i = 0; i < m->n; i++) {
        const char *p = m->e[i].path;
        size_t n = strlen(p);
        m->e[i].plain = 1;
        while (n > 1) {
            const mslot *s;
            while (n > 0 && p[n - 1] != SEP) n--;
            if (n <= 1) break;
            s = slot(m, p, --n);
            if (s->p && s->idx >= 0 && m->e[s->idx].type != 'd') m->e[i].plain = 0;
        }
    }
    return 0;
}

/* Sorts and drops duplicates (the first added wins); the directories a
 * path implies are not entries: type_of finds them by their subtree. */
static int settle(cf__memfs *m)
{
    size_t w = 0;
    if (m->sorted) return 0;
    if (m->n) qsort(m->e, m->n, sizeof *m->e, by_path);     /* an empty tree has no array */
    for (size_t i = 0; i < m->n; i++) {
        if (w > 0 && pcmp(m->e[w - 1].path, m->e[i].path) == 0) {
            cf__free(m->e[i].path);
            cf__free(m->e[i].data);
            continue;
        }
        m->e[w++] = m->e[i];
    }
    m->n = w;
    if (index_all(m) != 0) return -1;
    m->sorted = 1;
    return 0;
}

/* The first entry at or after key (encoded) in path order. */
static size_t lower(const cf__memfs *m, const char *key)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pcmp(m->e[mid].path, key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* "/" and the root's ancestors (and the root): directories outside the
 * entries. */
static int ancestor(const cf__memfs *m, const char *p)
{
    size_t pl = strlen(p);
    if (p[0] == '/' && p[1] == '\0') return 1;
    return pl <= strlen(m->root) && prefix(m->root, p, pl) && (m->root[pl] == '/' || m->root[pl] == '\0');
}

/* Whether p is the root or below it. */
static int under_root(const cf__memfs *m, const char *p)
{
    size_t rl = strlen(m->root);
    return prefix(p, m->root, rl) && (p[rl] == '/' || p[rl] == '\0');
}

/* The type of full canonical path p: 'f', 'l', 'd', 'p', or 0 absent.
 * Outside the root every path is a directory (the host's world, which a
 * link that leaves the tree reaches). */
static char type_of(cf__memfs *m, const char *p, const ment **e)
{
    char key[CF__PROBE_FULL];
    const mslot *s;
    *e = NULL;
    if (ancestor(m, p) || !under_root(m, p)) return 'd';
    enc(key, p, sizeof key);
    if (!m->hcap) return 0;
    s = slot(m, key, strlen(key));
    if (!s->p) return 0;
    if (s->idx < 0) return 'd';
    *e = &m->e[s->idx];
    return m->e[s->idx].type;
}

/* The common case in one lookup: p names an entry (no ".", "..", "//")
 * none of whose ancestors is a link, and it is no link to follow: p is
 * its own real path. 1 when so (buf = p), else 0 (walk it). */
static int direct(cf__memfs *m, const char *p, int last, char *buf, size_t cap)
{
    size_t pl = strlen(p);
    const ment *x;
    if (pl + 1 > cap || !under_root(m, p) || p[pl - 1] == '/' || strstr(p, "//") || strstr(p, "/./") ||
        strstr(p, "/../") || (pl >= 2 && p[pl - 2] == '/' && p[pl - 1] == '.') ||
        (pl >= 3 && p[pl - 3] == '/' && p[pl - 2] == '.' && p[pl - 1] == '.'))
        return 0;
    if (!type_of(m, p, &x) || !x || !x->plain || (last && x->type == 'l')) return 0;
    memcpy(buf, p, pl + 1);
    return 1;
}

/* The canonical path so far, encoded (SEP for '/'; empty = "/"), with
 * the FNV-1a hash of its bytes kept as components are added, so that each
 * step of a walk is one table probe, not a pass over the whole path. */
typedef struct walkpath {
    char b[CF__PROBE_FULL];
    size_t len, h;
} walkpath;

#define FNV_OFFSET ((size_t)1469598103934665603ULL)
#define FNV_PRIME ((size_t)1099511628211ULL)

static void wp_parent(walkpath *w)
{
    while (w->len > 0 && w->b[w->len - 1] != SEP) w->len--;
    if (w->len > 0) w->len--;
    w->h = FNV_OFFSET;
    for (size_t i = 0; i < w->len; i++) w->h = (w->h ^ (unsigned char)w->b[i]) * FNV_PRIME;
}

static int wp_append(walkpath *w, const char *c, size_t n)
{
    if (w->len + 1 + n + 1 > sizeof w->b) return -1;
    w->b[w->len++] = SEP;
    w->h = (w->h ^ (unsigned char)SEP) * FNV_PRIME;
    for (size_t i = 0; i < n; i++) {
        w->b[w->len++] = c[i];
        w->h = (w->h ^ (unsigned char)c[i]) * FNV_PRIME;
    }
    return 0;
}

/* type_of for a walk's path. */
static char wp_type(const cf__memfs *m, const walkpath *w, const ment **e)
{
    size_t rl = strlen(m->root), i;
    const mslot *s;
    *e = NULL;
    if (w->len == 0) return 'd';
    /* "/", the root's ancestors and all outside the root are directories. */
    for (i = 0; i < rl && i < w->len; i++)
        if ((m->root[i] == '/' ? SEP : m->root[i]) != w->b[i]) return 'd';
    if (w->len <= rl) return 'd';  /* the root, an ancestor of it, or a path beside it */
    if (w->len > rl && w->b[rl] != SEP) return 'd';
    if (!m->hcap) return 0;
    s = slot_h(m, w->b, w->len, w->h);
    if (!s->p) return 0;
    if (s->idx < 0) return 'd';
    *e = &m->e[s->idx];
    return m->e[s->idx].type;
}

/* The walk's path, decoded, into buf; -1 ENAMETOOLONG. */
static int wp_out(const walkpath *w, char *buf, size_t cap)
{
    if (w->len == 0) {
        if (cap < 2) return -1;
        memcpy(buf, "/", 2);
        return 0;
    }
    if (w->len + 1 > cap) return -1;
    for (size_t i = 0; i < w->len; i++) buf[i] = w->b[i] == SEP ? '/' : w->b[i];
    buf[w->len] = '\0';
    return 0;
}

/* Resolves p into buf (canonical; the last link followed when `last`).
 * 0, or -1 with errno. */
static int walk(cf__memfs *m, const char *p, int last, char *buf, size_t cap)
{
    char work[2 * CF__PROBE_FULL];
    walkpath w;
    size_t pos = 0;
    int links = 0;
    if (settle(m) != 0) {
        errno = ENOMEM;
        return -1;
    }
    if (p[0] != '/' || strlen(p) >= sizeof work) {
        errno = p[0] != '/' ? ENOENT : ENAMETOOLONG;
        return -1;
    }
    if (direct(m, p, last, buf, cap)) return 0;
    memcpy(work, p, strlen(p) + 1);
    w.len = 0;
    w.h = FNV_OFFSET;
    while (work[pos]) {
        size_t n;
        const ment *x;
        char t;
        while (work[pos] == '/') pos++;
        n = strcspn(work + pos, "/");
        if (n == 0) break;
        if (n == 1 && work[pos] == '.') {
            pos += n;
            continue;
        }
        if (n == 2 && work[pos] == '.' && work[pos + 1] == '.') {
            wp_parent(&w);
            pos += n;
            continue;
        }
        if (wp_append(&w, work + pos, n) != 0) {
            errno = ENAMETOOLONG;
            return -1;
        }
        pos += n;
        if (!(t = wp_type(m, &w, &x))) {
            errno = ENOENT;
            return -1;
        }
        if (t == 'l' && (last || work[pos] != '\0')) {
            /* The target, then what is left of the path. */
            size_t rest = strlen(work + pos), tl = x->len;
            char tmp[2 * CF__PROBE_FULL];
            if (++links > MEMFS_MAX_LINKS) {
                errno = ELOOP;
                return -1;
            }
            if (tl + rest + 2 > sizeof tmp) {
                errno = ENAMETOOLONG;
                return -1;
            }
            memcpy(tmp, x->data, tl);
            memcpy(tmp + tl, work + pos, rest + 1);
            memcpy(work, tmp, tl + rest + 1);
            pos = 0;
            if (work[0] == '/') {
                w.len = 0;
                w.h = FNV_OFFSET;
            } else {
                wp_parent(&w);
            }
            continue;
        }
        if (t != 'd' && t != 'l' && work[pos] != '\0') {
            /* A file in the middle of a path. */
            size_t k = pos;
            while (work[k] == '/') k++;
            if (work[k] != '\0') {
                errno = ENOTDIR;
                return -1;
            }
        }
    }
    if (wp_out(&w, buf, cap) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* walk, through the one-entry cache. */
static int resolve(cf__memfs *m, const char *p, int last, char *buf, size_t cap)
{
    size_t pl = strlen(p);
    int r;
    if (m->have_last && m->last_follow == last && m->sorted && pcmp(m->last_p, p) == 0) {
        if (m->last_ret != 0) {
            errno = m->last_errno;
            return -1;
        }
        if (strlen(m->last_out) + 1 > cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(buf, m->last_out, strlen(m->last_out) + 1);
        return 0;
    }
    r = walk(m, p, last, buf, cap);
    m->have_last = 0;
    if (pl < sizeof m->last_p && (r != 0 || strlen(buf) < sizeof m->last_out) && (r == 0 || errno != ENOMEM)) {
        memcpy(m->last_p, p, pl + 1);
        m->last_follow = last;
        m->last_ret = r;
        m->last_errno = r ? errno : 0;
        if (r == 0) memcpy(m->last_out, buf, strlen(buf) + 1);
        m->have_last = 1;
    }
    return r;
}

static int m_lexists(void *ctx, const char *p)
{
    char buf[CF__PROBE_FULL];
    const ment *x;
    return resolve(ctx, p, 0, buf, sizeof buf) == 0 && type_of(ctx, buf, &x) != 0;
}

static char *m_realpath(void *ctx, const char *p)
{
    char buf[CF__PROBE_FULL], *r;
    if (resolve(ctx, p, 1, buf, sizeof buf) != 0) return NULL;
    if (!(r = cf__strdup(buf))) errno = ENOMEM;
    return r;
}

static int m_kind(void *ctx, const char *p)
{
    char buf[CF__PROBE_FULL];
    const ment *x;
    char t;
    if (resolve(ctx, p, 1, buf, sizeof buf) != 0) return -1;
    t = type_of(ctx, buf, &x);
    return t == 'f' ? 'f' : t == 'd' ? 'd' : 'o';
}

static cf_status m_read(void *ctx, const char *p, size_t cap, const char *cap_name, char **out, size_t *len,
                        cf_error *err)
{
    char buf[CF__PROBE_FULL];
    const ment *x;
    *out = NULL;
    *len = 0;
    if (resolve(ctx, p, 1, buf, sizeof buf) != 0) {
        if (errno == ENOMEM) return CF_ENOMEM;
        cf_error_set(err, p, 0, 0, "cannot open: %s", strerror(errno));
        return CF_EIO;
    }
    if (type_of(ctx, buf, &x) != 'f' || !x) {
        cf_error_set(err, p, 0, 0, "cannot read: %s", strerror(EISDIR));
        return CF_EIO;
    }
    if (x->len > cap) {
        cf_error_set(err, p, 0, 0, "file is over the %zu-byte limit (%s)", cap, cap_name);
        return CF_ELIMIT;
    }
    if (!(*out = cf__malloc(x->len + 1))) return CF_ENOMEM;
    memcpy(*out, x->data, x->len + 1);
    *len = x->len;
    return CF_OK;
}

static int m_list(void *ctx, const char *p, int (*fn)(void *arg, const char *name), void *arg)
{
    cf__memfs *m = ctx;
    char buf[CF__PROBE_FULL], key[CF__PROBE_FULL + 1], last[CF__PROBE_FULL];
    const ment *x;
    size_t bl;
    if (resolve(m, p, 1, buf, sizeof buf) != 0) return -1;
    if (type_of(m, buf, &x) != 'd') {
        errno = ENOTDIR;
        return -1;
    }
    bl = strlen(buf);
    if (bl == 1) bl = 0;
    /* The subtree of "buf/" is one run: each child is the first component
     * of the entries in it, once. */
    enc(key, buf, sizeof key);
    key[bl] = SEP;
    key[bl + 1] = '\0';
    last[0] = '\0';
    for (size_t i = lower(m, key); i < m->n && prefix(m->e[i].path, key, bl + 1); i++) {
        const char *name = m->e[i].path + bl + 1;
        size_t nl = strcspn(name, "\001");
        if (nl == 0 || nl >= sizeof last || (prefix(last, name, nl) && last[nl] == '\0')) continue;
        memcpy(last, name, nl);
        last[nl] = '\0';
        if (fn(arg, last) != 0) break;
    }
    return 0;
}

cf__memfs *cf__memfs_new(const char *root)
{
    cf__memfs *m;
    size_t rl = root ? strlen(root) : 0;
    if (rl < 2 || root[0] != '/' || root[rl - 1] == '/' || rl >= sizeof m->root) return NULL;
    if (!(m = cf__calloc(1, sizeof *m))) return NULL;
    memcpy(m->root, root, rl + 1);
    m->fs.ctx = m;
    m->fs.lexists = m_lexists;
    m->fs.realpath = m_realpath;
    m->fs.kind = m_kind;
    m->fs.read = m_read;
    m->fs.list = m_list;
    return m;
}

const cf__tree_fs *cf__memfs_fs(cf__memfs *m) { return m ? &m->fs : NULL; }

void cf__memfs_free(cf__memfs *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) {
        cf__free(m->e[i].path);
        cf__free(m->e[i].data);
    }
    cf__free(m->e);
    cf__free(m->h);
    cf__free(m);
}

#if defined(__clang__)
#pragma clang attribute pop
#endif
