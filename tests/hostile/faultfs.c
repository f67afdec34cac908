/* faultfs.c — I/O fault injection for the hostile suite (LD_PRELOAD), so
 * read-only and full-disk catalogs are tested as root too (root ignores
 * chmod). For files whose path starts with $CF_FAULT_PATH:
 *   CF_FAULT=ro    opening for writing fails with EROFS (a read-only mount;
 *                  SQLite then opens the file read-only)
 *   CF_FAULT=full  writes fail with ENOSPC (a full disk)
 * Everything else passes through to libc. Not part of clusterfit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int match(const char *path)
{
    const char *p = getenv("CF_FAULT_PATH");
    return p && *p && path && strncmp(path, p, strlen(p)) == 0;
}

static int mode_is(const char *m)
{
    const char *f = getenv("CF_FAULT");
    return f && strcmp(f, m) == 0;
}

static int fd_match(int fd)
{
    char link[64], path[4096];
    ssize_t n;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = '\0';
    return match(path);
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

static int refuse_open(const char *path, int flags)
{
    if (mode_is("ro") && match(path) && (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))) {
        errno = EROFS;
        return 1;
    }
    return 0;
}

#define DEF_OPEN(name)                                                           \
    int name(const char *path, int flags, ...)                                   \
    {                                                                            \
        static open_fn real;                                                     \
        mode_t m = 0;                                                            \
        va_list ap;                                                              \
        va_start(ap, flags);                                                     \
        if (flags & (O_CREAT | O_TMPFILE)) m = (mode_t)va_arg(ap, int);          \
        va_end(ap);                                                              \
        if (!real) real = (open_fn)dlsym(RTLD_NEXT, #name);                      \
        if (refuse_open(path, flags)) return -1;                                 \
        return real(path, flags, m);                                             \
    }
DEF_OPEN(open)
DEF_OPEN(open64)

#define DEF_OPENAT(name)                                                         \
    int name(int dir, const char *path, int flags, ...)                          \
    {                                                                            \
        static openat_fn real;                                                   \
        mode_t m = 0;                                                            \
        va_list ap;                                                              \
        va_start(ap, flags);                                                     \
        if (flags & (O_CREAT | O_TMPFILE)) m = (mode_t)va_arg(ap, int);          \
        va_end(ap);                                                              \
        if (!real) real = (openat_fn)dlsym(RTLD_NEXT, #name);                    \
        if (refuse_open(path, flags)) return -1;                                 \
        return real(dir, path, flags, m);                                        \
    }
DEF_OPENAT(openat)
DEF_OPENAT(openat64)

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

ssize_t write(int fd, const void *b, size_t n)
{
    static write_fn real;
    if (!real) real = (write_fn)dlsym(RTLD_NEXT, "write");
    if (fd > 2 && mode_is("full") && fd_match(fd)) { errno = ENOSPC; return -1; }
    return real(fd, b, n);
}

ssize_t pwrite(int fd, const void *b, size_t n, off_t off)
{
    static pwrite_fn real;
    if (!real) real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite");
    if (mode_is("full") && fd_match(fd)) { errno = ENOSPC; return -1; }
    return real(fd, b, n, off);
}

ssize_t pwrite64(int fd, const void *b, size_t n, off_t off)
{
    static pwrite_fn real;
    if (!real) real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite64");
    if (mode_is("full") && fd_match(fd)) { errno = ENOSPC; return -1; }
    return real(fd, b, n, off);
}
