/* provider_text.h — the provider line of a plan row: the provider's
 * published rating and the provisioning a renter meets before renting
 * (sales contact, waitlist), from data/providers.csv (issue 22). */
#ifndef CLUSTERFIT_PROVIDER_TEXT_H
#define CLUSTERFIT_PROVIDER_TEXT_H

#include <stddef.h>
#include <jansson.h>

/* "rated ClusterMAX 2.0 Platinum, 2025-11-06; provisioning includes sales
 * contact" from a row carrying provider_rating and provider_provisioning
 * (the ";"-joined list), into buf (cap bytes); "" when the provider table
 * states neither a rating nor a sales contact or waitlist. Returns buf. */
const char *provider_text(char *buf, size_t cap, const json_t *row);

#endif
