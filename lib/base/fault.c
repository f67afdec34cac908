/* fault.c — the one-call-at-a-time fault injector (issue 21; curl's torture
 * mode, SQLite's fault simulator): a test arms one kind of call and a
 * number N, and the Nth call of that kind since arming fails (or, for
 * CF__FAULT_CRASH, the process is killed there). Every other call passes.
 * cf__fault_arm_persistent fails that call and every later one of its kind
 * (a disk that fills up and stays full: SQLite cannot then roll back from
 * its journal, and the next open must). A torture run arms N = 1, 2, 3, ... in turn until a run ends without
 * reaching its Nth call, so that every failure point of a write path is
 * reached once (tests/torture/).
 *
 * Test-only by construction: the setter is cf__fault_arm, hidden in
 * libclusterfit.so and called by no front end; nothing is armed unless a
 * test program calls it (the library never reads the environment). The
 * hook points call cf__fault_now: the cf__ allocators (base/alloc.c) and,
 * once a test installs them (cf__fault_sqlite_install, catalog/fault_sqlite.c),
 * SQLite's allocator, a VFS wrapping the default one (writes, syncs, the
 * crash points) and a hook on every SQL statement run. */
#include "base/base.h"

static cf__fault_kind armed = CF__FAULT_NONE; /* the kind counted, NONE when disarmed */
static long target;                           /* the call of that kind that fails (1-based) */
static long calls;                            /* calls of that kind since arming */
static int persistent;                        /* 1: every call from the target on fails */

void cf__fault_arm(cf__fault_kind kind, long n)
{
    armed = n >= 1 ? kind : CF__FAULT_NONE;
    target = n;
    calls = 0;
    persistent = 0;
}

void cf__fault_arm_persistent(cf__fault_kind kind, long n)
{
    cf__fault_arm(kind, n);
    persistent = armed != CF__FAULT_NONE;
}

int cf__fault_now(cf__fault_kind kind)
{
    if (armed == CF__FAULT_NONE || kind != armed) return 0;
    ++calls;
    return calls == target || (persistent && calls > target);
}

long cf__fault_calls(void) { return calls; }

int cf__fault_reached(void) { return armed != CF__FAULT_NONE && calls >= target; }
