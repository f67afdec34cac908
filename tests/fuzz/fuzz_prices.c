/* fuzz_prices.c — the price imports (lib/catalog/prices.c) on a buffer: the
 * same bytes as a SkyPilot vms.csv (cloud gcp, so the host + GPU pairing
 * runs) and as a page of Cloud Billing Catalog SKUs, into an in-memory
 * catalog of two shipped rows that data/skypilot-map.csv maps. An accepted
 * file must give a summary; a refusal a NUL-terminated message and no
 * summary. The catalog is opened once per process; what an accepted file
 * writes stays, so later inputs meet earlier overlays and rows. Seeds
 * (corpus/prices/) are copies of tests/data/import/ excerpts, provenance there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "catalog/catalog_int.h"

static const char SHIPPED[] =
    "id,provider,offering,gpu,gpus_per_node,price_on_demand_gpu_hr,currency,multinode,source_url,as_of\n"
    "gcp-a3-highgpu-8g,Google Cloud,A3 High,H100-SXM,8,11.06,USD,yes,https://example.com/a3,2026-10\n"
    "aws-p5-48xlarge,AWS,p5,H100-SXM,8,6.88,USD,yes,https://example.com/p5,2026-11-09\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cf_catalog *cat;
    cf_price_import_opts po;
    const cf_price_format fmts[] = {CF_PRICE_SKYPILOT, CF_PRICE_GCP_CATALOG};
    cf_error err;
    if (!cat && cf__catalog_open_shipped(NULL, "s", SHIPPED, strlen(SHIPPED), &cat, &err) != CF_OK)
        abort();
    memset(&po, 0, sizeof po);
    po.as_of = "2026-11-30";
    po.today = "2026-11-30";
    po.cloud = "gcp";
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        json_t *sum = NULL;
        cf_status st;
        memset(&err, 0, sizeof err);
        st = cf_catalog_import_prices(cat, "fuzz", (const char *)data, size, fmts[i], &po, &sum,
                                      &err);
        if (st == CF_OK && !sum) abort();
        if (st != CF_OK && (sum || strnlen(err.message, sizeof err.message) == sizeof err.message))
            abort();
        json_decref(sum);
    }
    return 0;
}
