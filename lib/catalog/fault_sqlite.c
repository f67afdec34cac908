/* fault_sqlite.c — the fault injector's hooks inside SQLite (issue 21; see
 * base/fault.c): what a torture run fails one call at a time beneath the
 * catalog's own code.
 *
 * - allocations: SQLite's allocator (SQLITE_CONFIG_MALLOC) wrapped, its
 *   malloc and realloc counted as CF__FAULT_ALLOC, like the cf__ allocators;
 * - writes and syncs: a VFS wrapping the default one, made the default, so
 *   every file SQLite opens (the catalog, its journal) goes through it:
 *   xWrite counts CF__FAULT_WRITE (SQLITE_IOERR_WRITE), xSync CF__FAULT_FSYNC
 *   (SQLITE_IOERR_FSYNC); xWrite, xTruncate, xSync and the VFS's xDelete
 *   (the journal's deletion commits a transaction) count CF__FAULT_CRASH,
 *   which kills the process just before the call, as kill -9 would;
 * - statements: an auto-extension gives every new connection a trace hook
 *   (SQLITE_TRACE_STMT: each statement run, those inside sqlite3_exec and
 *   triggers too, counts CF__FAULT_STEP) and a progress handler that
 *   interrupts the statement the fault fell on (SQLITE_INTERRUPT), so the
 *   failure is SQLite's own, with its message and its rollback.
 *
 * Test-only: cf__fault_sqlite_install is called by tests/torture/ and by
 * nothing in the tool or the server. It reconfigures SQLite globally
 * (sqlite3_shutdown first), so it must run before any connection opens. */
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include "catalog/catalog_int.h"

static sqlite3_mem_methods real_mem;
static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim_vfs;
static int interrupt_pending; /* the statement the STEP fault fell on is to be interrupted */

static void *mem_malloc(int n) { return cf__fault_now(CF__FAULT_ALLOC) ? NULL : real_mem.xMalloc(n); }
static void *mem_realloc(void *p, int n)
{
    return cf__fault_now(CF__FAULT_ALLOC) ? NULL : real_mem.xRealloc(p, n);
}

static void crash_point(void)
{
    if (cf__fault_now(CF__FAULT_CRASH)) raise(SIGKILL);
}

/* One open file: ours, then the real VFS's file right after it. */
typedef struct shim_file {
    sqlite3_file base;  /* pMethods = &shim_io once the real file is open */
    sqlite3_file *real; /* the default VFS's file, in the same allocation */
} shim_file;

#define REAL(f) (((shim_file *)(void *)(f))->real)

static int f_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int f_read(sqlite3_file *f, void *b, int n, sqlite3_int64 off)
{
    return REAL(f)->pMethods->xRead(REAL(f), b, n, off);
}
static int f_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 off)
{
    crash_point();
    if (cf__fault_now(CF__FAULT_WRITE)) return SQLITE_IOERR_WRITE;
    return REAL(f)->pMethods->xWrite(REAL(f), b, n, off);
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    crash_point();
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}
static int f_sync(sqlite3_file *f, int flags)
{
    crash_point();
    if (cf__fault_now(CF__FAULT_FSYNC)) return SQLITE_IOERR_FSYNC;
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}
static int f_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int f_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int f_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int f_control(sqlite3_file *f, int op, void *arg)
{
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int f_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int f_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int f_shm_map(sqlite3_file *f, int pg, int sz, int ext, void volatile **out)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, ext, out);
}
static int f_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
    return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}
static void f_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int f_shm_unmap(sqlite3_file *f, int del)
{
    return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}
static int f_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **out)
{
    return REAL(f)->pMethods->xFetch(REAL(f), off, n, out);
}
static int f_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods shim_io = {
    3, f_close, f_read, f_write, f_truncate, f_sync, f_size, f_lock, f_unlock, f_reserved,
    f_control, f_sector, f_device, f_shm_map, f_shm_lock, f_shm_barrier, f_shm_unmap,
    f_fetch, f_unfetch,
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
    shim_file *s = (shim_file *)(void *)f;
    int rc;
    (void)vfs;
    s->real = (sqlite3_file *)(void *)(s + 1);
    memset(s->real, 0, (size_t)real_vfs->szOsFile);
    rc = real_vfs->xOpen(real_vfs, name, s->real, flags, out_flags);
    /* SQLite closes a file whose open failed only when pMethods is set. */
    s->base.pMethods = s->real->pMethods ? &shim_io : NULL;
    if (s->real->pMethods && s->real->pMethods->iVersion < 3) {
        s->real->pMethods->xClose(s->real); /* never the case with unix VFSes */
        s->base.pMethods = NULL;
        return SQLITE_CANTOPEN;
    }
    return rc;
}

static int v_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
    (void)vfs;
    crash_point();
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}
static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}
static int v_full(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static int trace(unsigned type, void *ctx, void *p, void *x)
{
    (void)ctx; (void)p; (void)x;
    if (type == SQLITE_TRACE_STMT && cf__fault_now(CF__FAULT_STEP)) interrupt_pending = 1;
    return 0;
}

static int progress(void *ctx)
{
    (void)ctx;
    if (!interrupt_pending) return 0;
    interrupt_pending = 0;
    return 1;
}

static int on_connect(sqlite3 *db, const char **err, const struct sqlite3_api_routines *api)
{
    (void)err; (void)api;
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, trace, NULL);
    sqlite3_progress_handler(db, 1, progress, NULL);
    return SQLITE_OK;
}

cf_status cf__fault_sqlite_install(void)
{
    sqlite3_mem_methods m;
    if (real_vfs) return CF_OK;
    if (sqlite3_shutdown() != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_mem) != SQLITE_OK)
        return CF_EINTERNAL;
    m = real_mem;
    m.xMalloc = mem_malloc;
    m.xRealloc = mem_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK || sqlite3_initialize() != SQLITE_OK)
        return CF_EINTERNAL;
    real_vfs = sqlite3_vfs_find(NULL);
    if (!real_vfs) return CF_EINTERNAL;
    shim_vfs = *real_vfs;
    shim_vfs.zName = "cf-fault";
    shim_vfs.szOsFile = (int)sizeof(shim_file) + real_vfs->szOsFile;
    shim_vfs.pNext = NULL;
    shim_vfs.xOpen = v_open;
    shim_vfs.xDelete = v_delete;
    shim_vfs.xAccess = v_access;
    shim_vfs.xFullPathname = v_full;
    if (sqlite3_vfs_register(&shim_vfs, 1) != SQLITE_OK) return CF_EINTERNAL;
    if (sqlite3_auto_extension((void (*)(void))(void *)on_connect) != SQLITE_OK)
        return CF_EINTERNAL;
    return CF_OK;
}
