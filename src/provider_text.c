/* provider_text.c — the provider line of a plan row (provider_text.h). */
#include <string.h>
#include <stdio.h>
#include "provider_text.h"

/* Whether the ";"-joined list holds `word` as a whole item. */
static int has_item(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while (p && *p) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

const char *provider_text(char *buf, size_t cap, const json_t *row)
{
    const char *rating = json_string_value(json_object_get(row, "provider_rating"));
    const char *prov = json_string_value(json_object_get(row, "provider_provisioning"));
    int sales = prov && has_item(prov, "sales-contact"), wait = prov && has_item(prov, "waitlist");
    int n = 0;
    if (cap == 0) return buf;
    buf[0] = '\0';
    if (rating) n = snprintf(buf, cap, "rated %s", rating);
    if ((sales || wait) && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "%sprovisioning includes %s%s%s", n ? "; " : "",
                 sales ? "sales contact" : "", sales && wait ? " and " : "", wait ? "waitlist" : "");
    return buf;
}
