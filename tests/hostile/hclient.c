/* hclient.c — the hostile suite's raw HTTP client (tests/hostile/run.sh),
 * loopback only. Modes:
 *   hclient raw PORT SRC          request bytes from stdin, sent as they are;
 *                                 prints the reply's status code, "closed"
 *                                 (no reply) or "timeout" (none in 20 s)
 *   hclient slow PORT SRC N SECS  N connections from SRC sending a request
 *                                 head one byte a second for SECS seconds,
 *                                 reconnecting when dropped; prints
 *                                 "opened N dropped M" (M: drops seen)
 *   hclient trickle PORT N SECS   N POST /api/audit declaring 64 MiB, one
 *                                 byte a second; prints "opened N dropped M"
 *   hclient burst PORT N          N GET /api/offerings?min_gbps=I (each a distinct,
 *                                 uncached target) from 127.0.0.2-9 at once, then
 *                                 GET /healthz from 127.0.0.1 while they are in
 *                                 flight (asked again when closed unanswered at
 *                                 the connection cap); prints "healthz MS ms
 *                                 (STATUS, K tries) after B answers; answered A of
 *                                 N in S s" (MS -1: no reply within 30 s; B: the
 *                                 burst's replies that came before /healthz's)
 * SRC is the local address to send from (127.0.0.2 ... are other clients
 * on Linux's loopback). Not part of clusterfit. */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int dial(int port, const char *src)
{
    struct sockaddr_in a, l;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    memset(&l, 0, sizeof l);
    l.sin_family = AF_INET;
    inet_pton(AF_INET, src, &l.sin_addr);
    if (bind(fd, (struct sockaddr *)&l, sizeof l) != 0) { close(fd); return -1; }
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { close(fd); return -1; }
    return fd;
}

static int raw(int port, const char *src)
{
    static char req[1 << 20], rep[4096];
    size_t n = fread(req, 1, sizeof req, stdin), off = 0;
    int fd = dial(port, src);
    struct pollfd p;
    ssize_t k;
    if (fd < 0) { puts("connect-failed"); return 1; }
    while (off < n) {
        k = send(fd, req + off, n - off, MSG_NOSIGNAL);
        if (k <= 0) break;
        off += (size_t)k;
    }
    p.fd = fd; p.events = POLLIN;
    if (poll(&p, 1, 20000) <= 0) { puts("timeout"); close(fd); return 0; }
    k = recv(fd, rep, sizeof rep - 1, 0);
    if (k <= 0) { puts("closed"); close(fd); return 0; }
    rep[k] = '\0';
    if (strncmp(rep, "HTTP/1.", 7) == 0 && k >= 12) printf("%.3s\n", rep + 9);
    else puts("garbage");
    close(fd);
    return 0;
}

