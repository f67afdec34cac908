/* prefixes.c — what launchers and loggers put in front of a line, peeled
 * off before any parser sees it.
 *
 * Design: one table of peelers, each recognising one known prefix shape at
 * the start of the line and returning where the rest begins (or the start
 * itself when its shape is not there). The table is tried in a loop until no
 * peeler takes anything, so any sequence of prefixes in any nesting is
 * removed (Ray's "(RayWorkerWrapper pid=285, ip=...)" in front of another
 * Ray actor's, in front of Open MPI's "[1,0]<stdout>:", in front of a
 * timestamp ...), up to CF__MAX_PREFIXES rounds. A peeler reads a few bytes
 * and gives up early: this runs on every line of a multi-GB log.
 *
 * Shapes seen in real logs (tests/data/cases/INDEX.md names the issues):
 *   Open MPI --tag-output   "[1,3]<stdout>:"           (strip_bracket)
 *   rank tags               "[155] ", "[rank0]:", "[default0]:", kubectl
 *                           --prefix "[pod/name/container] "
 *   Slurm srun --label      "12: ", " 3: " (padded to the widest label)
 *   Ray actors and workers  "(pid=34272) ", "(RayWorkerWrapper pid=285,
 *                           ip=192.168.177.12) ", "(head, rank=0, pid=1234) "
 *   timestamps              "2024-05-01 12:00:00,123 ", "[2024-05-01T12:00:00Z]"
 *   log viewers             "  | 2024-11-28T07:42:11.528Z | " (CloudWatch)
 *   docker compose          "worker-1  | " (the name ends in its index)
 *   pdsh                    "host: " before a line of the same host or '#' */
#include <string.h>
#include "audit/audit_int.h"

/* Rounds of the peeling loop: the deepest nesting seen is four (CloudWatch,
 * a timestamp, Ray, a rank tag); twice that leaves room. */
#define CF__MAX_PREFIXES 8

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* "[...]" without blanks inside, then ":" or "<...>:" or a blank. */
static const char *strip_bracket(const char *s, const char *end)
{
    const char *p = s + 1;
    while (p < end && *p != ']' && *p != ' ' && *p != '\t' && *p != '[') p++;
    if (p >= end || *p != ']' || p == s + 1) return s;
    p++;
    if (p < end && *p == '<') {
        const char *q = p + 1;
        while (q < end && *q != '>' && *q != ' ') q++;
        if (q >= end || *q != '>') return s;
        p = q + 1;
    }
    if (p < end && *p == ':') p++;
    else if (!(p < end && (*p == ' ' || *p == '\t'))) return s;
    if (p < end && *p == ' ') p++;
    return p;
}

/* "2024-05-01 12:00:00,123 ", "2024-05-01T12:00:00.123456Z ", optional "|" */
static const char *strip_timestamp(const char *s, const char *end)
{
    const char *p = s;
    if (end - p < 10) return s;
    for (int i = 0; i < 10; i++) {
        if (i == 4 || i == 7) {
            if (p[i] != '-' && p[i] != '/') return s;
        } else if (!is_digit(p[i])) {
            return s;
        }
    }
    p += 10;
    if (p < end && (*p == 'T' || *p == ' ')) {
        const char *q = p + 1;
        if (q < end && is_digit(*q)) {
            while (q < end && (is_digit(*q) || *q == ':' || *q == '.' || *q == ',')) q++;
            p = q;
            if (p < end && *p == 'Z') p++;
            else if (p + 1 < end && (*p == '+' || *p == '-') && is_digit(p[1])) {
                p++;
                while (p < end && (is_digit(*p) || *p == ':')) p++;
            }
        }
    }
    if (p < end && *p == ']') p++;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '|' || *p == ':')) p++;
    return p;
}

/* '[': a bracketed timestamp or a rank tag. */
static const char *peel_bracket(const char *s, const char *end)
{
    if (end - s > 11 && is_digit(s[1]) && is_digit(s[4]) && s[5] == '-') return strip_timestamp(s + 1, end);
    return strip_bracket(s, end);
}

