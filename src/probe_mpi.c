/* probe_mpi.c — `clusterfit probe --mpi`, run by every rank of mpirun or
 * srun (issue 12, docs/probe.md section 5). The only file of the tool that
 * includes <mpi.h>: libclusterfit never links MPI. The rules (agreement,
 * slow pairs, the pair schedule) are the library's (cf_probe_cluster,
 * cf_probe_partner); this file moves bytes and keeps time.
 *
 * 1. Set-up (collectives, before anything can hang on a node): a
 *    communicator per host (MPI_COMM_TYPE_SHARED), its first rank the
 *    host's leader, a communicator of the leaders, the host count.
 * 2. Reports: each leader probes its host and sends the JSON to rank 0;
 *    every other rank sends an empty check-in. Rank 0 polls (MPI_Iprobe)
 *    until all size - 1 messages came or --timeout passed, and names the
 *    ranks that did not answer.
 * 3. Pairs: one rank per host (every rank when all share one host) runs
 *    the schedule of cf_probe_partner, round by round, each pair a
 *    ping-pong of 8 bytes (latency) and 8 messages of 4 MiB (bandwidth),
 *    every wait bounded by --timeout.
 * 4. Results: the lower rank of each pair sends its figures to rank 0,
 *    which builds the cluster report and prints it. When a rank timed out,
 *    rank 0 ends the job with MPI_Abort after printing (a hung rank would
 *    block MPI_Finalize). Without Open MPI at build time (CF_WITH_MPI
 *    unset) --mpi says so and exits 2. */
#include "probe_mpi.h"

#ifndef CF_WITH_MPI
int probe_mpi_run(const cli_ctx *ctx, const probe_args *a, const char *const *env)
{
    (void)ctx;
    (void)a;
    (void)env;
    return cli_usage_error("probe", "--mpi: this clusterfit was built without MPI "
                                    "(install libopenmpi-dev and rebuild)");
}
#else
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>

#define TAG_REPORT 101
#define TAG_RESULTS 102
#define TAG_PAIR 1000           /* + 4 * round + step */
#define LAT_WARM 10
#define LAT_ITERS 100
#define BW_BYTES (4 << 20)
#define BW_ITERS 8

typedef struct mpi_ctx {
    int rank, size;             /* in MPI_COMM_WORLD */
    int leader;                 /* first rank of its host */
    int hosts;                  /* number of hosts */
    MPI_Comm node, leaders;     /* this host's ranks; the leaders (MPI_COMM_NULL off them) */
    int *leader_of;             /* rank 0: each world rank's leader */
    int *leader_world;          /* leaders: world rank of each leader index */
    double timeout;
} mpi_ctx;

static void nap(void)
{
    struct timespec ts = {0, 200000};      /* 0.2 ms: leave the cores to the ranks that work */
    nanosleep(&ts, NULL);
}

/* Waits for n requests until the deadline (seconds of MPI_Wtime); 0 when
 * done, -1 on timeout. `patient` naps between tests (not while timing). */
static int wait_until(MPI_Request *r, int n, double deadline, int patient)
{
    int done = 0;
    for (;;) {
        MPI_Testall(n, r, &done, MPI_STATUSES_IGNORE);
        if (done) return 0;
        if (MPI_Wtime() > deadline) return -1;
        if (patient) nap();
    }
}

