/* torture.c — the catalog's write paths failed one call at a time, and
 * killed at random moments (issue 21; curl's torture mode, SQLite's fault
 * and crash simulations).
 *
 * Each write path (import FILE, a price import, import --remove, import
 * --reset, the first use of a catalog, the rebuild of the shipped rows) is
 * the `clusterfit` tool itself, linked in (src/main.c compiled as
 * torture_tool_main) and run in a forked child on a copy of a prepared
 * catalog. The child arms the fault injector (base/fault.c, with SQLite's
 * hooks of catalog/fault_sqlite.c) for one kind of call and one N:
 *   sweep: N = 1, 1 + S, 1 + 2S, ... for each kind (alloc, write, fsync,
 *          step, crash; write+ and fsync+: that call and every later one)
 *          until a run ends without reaching its Nth call;
 *   kill:  T runs per path, each sent SIGKILL after a random delay within
 *          1.3 times the path's own run time.
 * After each run the parent opens the file as the next clusterfit would
 * (a hot journal is rolled back then) and checks: PRAGMA integrity_check
 * is ok; the content (schema, markers and every row) is exactly the state
 * before or the state after the command, never a third; a run that exits
 * 0 applied the change; a run that failed exited non-zero with a message
 * (not SQLite's "not an error", nor "cannot start a transaction within a
 * transaction": an earlier rollback that failed and was ignored). Every departure is printed and counted;
 * the exit status is 1 when any was found.
 *
 * usage: torture sweep STRIDE [PATH...] | torture kill TRIALS [PATH...]
 * run from the repository root (the inputs are named relative to it). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/base.h"
#include "catalog/catalog_int.h"

int torture_tool_main(int argc, char **argv);

/* One write path: the catalog it starts from and the command. */
typedef struct scenario {
    const char *name;
    int from_base;        /* 1: the prepared catalog; 0: no file (the first use) */
    const char *prep_sql; /* run on the copy before the command, NULL for none */
    const char *argv[8];  /* the command, NULL-terminated (--db is added) */
} scenario;

static const scenario scenarios[] = {
    {"import", 1, NULL, {"import", "tests/torture/update.csv", NULL}},
    {"prices", 1, NULL, {"import", "--format", "skypilot", "tests/data/import/skypilot/nebius/vms.csv",
                         "--as-of", "2026-12-01", NULL}},
    {"remove", 1, NULL, {"import", "--remove", "testa-h100-ib", "testb-h100-efa", NULL}},
    {"reset", 1, NULL, {"import", "--reset", NULL}},
    {"first-use", 0, NULL, {"list", "--format", "csv", NULL}},
    {"rebuild", 1, "UPDATE meta SET value = '0' WHERE key = 'shipped_hash'",
     {"list", "--format", "csv", NULL}},
};
#define N_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* The kinds swept; "+": the Nth call and every later one fail (a disk
 * that stays full: SQLite cannot roll back, the next open must). */
static const struct { const char *name; cf__fault_kind kind; int persistent; } kinds[] = {
    {"alloc", CF__FAULT_ALLOC, 0}, {"write", CF__FAULT_WRITE, 0}, {"write+", CF__FAULT_WRITE, 1},
    {"fsync", CF__FAULT_FSYNC, 0}, {"fsync+", CF__FAULT_FSYNC, 1}, {"step", CF__FAULT_STEP, 0},
    {"crash", CF__FAULT_CRASH, 0},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static char work[256];            /* the scratch folder */
static char base_db[300], before_db[300], test_db[300], err_file[300];
static long problems;             /* departures found, all paths and kinds */

/* What one child run did. */
typedef struct outcome {
    int rc;        /* exit status, -1 when killed */
    int sig;       /* the signal that ended it, 0 when it exited */
    long calls;    /* calls of the armed kind it counted */
    int reached;   /* 1 when the armed call was reached */
    char err[512]; /* the first line of its stderr */
} outcome;

static void *torture_malloc(size_t n) { return cf__malloc(n); }

static int copy_file(const char *from, const char *to)
{
    char buf[65536];
    ssize_t got;
    int in, out, rc = 0;
    unlink(to);
    in = open(from, O_RDONLY);
    if (in < 0) return errno == ENOENT ? 0 : -1; /* no file: the copy is no file */
    out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) { close(in); return -1; }
    while ((got = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)got) != got) { rc = -1; break; }
    close(in);
    close(out);
    return rc;
}

