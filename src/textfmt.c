/* textfmt.c — see textfmt.h. The wrapping is by bytes: the texts wrapped
 * here (why lines, notes, headers) are ASCII. */
#include <string.h>
#include <math.h>
#include "clusterfit/units.h"
#include "textfmt.h"

const char *tf_thousands(char *buf, size_t cap, double v)
{
    char digits[64];
    size_t n, o = 0;
    if (cap == 0) return buf;
    snprintf(digits, sizeof digits, "%.0f", v);
    n = strlen(digits);
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n && digits[i] != '-') buf[o++] = ',';
    }
    buf[o] = '\0';
    return buf;
}

void tf_wrap(FILE *out, const char *lead, const char *text, size_t width)
{
    size_t col = strlen(lead), indent = col;
    fputs(lead, out);
    while (text && *text) {
        size_t word = strcspn(text, " ");
        const char *next = text + word + strspn(text + word, " ");
        if (*next && cf_unit_glues(text, word, next, strcspn(next, " ")))   /* "+9.5 %" whole */
            word = (size_t)(next - text) + strcspn(next, " ");
        if (col > indent && col + 1 + word > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += word;
        text += word;
        while (*text == ' ') text++;
    }
    fputc('\n', out);
}

const char *tf_net_label(cf_network n)
{
    return cf_network_label(n);
}

const char *tf_hours(char *buf, size_t cap, double h)
{
    if (isnan(h)) snprintf(buf, cap, "unknown");
    else if (h < 1.0 / 60) snprintf(buf, cap, "%.0f s", h * 3600);
    else if (h < 1) snprintf(buf, cap, "%.0f min", h * 60);
    else if (h < 48) snprintf(buf, cap, "%.1f h", h);
    else if (h < 2400) snprintf(buf, cap, "%.1f d", h / 24);
    else snprintf(buf, cap, "%.0f d", h / 24);
    return buf;
}

double tf_nonneg_zero(double v, int decimals)
{
    if (isnan(v)) return v;
    return fabs(v) < 0.5 * pow(10.0, -decimals) ? 0.0 : v;
}
