/* fabrics_sold_text.h — the as-sold part of `clusterfit fabrics` as text
 * (src/fabrics_sold_text.c): the bundles the catalog sells with the GPU,
 * from the `sold` member of cf_fabrics' document (fabrics.h). */
#ifndef CLUSTERFIT_FABRICS_SOLD_TEXT_H
#define CLUSTERFIT_FABRICS_SOLD_TEXT_H

#include <stdio.h>
#include <jansson.h>

/* The headline, the table of bundles and the families not sold; 0, or -1
 * on ENOMEM. */
int fabrics_sold_text(FILE *out, json_t *doc);

/* The as-sold view's assumes lines. */
void fabrics_sold_assumes(FILE *out, json_t *doc);

#endif