/* The child: the tool on test_db, with `kind` armed at n (NONE: plain). */
static void child(const scenario *s, cf__fault_kind kind, int persistent, long n, int report_fd)
{
    char *argv[12];
    int argc = 0, fd = open(err_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    long r[2];
    if (fd >= 0) { dup2(fd, 2); close(fd); }
    fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) { dup2(fd, 1); close(fd); }
    argv[argc++] = "clusterfit";
    argv[argc++] = "--db";
    argv[argc++] = test_db;
    for (int i = 0; s->argv[i]; i++) argv[argc++] = (char *)s->argv[i];
    argv[argc] = NULL;
    if (kind != CF__FAULT_NONE) {
        if (cf__fault_sqlite_install() != CF_OK) _exit(99);
        json_set_alloc_funcs(torture_malloc, cf__free);
        if (persistent) cf__fault_arm_persistent(kind, n);
        else cf__fault_arm(kind, n);
    }
    r[0] = torture_tool_main(argc, argv);
    r[1] = cf__fault_calls() * 2 + cf__fault_reached();
    fflush(NULL);
    if (report_fd >= 0 && write(report_fd, &r[1], sizeof r[1]) != (ssize_t)sizeof r[1]) _exit(98);
    _exit((int)r[0]);
}

static void read_err(outcome *o)
{
    FILE *f = fopen(err_file, "r");
    o->err[0] = '\0';
    if (!f) return;
    if (!fgets(o->err, sizeof o->err, f)) o->err[0] = '\0';
    o->err[strcspn(o->err, "\n")] = '\0';
    fclose(f);
}

/* Runs the scenario once on test_db; delay_us >= 0 sends SIGKILL then. */
static void run(const scenario *s, cf__fault_kind kind, int persistent, long n, long delay_us,
                outcome *o)
{
    int fds[2], status = 0;
    long rep = 0;
    pid_t pid;
    memset(o, 0, sizeof *o);
    if (pipe(fds) != 0) { perror("pipe"); exit(2); }
    pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) { close(fds[0]); child(s, kind, persistent, n, fds[1]); }
    close(fds[1]);
    if (delay_us >= 0) {
        struct timespec ts = {delay_us / 1000000, (delay_us % 1000000) * 1000};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
    }
    if (read(fds[0], &rep, sizeof rep) != (ssize_t)sizeof rep) rep = -1;
    close(fds[0]);
    waitpid(pid, &status, 0);
    o->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    o->rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rep >= 0) { o->calls = rep / 2; o->reached = (int)(rep % 2); }
    else o->reached = kind == CF__FAULT_CRASH && o->sig == SIGKILL;
    read_err(o);
}

static uint64_t hash_text(uint64_t h, const char *t)
{
    return cf__fnv1a(cf__fnv1a(h, t ? t : "\x01NULL", t ? strlen(t) : 5), "\x1f", 1);
}

/* Hash of every row of the query's results. -1 on SQLite's refusal. */
static int hash_query(sqlite3 *db, const char *sql, uint64_t *h)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++)
            *h = hash_text(*h, (const char *)sqlite3_column_text(st, c));
        *h = hash_text(*h, "\x1e");
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The state of the file at path as the next clusterfit sees it: "none"
 * (no file, or no schema yet), a hash of everything in it, or "damaged:
 * ..." when integrity_check fails or it cannot be read. */