/* A digit: a timestamp ("2024-") or srun's label ("12: "). */
static const char *peel_digits(const char *s, const char *end)
{
    const char *q = s;
    while (q < end && is_digit(*q)) q++;
    if (q - s == 4 && q < end && *q == '-') return strip_timestamp(s, end);
    if (q < end && *q == ':' && q + 1 < end && q[1] == ' ' && q - s <= 6) return q + 2;
    return s;
}

/* Blanks: srun's padded label (" 3: "), or a log viewer's table ("  | 2024-11-28T07:42:11.528Z | "):
 * blanks, a bar, the timestamp and its bar. */
static const char *peel_blanks(const char *s, const char *end)
{
    const char *q = s;
    while (q < end && *q == ' ' && q - s < 8) q++;
    if (q == s || q >= end) return s;
    if (is_digit(*q)) {
        const char *p = peel_digits(q, end);
        return (p != q && p[-1] == ' ' && p[-2] == ':') ? p : s;
    }
    if (*q == '|') {
        const char *p;
        q++;
        while (q < end && *q == ' ') q++;
        if (q < end && is_digit(*q) && (p = strip_timestamp(q, end)) != q) return p;
    }
    return s;
}

/* A log viewer's bar without blanks before it ("| 2024-11-28T07:42:11.528Z | "). */
static const char *peel_bar(const char *s, const char *end)
{
    const char *q = s + 1, *p;
    while (q < end && *q == ' ') q++;
    if (q < end && is_digit(*q) && (p = strip_timestamp(q, end)) != q) return p;
    return s;
}

/* Ray: "(" ... "pid=N" ... ") " with no '(' inside, within 160 bytes. */
static const char *peel_paren(const char *s, const char *end)
{
    const char *lim = end - s > 160 ? s + 160 : end, *close;
    close = memchr(s + 1, ')', (size_t)(lim - s - 1));
    if (!close || close + 1 >= end || close[1] != ' ') return s;
    if (memchr(s + 1, '(', (size_t)(close - s - 1))) return s;
    if (!cf__find(s + 1, (size_t)(close - s - 1), "pid=")) return s;
    return close + 2;
}

/* A word first: pdsh's "host: " (before a line of the same host or '#'),
 * or docker compose's "service-1  | ". */
static const char *peel_word(const char *s, const char *end)
{
    /* the first blank must follow the ':' ("host: "): one memchr instead of
     * walking the host name */
    const char *q = memchr(s, ' ', (size_t)(end - s));
    if (!q) return s;
    if (q[-1] == ':' && q - 1 > s && !memchr(s, '\t', (size_t)(q - 1 - s)) &&
        !memchr(s, ':', (size_t)(q - 1 - s))) {
        size_t hn = (size_t)(q - 1 - s);
        const char *r = q + 1;
        if ((size_t)(end - r) > hn && memcmp(r, s, hn) == 0 && r[hn] == ':') return r;
        if (r < end && *r == '#') return r;
        return s;
    }
    {
        /* the bar first: most lines have none, and then the word is not read */
        const char *p = q;
        while (p < end && *p == ' ') p++;
        if (!(p + 1 < end && *p == '|' && p[1] == ' ') || !is_digit(q[-1])) return s;
        for (const char *w = s; w < q; w++)
            if (!is_alpha(*w) && !is_digit(*w) && *w != '-' && *w != '_' && *w != '.') return s;
        return p + 2;       /* compose names end in the replica's index */
    }
}

const char *cf__strip_prefixes(const char *s, size_t *n)
{
    const char *end = s + *n;
    for (int round = 0; round < CF__MAX_PREFIXES && s < end; round++) {
        const char *p = s;
        char c = *s;
        if (c == '[') p = peel_bracket(s, end);
        else if (is_digit(c)) p = peel_digits(s, end);
        else if (c == ' ') p = peel_blanks(s, end);
        else if (c == '|') p = peel_bar(s, end);
        else if (c == '(') p = peel_paren(s, end);
        else if (is_alpha(c)) p = peel_word(s, end);
        if (p == s) break;
        s = p;
    }
    *n = (size_t)(end - s);
    return s;
}