static int setup(mpi_ctx *m)
{
    int is_leader, my_leader;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &m->node);
    {
        int lr;
        MPI_Comm_rank(m->node, &lr);
        m->leader = lr == 0;
    }
    is_leader = m->leader;
    MPI_Comm_split(MPI_COMM_WORLD, m->leader ? 0 : MPI_UNDEFINED, m->rank, &m->leaders);
    MPI_Allreduce(&is_leader, &m->hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    my_leader = m->rank;
    MPI_Bcast(&my_leader, 1, MPI_INT, 0, m->node);
    m->leader_of = malloc((size_t)m->size * sizeof *m->leader_of);
    m->leader_world = malloc((size_t)m->hosts * sizeof *m->leader_world);
    if (!m->leader_of || !m->leader_world) return -1;
    MPI_Gather(&my_leader, 1, MPI_INT, m->leader_of, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (m->leader) MPI_Allgather(&m->rank, 1, MPI_INT, m->leader_world, 1, MPI_INT, m->leaders);
    return 0;
}

/* Phase 2 on a leader or a plain rank: the report (or a check-in) to rank 0. */
static int send_report(const mpi_ctx *m, const probe_args *a, const char *const *env, json_t **mine)
{
    cf_probe_opts po;
    cf_error err;
    char *text = NULL;
    MPI_Request rq;
    cf_status st;
    int len = 0, r = 0;
    *mine = NULL;
    if (m->leader) {
        memset(&po, 0, sizeof po);
        po.sysroot = a->sysroot;
        po.env = env;
        cf_error_clear(&err);
        st = cf_probe_node(&po, mine, &err);
        if (st != CF_OK) {
            fprintf(stderr, "clusterfit probe: rank %d: %s\n", m->rank, err.message[0] ? err.message : cf_strerror(st));
            return -1;
        }
        if (m->rank == 0) return 0;
        text = json_dumps(*mine, JSON_COMPACT);
        json_decref(*mine);
        *mine = NULL;
        if (!text) return -1;
        len = (int)strlen(text);
    }
    if (m->rank == 0) return 0;
    MPI_Isend(text ? text : "", len, MPI_CHAR, 0, TAG_REPORT, MPI_COMM_WORLD, &rq);
    r = wait_until(&rq, 1, MPI_Wtime() + m->timeout, 1);
    free(text);
    return r;
}

/* Phase 2 on rank 0: size - 1 messages (reports of the other leaders,
 * check-ins of the rest) until the deadline. reports[] gets one per host,
 * src[] the leader that sent it; got[rank] says who answered. Returns the
 * number of reports. */
static size_t gather(const mpi_ctx *m, json_t **reports, int *src, json_t *mine, char *got)
{
    size_t n = 0;
    int pending = m->size - 1;
    double deadline = MPI_Wtime() + m->timeout;
    if (mine) {
        src[n] = 0;
        reports[n++] = mine;
    }
    got[0] = 1;
    while (pending > 0 && MPI_Wtime() <= deadline) {
        int flag = 0, count = 0;
        MPI_Status s;
        char *buf;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REPORT, MPI_COMM_WORLD, &flag, &s);
        if (!flag) {
            nap();
            continue;
        }
        MPI_Get_count(&s, MPI_CHAR, &count);
        buf = malloc((size_t)count + 1);
        if (!buf) break;
        MPI_Recv(buf, count, MPI_CHAR, s.MPI_SOURCE, TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buf[count] = '\0';
        got[s.MPI_SOURCE] = 1;
        pending--;
        if (count > 0) {
            /* The library decides what a peer's bytes are (cf_probe_peer_report). */
            json_t *j = NULL;
            cf_error err;
            cf_error_clear(&err);
            if (cf_probe_peer_report(buf, (size_t)count, &j, &err) != CF_OK)
                fprintf(stderr, "clusterfit probe: rank %d sent %s\n", s.MPI_SOURCE,
                        err.message[0] ? err.message : "a report that cannot be read");
            else if ((long)n < m->hosts) {
                src[n] = s.MPI_SOURCE;
                reports[n++] = j;
            } else {
                json_decref(j);
            }
        }
        free(buf);
    }
    return n;
}

/* One pair: latency and bandwidth with `partner`; 0, or -1 on timeout. */
static int pair_run(MPI_Comm c, int me, int partner, long round, double timeout, char *sendbuf, char *recvbuf,
                    double *bw, double *lat)
{
    int lower = me < partner, tag = TAG_PAIR + 4 * (int)round;
    char small[8] = {0};
    MPI_Request rq[BW_ITERS];
    double t0 = 0, deadline = MPI_Wtime() + timeout;
    for (int i = 0; i < LAT_WARM + LAT_ITERS; i++) {
        if (i == LAT_WARM) t0 = MPI_Wtime();
        if (lower) {
            MPI_Isend(small, 8, MPI_CHAR, partner, tag, c, &rq[0]);
            MPI_Irecv(small, 8, MPI_CHAR, partner, tag, c, &rq[1]);
            if (wait_until(rq, 2, deadline, 0) != 0) return -1;
        } else {
            MPI_Irecv(small, 8, MPI_CHAR, partner, tag, c, &rq[0]);
            if (wait_until(rq, 1, deadline, 0) != 0) return -1;
            MPI_Isend(small, 8, MPI_CHAR, partner, tag, c, &rq[0]);
            if (wait_until(rq, 1, deadline, 0) != 0) return -1;
        }
    }
    *lat = (MPI_Wtime() - t0) / (2.0 * LAT_ITERS) * 1e6;
    for (int pass = 0; pass < 2; pass++) {          /* pass 0 warms the path up */
        int k = pass ? BW_ITERS : 1;
        t0 = MPI_Wtime();
        for (int i = 0; i < k; i++) {
            if (lower) MPI_Isend(sendbuf, BW_BYTES, MPI_CHAR, partner, tag + 1, c, &rq[i]);
            else MPI_Irecv(recvbuf + (size_t)i * BW_BYTES, BW_BYTES, MPI_CHAR, partner, tag + 1, c, &rq[i]);
        }
        if (wait_until(rq, k, deadline, 0) != 0) return -1;
        if (lower) MPI_Irecv(small, 1, MPI_CHAR, partner, tag + 2, c, &rq[0]);
        else MPI_Isend(small, 1, MPI_CHAR, partner, tag + 2, c, &rq[0]);
        if (wait_until(rq, 1, deadline, 0) != 0) return -1;
        if (pass) *bw = (double)BW_ITERS * BW_BYTES / (MPI_Wtime() - t0) / 1e9;
    }
    return 0;
}

/* Phase 3: this participant's rounds; the pairs where it is the lower
 * rank go into out (4 doubles each: a, b, GB/s, us). Returns the count. */
static int pairs(const mpi_ctx *m, const probe_args *a, double *out, int *timed_out)
{
    MPI_Comm c = m->hosts >= 2 ? m->leaders : MPI_COMM_WORLD;
    int me, n, k = 0;
    char *sendbuf, *recvbuf;
    long rounds;
    if (c == MPI_COMM_NULL) return 0;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    rounds = cf_probe_rounds(n);
    sendbuf = calloc(1, BW_BYTES);
    recvbuf = malloc((size_t)BW_ITERS * BW_BYTES);
    if (!sendbuf || !recvbuf) {
        free(sendbuf);
        free(recvbuf);
        return 0;
    }
    for (long r = 0; r < rounds; r++) {
        long p = cf_probe_partner(n, r, me);
        double bw = NAN, lat = NAN;
        int wa, wb;
        if (p < 0) continue;
        if (pair_run(c, me, (int)p, r, a->timeout_s, sendbuf, recvbuf, &bw, &lat) != 0) {
            *timed_out = 1;
            bw = lat = NAN;
        }
        if (me > p) continue;
        wa = m->hosts >= 2 ? m->leader_world[me] : me;
        wb = m->hosts >= 2 ? m->leader_world[p] : (int)p;
        out[4 * k] = wa;
        out[4 * k + 1] = wb;
        out[4 * k + 2] = bw;
        out[4 * k + 3] = lat;
        k++;
    }
    free(sendbuf);
    free(recvbuf);
    return k;
}

/* Phase 4 on rank 0: the other participants' pair figures. */
static size_t collect(const mpi_ctx *m, cf_probe_pair *all, size_t n, size_t cap, const char *got, int *timed_out)
{
    int expect = 0;
    double deadline = MPI_Wtime() + m->timeout;
    if (m->hosts >= 2) {
        for (int i = 1; i < m->hosts; i++) expect += got[m->leader_world[i]] != 0;
    } else {
        for (int i = 1; i < m->size; i++) expect += got[i] != 0;
    }
    while (expect > 0) {
        int flag = 0, count = 0;
        MPI_Status s;
        double *buf;
        if (MPI_Wtime() > deadline) {
            *timed_out = 1;
            break;
        }
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULTS, MPI_COMM_WORLD, &flag, &s);
        if (!flag) {
            nap();
            continue;
        }
        MPI_Get_count(&s, MPI_DOUBLE, &count);
        buf = malloc(((size_t)count + 1) * sizeof *buf);
        if (!buf) break;
        MPI_Recv(buf, count, MPI_DOUBLE, s.MPI_SOURCE, TAG_RESULTS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        {
            size_t dropped = 0;
            n += cf_probe_peer_pairs(buf, count > 0 ? (size_t)count : 0, m->size, all + n, cap - n, &dropped);
            if (dropped)
                fprintf(stderr, "clusterfit probe: rank %d sent %zu pair figure(s) that name no two ranks\n",
                        s.MPI_SOURCE, dropped);
        }
        free(buf);
        expect--;
    }
    return n;
}

/* Sets each report's "ranks" (the world ranks of its host) and builds,
 * prints and frees the cluster report. */
static int report_cluster(const cli_ctx *ctx, const probe_args *a, const mpi_ctx *m, json_t **reports,
                          const int *src, size_t nrep, const char *got, cf_probe_pair *all, size_t np, double gather_s, double pairs_s)
{
    cf_probe_cluster_in in;
    int *missing = malloc((size_t)m->size * sizeof *missing);
    size_t nmiss = 0;
    json_t *out = NULL;
    cf_error err;
    cf_status st;
    if (!missing) return EXIT_INTERNAL;
    /* Each report's ranks: the world ranks whose leader sent it. */
    for (size_t i = 0; i < nrep; i++) {
        json_t *ranks = json_array();
        for (int r = 0; r < m->size; r++)
            if (m->leader_of[r] == src[i]) json_array_append_new(ranks, json_integer(r));
        json_object_set_new(reports[i], "ranks", ranks);
    }
    for (int r = 0; r < m->size; r++) {
        if (!got[r]) missing[nmiss++] = r;
    }
    memset(&in, 0, sizeof in);
    in.ranks = m->size;
    in.nodes = reports;
    in.n_nodes = nrep;
    in.pairs = all;
    in.n_pairs = np;
    in.pair_scope = m->hosts >= 2 ? "nodes" : "ranks";
    in.missing = missing;
    in.n_missing = nmiss;
    in.timeout_s = a->timeout_s;
    in.gather_s = gather_s;
    in.pairs_s = pairs_s;
    cf_error_clear(&err);
    st = cf_probe_cluster(&in, &out, &err);
    free(missing);
    if (st != CF_OK) return cli_lib_error("probe", st, &err);
    return probe_print(ctx, a, out);
}

int probe_mpi_run(const cli_ctx *ctx, const probe_args *a, const char *const *env)
{
    mpi_ctx m;
    json_t *mine = NULL, **reports = NULL;
    char *got = NULL;
    int *src = NULL;
    double *my_pairs = NULL, t0, t1, t2;
    cf_probe_pair *all = NULL;
    size_t nrep = 0, np = 0, cap = 0;
    int k, timed_out = 0, rc = EXIT_OK, provided;
    memset(&m, 0, sizeof m);
    m.timeout = a->timeout_s;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided);
    if (setup(&m) != 0) MPI_Abort(MPI_COMM_WORLD, EXIT_INTERNAL);
    if (m.rank == a->hang_rank) {
        /* --hang-rank: stop answering, and leave well after rank 0 gave up
         * (without MPI_Finalize: the job is being ended). */
        double until = MPI_Wtime() + 5 * a->timeout_s + 5;
        while (MPI_Wtime() < until) nap();
        _exit(EXIT_AUDIT_FAILED);
    }
    t0 = MPI_Wtime();
    if (send_report(&m, a, env, &mine) != 0 && m.rank == 0) MPI_Abort(MPI_COMM_WORLD, EXIT_INTERNAL);
    if (m.rank == 0) {
        reports = calloc((size_t)m.hosts + 1, sizeof *reports);
        src = calloc((size_t)m.hosts + 1, sizeof *src);
        got = calloc((size_t)m.size, 1);
        if (!reports || !src || !got) MPI_Abort(MPI_COMM_WORLD, EXIT_INTERNAL);
        nrep = gather(&m, reports, src, mine, got);
        for (int r = 0; r < m.size; r++) timed_out |= !got[r];
    }
    t1 = MPI_Wtime();
    {
        long rounds = cf_probe_rounds(m.hosts >= 2 ? m.hosts : m.size);
        my_pairs = calloc((size_t)rounds * 4 + 4, sizeof *my_pairs);
    }
    if (!my_pairs) MPI_Abort(MPI_COMM_WORLD, EXIT_INTERNAL);
    k = pairs(&m, a, my_pairs, &timed_out);
    if (m.rank != 0) {
        MPI_Request rq;
        if (m.leader || m.hosts < 2) {
            MPI_Isend(my_pairs, 4 * k, MPI_DOUBLE, 0, TAG_RESULTS, MPI_COMM_WORLD, &rq);
            wait_until(&rq, 1, MPI_Wtime() + m.timeout, 1);
        }
    } else {
        long participants = m.hosts >= 2 ? m.hosts : m.size;
        cap = (size_t)participants * (size_t)cf_probe_rounds(participants) + 1;
        all = calloc(cap, sizeof *all);
        if (!all) MPI_Abort(MPI_COMM_WORLD, EXIT_INTERNAL);
        np = cf_probe_peer_pairs(my_pairs, (size_t)k * 4, m.size, all, cap, NULL);
        np = collect(&m, all, np, cap, got, &timed_out);
        t2 = MPI_Wtime();
        rc = report_cluster(ctx, a, &m, reports, src, nrep, got, all, np, t1 - t0, t2 - t1);
    }
    for (size_t i = 0; i < nrep; i++) json_decref(reports[i]);
    free(reports);
    free(src);
    free(got);
    free(all);
    free(my_pairs);
    free(m.leader_of);
    free(m.leader_world);
    if (m.rank == 0 && timed_out) {
        fflush(stdout);
        fprintf(stderr, "clusterfit probe: a rank did not answer in time; ending the job\n");
        MPI_Abort(MPI_COMM_WORLD, rc == EXIT_OK ? EXIT_AUDIT_FAILED : rc);
    }
    if (m.leaders != MPI_COMM_NULL) MPI_Comm_free(&m.leaders);
    MPI_Comm_free(&m.node);
    MPI_Finalize();
    return m.rank == 0 ? rc : EXIT_OK;
}
#endif