/* Each connection sends `head` one byte per second from the start. */
static int slow(int port, const char *src, int n, int secs, int post)
{
    static const char get[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
    static const char postreq[] = "POST /api/audit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 67108864\r\n\r\n";
    const char *head = post ? postreq : get;
    size_t hl = strlen(head);
    int *fd = calloc((size_t)n, sizeof *fd);
    size_t *pos = calloc((size_t)n, sizeof *pos);
    long opened = 0, dropped = 0;
    if (!fd || !pos) return 1;
    for (int i = 0; i < n; i++) {
        fd[i] = dial(port, src);
        if (fd[i] >= 0) opened++;
        if (post && fd[i] >= 0) {
            send(fd[i], head, hl, MSG_NOSIGNAL);  /* the head at once, then the body trickles */
            pos[i] = hl;
        }
    }
    for (int t = 0; t < secs; t++) {
        sleep(1);
        for (int i = 0; i < n; i++) {
            char c = post ? 'x' : head[pos[i] % hl];
            char buf[512];
            if (fd[i] >= 0 && recv(fd[i], buf, sizeof buf, MSG_DONTWAIT) == 0) {
                close(fd[i]); fd[i] = -1; dropped++;
            }
            if (fd[i] >= 0 && send(fd[i], &c, 1, MSG_NOSIGNAL) != 1) {
                close(fd[i]); fd[i] = -1; dropped++;
            }
            if (fd[i] < 0) {
                fd[i] = dial(port, src);
                pos[i] = 0;
                if (fd[i] >= 0) {
                    opened++;
                    if (post) { send(fd[i], head, hl, MSG_NOSIGNAL); pos[i] = hl; }
                }
                continue;
            }
            pos[i]++;
        }
    }
    for (int i = 0; i < n; i++) if (fd[i] >= 0) close(fd[i]);
    printf("opened %ld dropped %ld\n", opened, dropped);
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Reads what has arrived on fd; 1 once a status line is in, -1 when closed. */
static int got_status(int fd, char *st)
{
    char buf[65536];
    ssize_t k = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (k == 0) return -1;
    if (k < 0) return errno == EAGAIN ? 0 : -1;
    if (st[0] == '\0' && k >= 12 && strncmp(buf, "HTTP/1.", 7) == 0) memcpy(st, buf + 9, 3);
    return st[0] != '\0';
}

static int burst(int port, int n)
{
    int *fd = calloc((size_t)n + 1, sizeof *fd), answered = 0, hfd, left;
    char (*st)[4] = calloc((size_t)n + 1, 4), req[256], src[32];
    struct pollfd *p = calloc((size_t)n + 1, sizeof *p);
    double t0, th = -1, tend = 0;
    if (!fd || !st || !p) return 1;
    for (int i = 0; i < n; i++) {
        snprintf(src, sizeof src, "127.0.0.%d", 2 + i % 8);
        fd[i] = dial(port, src);
    }
    t0 = now_ms();
    for (int i = 0; i < n; i++) {
        int len = snprintf(req, sizeof req, "GET /api/offerings?min_gbps=%d HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Connection: close\r\n\r\n", i + 1);
        if (fd[i] >= 0) send(fd[i], req, (size_t)len, MSG_NOSIGNAL);
    }
    hfd = dial(port, "127.0.0.1");
    {
        static const char h[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        double th0 = now_ms();
        int tries = 1, before = -1;
        if (hfd >= 0) send(hfd, h, sizeof h - 1, MSG_NOSIGNAL);
        fd[n] = hfd;
        left = n + 1;
        while (left > 0 && now_ms() - t0 < 30000) {
            for (int i = 0; i <= n; i++) { p[i].fd = fd[i]; p[i].events = POLLIN; }
            if (poll(p, (nfds_t)n + 1, 100) < 0) break;
            for (int i = 0; i <= n; i++) {
                int g;
                if (fd[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                g = got_status(fd[i], st[i]);
                if (g == 0) continue;
                if (i == n && g < 0 && !st[n][0] && tries < 100) {
                    /* Closed unanswered: every connection slot was taken
                     * when it was accepted (the documented hard cap); asked
                     * again at once, as a health checker would. */
                    close(fd[n]);
                    fd[n] = dial(port, "127.0.0.1");
                    if (fd[n] >= 0) send(fd[n], h, sizeof h - 1, MSG_NOSIGNAL);
                    tries++;
                    continue;
                }
                if (i == n && g > 0 && th < 0) { th = now_ms() - th0; before = answered; }
                if (i < n && g > 0) { answered++; tend = now_ms() - t0; }
                close(fd[i]); fd[i] = -1; left--;
            }
        }
        printf("healthz %.0f ms (%s, %d tries) after %d answers; answered %d of %d in %.1f s\n", th,
               st[n][0] ? st[n] : "none", tries, before, answered, n, tend / 1e3);
    }
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc == 4 && strcmp(argv[1], "raw") == 0) return raw(atoi(argv[2]), argv[3]);
    if (argc == 6 && strcmp(argv[1], "slow") == 0)
        return slow(atoi(argv[2]), argv[3], atoi(argv[4]), atoi(argv[5]), 0);
    if (argc == 5 && strcmp(argv[1], "trickle") == 0)
        return slow(atoi(argv[2]), "127.0.0.1", atoi(argv[3]), atoi(argv[4]), 1);
    if (argc == 4 && strcmp(argv[1], "burst") == 0) return burst(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: hclient raw PORT SRC | slow PORT SRC N SECS | trickle PORT N SECS | burst PORT N\n");
    return 2;
}
