/* multipart.c — a multipart/form-data body (RFC 7578, framing of RFC 2046)
 * parsed in place once it has been read whole within the body caps: the
 * upload box of the web page sends the log as the part named "file". The
 * upload's bytes are moved to the start of the body, so no second buffer
 * is needed. No libmicrohttpd here, so the fuzz harness calls it directly
 * (issue 21: before, libmicrohttpd's post processor, which needs a live
 * connection, did this, and passed a part without a name as NULL). */
#include <string.h>
#include <strings.h>
#include "head.h"

int srv_multipart_boundary(const char *ctype, const char **b, size_t *n)
{
    const char *p = ctype;
    while (p && (p = strchr(p, ';')) != NULL) {
        p++;
        p += strspn(p, " \t");
        if (strncasecmp(p, "boundary=", 9) != 0) continue;
        p += 9;
        if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q) return -1;
            *b = p + 1;
            *n = (size_t)(q - p - 1);
        } else {
            *b = p;
            *n = strcspn(p, "; \t");
        }
        return *n >= 1 && *n <= 70 ? 0 : -1;
    }
    return -1;
}

/* The first occurrence of needle (n bytes) in hay[0..len), or NULL. */
static char *find(char *hay, size_t len, const char *needle, size_t n)
{
    char *p = hay, *end = hay + len;
    while (n && (size_t)(end - p) >= n && (p = memchr(p, needle[0], (size_t)(end - p) - n + 1))) {
        if (memcmp(p, needle, n) == 0) return p;
        p++;
    }
    return NULL;
}

/* The value of parameter `key` (name, filename) of a Content-Disposition
 * line (line[0..n)), quoted or not, into out (size m); 1 when present. */
static int disposition_param(const char *line, size_t n, const char *key, char *out, size_t m)
{
    size_t k = strlen(key), i = 0;
    while (i < n) {
        const char *v;
        size_t vn = 0;
        while (i < n && line[i] != ';') i++;
        if (i < n) i++;
        while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
        if (n - i <= k || strncasecmp(line + i, key, k) != 0 || line[i + k] != '=') continue;
        v = line + i + k + 1;
        if (v < line + n && *v == '"') {
            const char *q = memchr(v + 1, '"', (size_t)(line + n - v - 1));
            v++;
            vn = q ? (size_t)(q - v) : (size_t)(line + n - v);
        } else {
            while (v + vn < line + n && v[vn] != ';' && v[vn] != ' ' && v[vn] != '\t' &&
                   v[vn] != '\r') vn++;
        }
        if (vn >= m) vn = m - 1;
        memcpy(out, v, vn);
        out[vn] = '\0';
        return 1;
    }
    return 0;
}

/* One part's header block hdr[0..n): 1 with name (and file name) when it
 * has a Content-Disposition with a name, else 0. */
static int part_names(const char *hdr, size_t n, char *name, size_t nn, char *file, size_t fn,
                      int *has_file)
{
    static const char cd[] = "content-disposition:";
    size_t i = 0;
    int named = 0;
    *has_file = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && hdr[e] != '\n') e++;
        if (e - i > sizeof cd - 1 && strncasecmp(hdr + i, cd, sizeof cd - 1) == 0) {
            named = disposition_param(hdr + i, e - i, "name", name, nn);
            *has_file = disposition_param(hdr + i, e - i, "filename", file, fn);
        }
        i = e + 1;
    }
    return named;
}

static void set_upload_name(srv_upload *out, const char *file, int has_file)
{
    const char *base = has_file ? strrchr(file, '/') : NULL;
    size_t n;
    base = base ? base + 1 : has_file ? file : "";
    if (!*base) base = "upload";
    n = strnlen(base, sizeof out->name - 1);
    memcpy(out->name, base, n);
    out->name[n] = '\0';
    for (char *p = out->name; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == '\\') *p = '_';
}

int srv_multipart_parse(const char *ctype, char *body, size_t len, srv_upload *out,
                        const char **why)
{
    const char *b;
    size_t bn, w = 0;
    char delim[80], *p, *end = body + len;
    memset(out, 0, sizeof *out);
    if (srv_multipart_boundary(ctype, &b, &bn) != 0) {
        *why = "malformed multipart/form-data (no boundary, or one over 70 bytes)";
        return -1;
    }
    /* "\r\n--B": the delimiter; the first may start the body (no CRLF). */
    memcpy(delim, "\r\n--", 4);
    memcpy(delim + 4, b, bn);
    if (len >= bn + 2 && memcmp(body, delim + 2, bn + 2) == 0) p = body + bn + 2;
    else if ((p = find(body, len, delim, bn + 4)) != NULL) p += bn + 4;
    else goto no_end;
    for (;;) {
        char name[128], file[256], *hdr, *data, *next;
        int has_file;
        if (end - p >= 2 && p[0] == '-' && p[1] == '-') break;      /* the close delimiter */
        while (p < end && (*p == ' ' || *p == '\t')) p++;          /* transport padding */
        if (end - p >= 2 && p[0] == '\r' && p[1] == '\n') p += 2;
        else if (p < end && *p == '\n') p++;
        else goto no_end;
        hdr = p;
        if (end - p >= 2 && p[0] == '\r' && p[1] == '\n') data = p + 2;      /* no headers */
        else if ((data = find(p, (size_t)(end - p), "\r\n\r\n", 4)) != NULL) data += 4;
        else goto no_end;
        if (!part_names(hdr, (size_t)(data - hdr), name, sizeof name, file, sizeof file, &has_file)) {
            *why = "a multipart/form-data part has no name (each part needs "
                   "Content-Disposition: form-data; name=\"...\"; the log goes in name=\"file\")";
            return -1;
        }
        if (!(next = find(data, (size_t)(end - data), delim, bn + 4))) goto no_end;
        /* The log is the field named "file" or "log", or any field with a
         * file name; other fields are ignored. */
        if (has_file || strcmp(name, "file") == 0 || strcmp(name, "log") == 0) {
            if (!out->seen) set_upload_name(out, file, has_file);
            out->seen = 1;
            memmove(body + w, data, (size_t)(next - data));
            w += (size_t)(next - data);
        }
        p = next + bn + 4;
    }
    out->len = w;
    body[w] = '\0';
    return 0;
no_end:
    *why = "malformed multipart/form-data body (a part or the closing delimiter is missing)";
    return -1;
}
