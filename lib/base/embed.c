/* embed.c — lookup of the files embedded at build time (tools/embed.sh
 * writes the table cf__embedded_files[] from data/). */
#include <string.h>
#include "base/base.h"

const char *cf__embedded_find(const char *path, size_t *len)
{
    for (const cf__embedded_file *f = cf__embedded_files; f->path; f++) {
        if (strcmp(f->path, path) == 0) {
            if (len) *len = f->len;
            return (const char *)f->data;
        }
    }
    return NULL;
}
