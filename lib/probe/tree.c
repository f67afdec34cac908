/* tree.c — reading a host tree under a sysroot: every path the probe reads
 * is a host path ("/sys/class/infiniband") read under the root; reads are
 * capped (cf__read_file, CF_MAX_PROBE_FILE_BYTES), directory listings
 * sorted and capped, links resolved with realpath and kept inside the
 * tree. Whatever cannot be read is recorded in `skipped` with its host path
 * and the reason, and the caller goes on. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "base/base.h"
#include "probe/probe_int.h"

void cf__tree_skip(cf__tree *t, const char *path, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    json_t *o;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (json_array_size(t->skipped) >= (size_t)CF_MAX_PROBE_ENTRIES) return;
    o = json_object();
    if (cf__json_set(o, "path", json_string(path)) | cf__json_set(o, "reason", json_string(why)) ||
        json_array_append_new(t->skipped, o) != 0)
        t->oom = 1;
}

/* root + path into buf; 0, or -1 when too long (recorded). */
static int full(cf__tree *t, const char *path, char *buf, size_t n)
{
    int w = snprintf(buf, n, "%s%s", t->root, path);
    if (w < 0 || (size_t)w >= n) {
        cf__tree_skip(t, path, "path longer than %zu bytes", n - 1);
        return -1;
    }
    return 0;
}

/* Whether the entry at full path p, links followed, is inside the tree:
 * 1 inside, 0 absent (a dangling link too), -1 outside (recorded). The live
 * host (root "") has no outside. */
static int inside(cf__tree *t, const char *path, const char *p)
{
    size_t rl = strlen(t->root);
    char *r;
    int ok;
    if (rl == 0) return 1;
    r = realpath(p, NULL);
    if (!r) return errno == ENOENT || errno == ENOTDIR ? 0 : 1;
    ok = strncmp(r, t->root, rl) == 0 && (r[rl] == '/' || r[rl] == '\0');
    if (!ok) cf__tree_skip(t, path, "link leaves the tree (to %s)", r);
    free(r);
    return ok ? 1 : -1;
}

int cf__tree_exists(cf__tree *t, const char *path)
{
    char p[CF__PROBE_PATH];
    struct stat st;
    if (full(t, path, p, sizeof p) != 0) return 0;
    return lstat(p, &st) == 0;
}

int cf__tree_slurp(cf__tree *t, const char *path, char **buf, size_t *len)
{
    char p[CF__PROBE_PATH];
    struct stat st;
    cf_error err;
    cf_status s;
    int r;
    *buf = NULL;
    *len = 0;
    if (full(t, path, p, sizeof p) != 0) return -1;
    if ((r = inside(t, path, p)) <= 0) return r;
    if (stat(p, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return 0;
        cf__tree_skip(t, path, "cannot stat: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        cf__tree_skip(t, path, "not a regular file");
        return -1;
    }
    cf_error_clear(&err);
    s = cf__read_file(p, (size_t)CF_MAX_PROBE_FILE_BYTES, "CF_MAX_PROBE_FILE_BYTES", buf, len, &err);
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

int cf__tree_read(cf__tree *t, const char *path, char *out, size_t cap, int quiet)
{
    char *buf = NULL;
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
    if (memchr(buf, '\0', len)) {
        if (!quiet) cf__tree_skip(t, path, "binary content where text was expected");
        cf__free(buf);
        return -1;
    }
    cf__copy_n(out, cap, buf, len);
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

long cf__tree_list(cf__tree *t, const char *path, char ***names)
{
    char p[CF__PROBE_PATH];
    DIR *d;
    struct dirent *e;
    char **v = NULL;
    long n = 0, dropped = 0;
    *names = NULL;
    if (full(t, path, p, sizeof p) != 0) return -1;
    {
        int in = inside(t, path, p);
        if (in <= 0) return in;
    }
    d = opendir(p);
    if (!d) {
        if (errno == ENOENT || errno == ENOTDIR) return 0;
        cf__tree_skip(t, path, "cannot list: %s", strerror(errno));
        return -1;
    }
    v = cf__calloc((size_t)CF_MAX_PROBE_ENTRIES, sizeof *v);
    if (!v) {
        closedir(d);
        t->oom = 1;
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n >= CF_MAX_PROBE_ENTRIES) {
            dropped++;
            continue;
        }
        if (!(v[n] = cf__strdup(e->d_name))) {
            t->oom = 1;
            break;
        }
        n++;
    }
    closedir(d);
    if (dropped) cf__tree_skip(t, path, "%ld entries past the first %ld (CF_MAX_PROBE_ENTRIES) not read", dropped,
                               CF_MAX_PROBE_ENTRIES);
    qsort(v, (size_t)n, sizeof *v, by_name);
    *names = v;
    return n;
}

int cf__tree_resolve(cf__tree *t, const char *path, char *out, size_t cap)
{
    char p[CF__PROBE_PATH];
    char *r;
    size_t rl = strlen(t->root);
    if (cap) out[0] = '\0';
    if (full(t, path, p, sizeof p) != 0) return -1;
    if (!cf__tree_exists(t, path)) return 0;
    r = realpath(p, NULL);
    if (!r) {
        if (errno == ENOENT) {
            cf__tree_skip(t, path, "link to a missing entry");
            return -1;
        }
        cf__tree_skip(t, path, "cannot resolve: %s", strerror(errno));
        return -1;
    }
    if (rl > 0 && (strncmp(r, t->root, rl) != 0 || (r[rl] != '/' && r[rl] != '\0'))) {
        cf__tree_skip(t, path, "link leaves the tree (to %s)", r);
        free(r);
        return -1;
    }
    cf__copy(out, cap, r[rl] ? r + rl : "/");
    free(r);
    return 1;
}