static void digest(const char *path, char *out, size_t n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    uint64_t h = CF__FNV_BASIS;
    struct stat sb;
    char sql[400], names[32][64];
    int nt = 0, rc;
    if (stat(path, &sb) != 0 || sb.st_size == 0) { snprintf(out, n, "none"); return; }
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) goto bad;
    sqlite3_busy_timeout(db, 5000);
    rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) goto bad;
    sqlite3_finalize(st);
    st = NULL;
    if (hash_query(db, "PRAGMA user_version", &h) || hash_query(db, "PRAGMA application_id", &h) ||
        hash_query(db, "SELECT type, name, sql FROM sqlite_master ORDER BY name", &h))
        goto bad;
    rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                            -1, &st, NULL);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW && nt < 32)
        snprintf(names[nt++], sizeof names[0], "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    st = NULL;
    for (int i = 0; i < nt; i++) {
        snprintf(sql, sizeof sql, "SELECT * FROM \"%.63s\" ORDER BY rowid", names[i]);
        if (hash_query(db, sql, &h)) goto bad;
    }
    sqlite3_close(db);
    if (nt == 0) snprintf(out, n, "none");
    else snprintf(out, n, "%016llx", (unsigned long long)h);
    return;
bad:
    snprintf(out, n, "damaged: %.200s", db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void fresh_copy(const char *from)
{
    char j[320];
    snprintf(j, sizeof j, "%s-journal", test_db);
    unlink(j);
    if (copy_file(from, test_db) != 0) { perror(test_db); exit(2); }
}

/* What the runs of one (path, kind) sweep or one path's kill trials did. */
typedef struct tally {
    long runs;      /* runs made */
    long refused;   /* failed, exit non-zero with a message, nothing changed */
    long late;      /* failed after its commit: exit non-zero, the change made */
    long tolerated; /* the fault was absorbed (SQLite retried, a benign allocation): exit 0, applied */
    long killed;    /* ended by SIGKILL (crash points, kill trials) */
    long before, after; /* the state found */
    long bad;       /* departures: damaged, a third state, a lie, a crash */
    long calls;     /* the calls of the kind a whole run makes (sweeps) */
} tally;

static void problem(const scenario *s, const char *kind, long n, const char *what, const outcome *o)
{
    problems++;
    fprintf(stderr, "FAIL %s %s N=%ld: %s (exit %d, signal %d): %s\n", s->name, kind, n, what, o->rc,
            o->sig, o->err[0] ? o->err : "(no message)");
}

/* Checks one run that reached its fault (or was killed) against the
 * before and after states. */
static void judge(const scenario *s, const char *kind, long n, const outcome *o, const char *before,
                  const char *after, tally *t)
{
    char d[300];
    long bad = t->bad;
    digest(test_db, d, sizeof d);
    t->runs++;
    if (strncmp(d, "damaged", 7) == 0) { problem(s, kind, n, d, o); t->bad++; return; }
    if (strcmp(d, before) != 0 && strcmp(d, after) != 0) {
        problem(s, kind, n, "half applied: neither the state before nor the one after", o);
        t->bad++;
        return;
    }
    if (strcmp(d, before) == 0) t->before++;
    else t->after++;
    if (o->sig == SIGKILL && (strcmp(kind, "crash") == 0 || strcmp(kind, "kill") == 0)) {
        t->killed++;
        return;
    }
    if (o->sig) problem(s, kind, n, "ended by a signal", o), t->bad++;
    else if (o->rc == 0 && strcmp(d, after) != 0)
        problem(s, kind, n, "exit 0 but the change was not made", o), t->bad++;
    else if (o->rc != 0 && (!o->err[0] || strstr(o->err, "not an error") ||
                            strstr(o->err, "within a transaction"))) /* a rollback skipped */
        problem(s, kind, n, "failed without a clear message", o), t->bad++;
    if (t->bad != bad) return;
    if (o->rc == 0 && getenv("TORTURE_VERBOSE")) fprintf(stderr, "absorbed %s %s N=%ld\n", s->name, kind, n);
    if (o->rc == 0) t->tolerated++;
    else if (strcmp(d, after) == 0) t->late++;
    else t->refused++;
}

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The catalog every path but the first use starts from: the shipped rows,
 * the rows of tests/data/catalog-small.csv and AWS prices imported. */
static void prepare_base(void)
{
    static const scenario setup[] = {
        {"setup", 0, NULL, {"list", "--format", "csv", NULL}},
        {"setup", 0, NULL, {"import", "tests/data/catalog-small.csv", NULL}},
        {"setup", 0, NULL, {"import", "--format", "skypilot", "tests/data/import/skypilot/aws/vms.csv",
                            "--as-of", "2026-11-30", NULL}},
    };
    outcome o;
    unlink(test_db);
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        run(&setup[i], CF__FAULT_NONE, 0, 0, -1, &o);
        if (o.rc != 0) {
            fprintf(stderr, "torture: setup %s failed (exit %d): %s\n", setup[i].argv[1], o.rc, o.err);
            exit(2);
        }
    }
    if (copy_file(test_db, base_db) != 0) { perror(base_db); exit(2); }
}

/* The states before and after s's command, and how long it runs (us, the
 * shortest of three runs). */
static long prepare(const scenario *s, char *before, char *after, size_t n)
{
    outcome o;
    long t0 = 0;
    unlink(before_db);
    if (s->from_base && copy_file(base_db, before_db) != 0) { perror(before_db); exit(2); }
    if (s->prep_sql) {
        sqlite3 *db = NULL;
        if (sqlite3_open(before_db, &db) != SQLITE_OK ||
            sqlite3_exec(db, s->prep_sql, NULL, NULL, NULL) != SQLITE_OK) {
            fprintf(stderr, "torture: %s: %s\n", s->name, sqlite3_errmsg(db));
            exit(2);
        }
        sqlite3_close(db);
    }
    digest(before_db, before, n);
    /* The shortest of three runs: the kill trials' delays span it. */
    for (int i = 0; i < 3; i++) {
        long t = now_us();
        fresh_copy(before_db);
        run(s, CF__FAULT_NONE, 0, 0, -1, &o);
        t = now_us() - t;
        if (i == 0 || t < t0) t0 = t;
        if (o.rc != 0) break;
    }
    digest(test_db, after, n);
    if (o.rc != 0 || strcmp(before, after) == 0 || strncmp(after, "damaged", 7) == 0) {
        fprintf(stderr, "torture: %s: the command itself fails or changes nothing (exit %d, %s): "
                "%s\n", s->name, o.rc, after, o.err);
        exit(2);
    }
    return t0;
}

/* N = 1, 1 + stride, ... until a run ends before its Nth call. */
static void sweep(const scenario *s, size_t k, long stride, const char *before, const char *after)
{
    tally t = {0};
    outcome o;
    long n;
    for (n = 1; n < 10000000; n += stride) {
        fresh_copy(before_db);
        run(s, kinds[k].kind, kinds[k].persistent, n, -1, &o);
        if (!o.reached) {
            char d[300];
            digest(test_db, d, sizeof d);
            t.calls = o.calls;
            if (o.rc != 0 || strcmp(d, after) != 0)
                problem(s, kinds[k].name, n, "the run past the last call did not apply it", &o), t.bad++;
            break;
        }
        judge(s, kinds[k].name, n, &o, before, after, &t);
    }
    printf("sweep %-9s %-5s N 1..%ld (stride %ld): %ld runs, %ld refused, %ld failed after the "
           "commit, %ld absorbed, %ld killed (%ld before, %ld after), %ld half or damaged or "
           "unclear\n", s->name, kinds[k].name, t.calls, stride, t.runs, t.refused, t.late,
           t.tolerated, t.killed, t.before, t.after, t.bad);
    fflush(stdout);
}

/* `trials` runs, each killed after a random delay within 1.3x its run time. */
static void kill_trials(const scenario *s, long trials, long dur_us, const char *before,
                        const char *after)
{
    tally t = {0};
    outcome o;
    long span = dur_us + dur_us * 3 / 10 + 1;
    for (long i = 0; i < trials; i++) {
        fresh_copy(before_db);
        run(s, CF__FAULT_NONE, 0, 0, (long)((unsigned long)random() % (unsigned long)span), &o);
        judge(s, "kill", i + 1, &o, before, after, &t);
    }
    printf("kill  %-9s %ld trials within %ld us: %ld killed, %ld finished; %ld before, %ld after, "
           "%ld half or damaged\n", s->name, t.runs, span, t.killed, t.runs - t.killed, t.before,
           t.after, t.bad);
    fflush(stdout);
}

static int wanted(const scenario *s, int argc, char **argv)
{
    if (argc <= 3) return 1;
    for (int i = 3; i < argc; i++)
        if (strcmp(argv[i], s->name) == 0) return 1;
    return 0;
}

/* `torture one PATH KIND N`: one armed run in this process, no fork (to
 * reproduce a finding under a debugger); stderr is left in the scratch
 * folder, which is kept. */
static int one(int argc, char **argv)
{
    char before[300], after[300];
    long n = argc > 4 ? strtol(argv[4], NULL, 10) : 0;
    for (size_t i = 0; argc > 4 && i < N_SCENARIOS; i++) {
        if (strcmp(scenarios[i].name, argv[2]) != 0) continue;
        for (size_t k = 0; k < N_KINDS; k++) {
            if (strcmp(kinds[k].name, argv[3]) != 0) continue;
            prepare(&scenarios[i], before, after, sizeof before);
            fresh_copy(before_db);
            fprintf(stderr, "torture: %s, stderr in %s\n", test_db, err_file);
            child(&scenarios[i], kinds[k].kind, kinds[k].persistent, n, -1);
        }
    }
    fprintf(stderr, "usage: torture one PATH KIND N\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    char *end = NULL;
    long count = argc > 2 ? strtol(argv[2], &end, 10) : 0;
    int sweeping = argc > 2 && strcmp(argv[1], "sweep") == 0;
    int single = argc > 4 && strcmp(argv[1], "one") == 0;
    if (!single && (argc < 3 || (!sweeping && strcmp(argv[1], "kill") != 0) || !end || *end ||
                    count < 1)) {
        fprintf(stderr, "usage: torture sweep STRIDE [PATH...] | torture kill TRIALS [PATH...] | "
                "torture one PATH KIND N\n");
        return 2;
    }
    snprintf(work, sizeof work, "%s/cf-torture-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(work)) { perror(work); return 2; }
    snprintf(base_db, sizeof base_db, "%s/base.db", work);
    snprintf(before_db, sizeof before_db, "%s/before.db", work);
    snprintf(test_db, sizeof test_db, "%s/test.db", work);
    snprintf(err_file, sizeof err_file, "%s/stderr", work);
    setenv("CLUSTERFIT_NOW", "2026-12-01", 1); /* the imports' "today" */
    unsetenv("CLUSTERFIT_DB");
    srandom((unsigned)(getenv("TORTURE_SEED") ? strtoul(getenv("TORTURE_SEED"), NULL, 10) : 21));
    prepare_base();
    if (single) return one(argc, argv);
    for (size_t i = 0; i < N_SCENARIOS; i++) {
        char before[300], after[300];
        long dur;
        if (!wanted(&scenarios[i], argc, argv)) continue;
        dur = prepare(&scenarios[i], before, after, sizeof before);
        for (size_t k = 0; sweeping && k < N_KINDS; k++) sweep(&scenarios[i], k, count, before, after);
        if (!sweeping) kill_trials(&scenarios[i], count, dur, before, after);
    }
    fresh_copy(before_db);
    unlink(test_db); unlink(base_db); unlink(before_db); unlink(err_file);
    rmdir(work);
    printf("torture: %ld problems\n", problems);
    return problems ? 1 : 0;
}
