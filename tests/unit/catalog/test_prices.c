/* test_prices.c — price imports (lib/catalog/prices.c): a SkyPilot vms.csv
 * updates the prices of the offerings data/skypilot-map.csv maps (the
 * lowest on-demand per GPU-hour across regions, the lowest spot), as an
 * overlay on the shipped row; refuses to apply in another currency; adds an
 * unmapped GPU type as a user row; counts what it skips; rejects a bad cell
 * with its line and column and leaves the catalog unchanged. The shipped
 * catalog here is two rows whose ids the embedded map names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "catalog/catalog_int.h" /* cf__catalog_open_shipped */

static const char SHIPPED[] =
    "id,provider,offering,gpu,gpus_per_node,price_on_demand_gpu_hr,currency,multinode,source_url,as_of\n"
    "aws-p5-48xlarge,AWS,p5,H100-SXM,8,6.88,USD,yes,https://example.com/p5,2026-11-09\n"
    "aws-p4d-24xlarge,AWS,p4d,A100-SXM-40,8,3.1,EUR,yes,https://example.com/p4d,2026-01\n";

/* CRLF, columns in another order than SkyPilot's, an extra column. */
static const char VMS[] =
    "Region,InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,AvailabilityZone\r\n"
    "us-east-1,p5.48xlarge,H100,8.0,98.32,30.3,use1-az1\r\n"
    "us-west-2,p5.48xlarge,H100,8.0,80,,usw2-az1\r\n"
    "us-east-1,p4d.24xlarge,A100,8.0,32,,use1-az1\r\n"
    "us-east-1,m5.large,,,0.1,0.03,use1-az1\r\n"
    "us-east-1,g9.x,A6000,1,1,,use1-az1\r\n"
    "eu-west-1,X.Gpu,L4,1,0.8,0.2,euw1-az1\r\n"
    "eu-west-2,X.Gpu,L4,1,0.9,0.1,euw2-az1\r\n";

static cf_catalog *open_two(void)
{
    cf_catalog *cat = NULL;
    cf_error err;
    assert_int_equal(cf__catalog_open_shipped(NULL, "s", SHIPPED, strlen(SHIPPED), &cat, &err), CF_OK);
    return cat;
}

static void skypilot_overlay_and_rows(void **state)
{
    cf_catalog *cat = open_two();
    cf_price_import_opts po = {"2026-11-30", "2026-11-30", NULL};
    json_t *sum = NULL;
    cf_offering *o = NULL;
    cf_error err;
    (void)state;
    assert_int_equal(cf_catalog_import_prices(cat, "catalogs/v7/aws/vms.csv", VMS, strlen(VMS),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
    assert_string_equal(json_string_value(json_object_get(sum, "cloud")), "aws");
    assert_string_equal(json_string_value(json_object_get(sum, "provider")), "AWS");
    assert_int_equal(json_integer_value(json_object_get(sum, "rows")), 7);
    assert_int_equal(json_array_size(json_object_get(sum, "priced")), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(sum, "priced"), 0), "region")), "us-west-2");
    {
        /* The price it replaces, with its date: 6.88 -> 10 is +45.3 %, under
         * CF_PRICE_CHANGE_WARN_PCT (50), so not a large change. */
        const json_t *p = json_array_get(json_object_get(sum, "priced"), 0);
        assert_true(json_number_value(json_object_get(p, "previous_price_on_demand_gpu_hr")) == 6.88);
        assert_string_equal(json_string_value(json_object_get(p, "previous_price_as_of")), "2026-11-09");
        assert_true(fabs(json_number_value(json_object_get(p, "change_pct")) - 100 * (10 - 6.88) / 6.88) < 1e-9);
        assert_true(json_is_false(json_object_get(p, "large_change")));
        /* The added row names its accelerator and count. */
        p = json_array_get(json_object_get(sum, "added"), 0);
        assert_string_equal(json_string_value(json_object_get(p, "accelerator")), "L4");
        assert_true(json_number_value(json_object_get(p, "accelerator_count")) == 1);
    }
    assert_int_equal(json_array_size(json_object_get(sum, "not_applied")), 1);
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(json_object_get(sum, "not_applied"), 0), "reason")), "another currency"));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "skipped"), "no_accelerator")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "skipped"), "unknown_accelerator")), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(sum, "skipped"), "unknown_names"), 0)), "A6000");
    json_decref(sum);
    /* The overlay: 80 / 8 in us-west-2 beats 98.32 / 8; spot 30.3 / 8. */
    assert_int_equal(cf_catalog_get(cat, "aws-p5-48xlarge", &o), CF_OK);
    assert_true(fabs(o->price_on_demand_gpu_hr - 10.0) < 1e-12);
    assert_true(fabs(o->price_spot_gpu_hr - 30.3 / 8) < 1e-12);
    assert_string_equal(o->price_as_of, "2026-11-30");
    assert_string_equal(o->as_of, "2026-11-09"); /* the facts' date is the row's */
    assert_int_equal(o->user_row, 0);
    assert_int_equal(o->price_overlay, 1);
    assert_non_null(strstr(o->notes, "lowest on-demand 10 USD per GPU-hour (us-west-2)"));
    cf_offering_free(o);
    /* The EUR row is untouched. */
    assert_int_equal(cf_catalog_get(cat, "aws-p4d-24xlarge", &o), CF_OK);
    assert_true(o->price_on_demand_gpu_hr == 3.1);
    assert_null(o->price_as_of);
    assert_int_equal(o->price_overlay, 0);
    cf_offering_free(o);
    /* X.Gpu is not mapped: a user row, the lowest of each price. */
    assert_int_equal(cf_catalog_get(cat, "skypilot-aws-x.gpu", &o), CF_OK);
    assert_int_equal(o->user_row, 1);
    assert_string_equal(o->gpu, "L4");
    assert_int_equal(o->gpus_per_node, 1);
    assert_true(o->price_on_demand_gpu_hr == 0.8);
    assert_true(o->price_spot_gpu_hr == 0.1);
    assert_string_equal(o->regions, "eu-west-1;eu-west-2");
    assert_int_equal(o->multinode, CF_CAP_UNKNOWN);
    assert_int_equal(o->provisioning, CF_PROV_ON_DEMAND | CF_PROV_SPOT);
    cf_offering_free(o);
    /* Again with p5 at 40 per node (5 per GPU-hour): -50 % is not more than
     * 50; then at 18 (2.25, -55 % from 5) it is, and still applied. */
    {
        static const char CHEAP[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
                                    "p5.48xlarge,H100,8,40,us-east-1\n";
        static const char CHEAPER[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
                                      "p5.48xlarge,H100,8,18,us-east-1\n";
        const json_t *p;
        assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", CHEAP, strlen(CHEAP),
                                                  CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
        p = json_array_get(json_object_get(sum, "priced"), 0);
        assert_true(json_number_value(json_object_get(p, "previous_price_on_demand_gpu_hr")) == 10.0);
        assert_true(fabs(json_number_value(json_object_get(p, "change_pct")) + 50) < 1e-9);
        assert_true(json_is_false(json_object_get(p, "large_change")));
        json_decref(sum);
        assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", CHEAPER, strlen(CHEAPER),
                                                  CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
        p = json_array_get(json_object_get(sum, "priced"), 0);
        assert_true(fabs(json_number_value(json_object_get(p, "change_pct")) + 55) < 1e-9);
        assert_true(json_is_true(json_object_get(p, "large_change")));
        json_decref(sum);
        assert_int_equal(cf_catalog_get(cat, "aws-p5-48xlarge", &o), CF_OK);
        assert_true(o->price_on_demand_gpu_hr == 18.0 / 8);
        cf_offering_free(o);
    }
    cf_catalog_close(cat);
}

static void skypilot_refusals_change_nothing(void **state)
{
    cf_catalog *cat = open_two();
    cf_price_import_opts po = {"2026-11-30", "2026-11-30", NULL};
    json_t *sum = NULL;
    cf_offering_list l;
    cf_error err;
    char *bad = strdup(VMS);
    (void)state;
    memcpy(strstr(bad, "98.32"), "9x.32", 5);
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", bad, strlen(bad),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EPARSE);
    assert_null(sum);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 5);
    assert_non_null(strstr(err.message, "Price: expected a non-negative price"));
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    assert_int_equal(l.n, 2);
    assert_true(l.items[1].price_on_demand_gpu_hr == 6.88 || l.items[0].price_on_demand_gpu_hr == 6.88);
    cf_offering_list_clear(&l);
    free(bad);
    /* No folder to name the cloud, and none given. */
    assert_int_equal(cf_catalog_import_prices(cat, "vms.csv", VMS, strlen(VMS), CF_PRICE_SKYPILOT,
                                              &po, &sum, &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "cannot tell the SkyPilot cloud"));
    /* A date after today; a malformed date. */
    po.as_of = "2026-12-01";
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", VMS, strlen(VMS),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EINVAL);
    assert_string_equal(err.param, "as_of");
    po.as_of = "2026-11";
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", VMS, strlen(VMS),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EINVAL);
    /* A missing column, named. */
    po.as_of = "2026-11-30";
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", "InstanceType,Price\nx,1\n", 22,
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EPARSE);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "missing required columns: AcceleratorName, AcceleratorCount, Region"));
    {
        cf_price_format f;
        assert_int_equal(cf_price_format_parse("SkyPilot", &f), CF_OK);
        assert_int_equal(f, CF_PRICE_SKYPILOT);
        assert_int_equal(cf_price_format_parse("aws-pricelist", &f), CF_EINVAL);
    }
    cf_catalog_close(cat);
}

/* GCP: host rows of a paired type (data/skypilot-map.csv host_gpus,
 * a3-highgpu-8g = H100:8) are priced with the GPU-only row of the same
 * region; a region without a GPU row is counted; a bad price on a GPU row
 * a pairing uses is an error at its cell. A mapped type whose accelerator
 * count contradicts the offering is not applied. */
static const char SHIPPED_GCP[] =
    "id,provider,offering,gpu,gpus_per_node,price_on_demand_gpu_hr,currency,multinode,source_url,as_of\n"
    "gcp-a3-highgpu-8g,Google Cloud,A3 High,H100-SXM,8,11.06,USD,yes,https://example.com/a3,2026-10\n"
    "azure-nd96asr-a100-v4,Microsoft Azure,ND A100 v4,A100-SXM-40,8,3.4,USD,yes,https://example.com/nd,2026-10\n";

static const char GCP_VMS[] =
    "InstanceType,AcceleratorName,AcceleratorCount,Region,AvailabilityZone,Price,SpotPrice\n"
    "a3-highgpu-8g,,,us-east4,us-east4-a,9.5,1.7\n"
    "a3-highgpu-8g,,,us-central1,us-central1-a,9.5,2.2\n"
    "a3-highgpu-8g,,,asia-east1,asia-east1-c,11,7.7\n"
    "c2-standard-4,,,us-east4,us-east4-a,0.2,0.06\n"
    ",H100,8,us-east4,us-east4-a,78.5,14.1\n"
    ",H100,8,us-central1,us-central1-a,36.5,\n";

/* SkyPilot writes SpotPrice 0.00 where a type has no spot offer (its
 * vast/vms.csv on every row): 0, as an empty cell, is no price, in either
 * price column, never a real $0; a negative price is refused at its cell. */
static void skypilot_zero_is_no_price(void **state)
{
    static const char ZERO[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
                               "p5.48xlarge,H100,8,80,0.00,us-east-1\n"
                               "X.Gpu,L4,1,0,0.2,eu-west-1\n"
                               "X.Gpu,L4,1,0.9,0.00,eu-west-2\n";
    static const char NEG[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
                              "p5.48xlarge,H100,8,80,,us-east-1\n"
                              "p5.48xlarge,H100,8,80,-0.5,us-west-2\n";
    cf_catalog *cat = open_two();
    cf_price_import_opts po = {"2026-11-30", "2026-11-30", NULL};
    json_t *sum = NULL;
    cf_offering *o = NULL;
    cf_error err;
    (void)state;
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", ZERO, strlen(ZERO),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
    json_decref(sum);
    assert_int_equal(cf_catalog_get(cat, "aws-p5-48xlarge", &o), CF_OK);
    assert_true(o->price_on_demand_gpu_hr == 10.0);
    assert_true(isnan(o->price_spot_gpu_hr));
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "skypilot-aws-x.gpu", &o), CF_OK);
    assert_true(o->price_on_demand_gpu_hr == 0.9);
    assert_true(o->price_spot_gpu_hr == 0.2);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_import_prices(cat, "v7/aws/vms.csv", NEG, strlen(NEG),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EPARSE);
    assert_null(sum);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 5);
    assert_non_null(strstr(err.message, "SpotPrice: negative price \"-0.5\""));
    cf_catalog_close(cat);
}

static void gcp_host_plus_gpus(void **state)
{
    cf_catalog *cat = NULL;
    cf_price_import_opts po = {"2026-11-30", "2026-11-30", NULL};
    json_t *sum = NULL, *p;
    cf_offering *o = NULL;
    cf_error err;
    char *bad;
    (void)state;
    assert_int_equal(cf__catalog_open_shipped(NULL, "s", SHIPPED_GCP, strlen(SHIPPED_GCP), &cat, &err), CF_OK);
    assert_int_equal(cf_catalog_import_prices(cat, "v7/gcp/vms.csv", GCP_VMS, strlen(GCP_VMS),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
    p = json_array_get(json_object_get(sum, "priced"), 0);
    assert_non_null(p);
    /* us-central1: (9.5 + 36.5) / 8 = 5.75; spot only in us-east4:
     * (1.7 + 14.1) / 8 = 1.975 (us-central1 has no GPU spot price). */
    assert_true(fabs(json_real_value(json_object_get(p, "price_on_demand_gpu_hr")) - 5.75) < 1e-9);
    assert_string_equal(json_string_value(json_object_get(p, "region")), "us-central1");
    assert_true(fabs(json_real_value(json_object_get(p, "price_spot_gpu_hr")) - 1.975) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(sum, "host_rows_with_gpus")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "skipped"), "host_without_gpu_row")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "skipped"), "no_accelerator")), 1);
    json_decref(sum);
    assert_int_equal(cf_catalog_get(cat, "gcp-a3-highgpu-8g", &o), CF_OK);
    assert_true(fabs(o->price_on_demand_gpu_hr - 5.75) < 1e-9);
    assert_non_null(strstr(o->notes, "host row + GPU row of the same region"));
    cf_offering_free(o);
    /* A non-numeric price on a GPU row a pairing uses: line 6, column 6. */
    bad = strdup(GCP_VMS);
    memcpy(strstr(bad, "78.5"), "78x5", 4);
    assert_int_equal(cf_catalog_import_prices(cat, "v7/gcp/vms.csv", bad, strlen(bad),
                                              CF_PRICE_SKYPILOT, &po, &sum, &err), CF_EPARSE);
    assert_int_equal(err.line, 6);
    assert_int_equal(err.column, 6);
    free(bad);
    /* Azure: 12 accelerators on an 8-GPU offering is not applied. */
    {
        static const char AZ[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
                                 "Standard_ND96asr_v4,A100,12,27.2,3,eastus\n";
        assert_int_equal(cf_catalog_import_prices(cat, "v7/azure/vms.csv", AZ, strlen(AZ),
                                                  CF_PRICE_SKYPILOT, &po, &sum, &err), CF_OK);
        assert_int_equal(json_array_size(json_object_get(sum, "priced")), 0);
        assert_non_null(strstr(json_string_value(json_object_get(json_array_get(json_object_get(sum, "not_applied"), 0), "reason")), "accelerator count differs"));
        json_decref(sum);
    }
    cf_catalog_close(cat);
}

/* gcp-catalog: the GPU, core and RAM SKUs of a3-highgpu-8g (map kind
 * gcp_machine: H100:8, 208 vCPUs, 1872 GiB) price the mapped offering per
 * region, spot from the Preemptible SKUs; commitments and other currencies
 * are counted; a SKU of no machine is skipped; a bad price is an error at
 * its line and column with the JSON path. */
#define GCP_SKU(desc, grp, usage, region, cur, units, nanos)                                      \
    "{\"description\": \"" desc "\", \"category\": {\"resourceGroup\": \"" grp "\", "            \
    "\"usageType\": \"" usage "\"}, \"serviceRegions\": [\"" region "\"], \"pricingInfo\": "     \
    "[{\"pricingExpression\": {\"usageUnit\": \"h\", \"tieredRates\": [{\"startUsageAmount\": 0, " \
    "\"unitPrice\": {\"currencyCode\": \"" cur "\", \"units\": \"" units "\", \"nanos\": " nanos  \
    "}}]}}]}"

static const char GCP_SKUS[] =
    "{\"skus\": [\n"
    GCP_SKU("Nvidia H100 80GB GPU running in Americas", "GPU", "OnDemand", "us-east4", "USD", "9", "500000000") ",\n"
    GCP_SKU("A3 Instance Core running in Americas", "CPU", "OnDemand", "us-east4", "USD", "0", "25000000") ",\n"
    GCP_SKU("A3 Instance Ram running in Americas", "RAM", "OnDemand", "us-east4", "USD", "0", "2000000") ",\n"
    GCP_SKU("Nvidia H100 80GB GPU attached to Spot Preemptible VMs running in Americas", "GPU", "Preemptible", "us-east4", "USD", "2", "0") ",\n"
    GCP_SKU("Spot Preemptible A3 Instance Core running in Americas", "CPU", "Preemptible", "us-east4", "USD", "0", "10000000") ",\n"
    GCP_SKU("Spot Preemptible A3 Instance Ram running in Americas", "RAM", "Preemptible", "us-east4", "USD", "0", "1000000") ",\n"
    GCP_SKU("Commitment v1: Nvidia H100 80GB GPU running in Americas for 1 Year", "GPU", "Commit1Yr", "us-east4", "USD", "6", "0") ",\n"
    GCP_SKU("Nvidia H100 80GB GPU running in Americas", "GPU", "OnDemand", "asia-southeast1", "IDR", "150000", "0") ",\n"
    GCP_SKU("E2 Instance Core running in Americas", "CPU", "OnDemand", "us-east4", "USD", "0", "21811590") ",\n"
    GCP_SKU("Nvidia L4 GPU running in Americas", "GPU", "OnDemand", "us-east4", "USD", "0", "560000000") "\n"
    "], \"nextPageToken\": \"\"}\n";

static void gcp_catalog_parts(void **state)
{
    cf_catalog *cat = NULL;
    cf_price_import_opts po = {"2026-11-30", "2026-11-30", NULL};
    json_t *sum = NULL, *p, *sk;
    cf_offering *o = NULL;
    cf_error err;
    char *bad;
    (void)state;
    assert_int_equal(cf__catalog_open_shipped(NULL, "s", SHIPPED_GCP, strlen(SHIPPED_GCP), &cat, &err), CF_OK);
    assert_int_equal(cf_catalog_import_prices(cat, "page1.json", GCP_SKUS, strlen(GCP_SKUS),
                                              CF_PRICE_GCP_CATALOG, &po, &sum, &err), CF_OK);
    assert_string_equal(json_string_value(json_object_get(sum, "format")), "gcp-catalog");
    assert_int_equal(json_integer_value(json_object_get(sum, "rows")), 10);
    p = json_array_get(json_object_get(sum, "priced"), 0);
    assert_non_null(p);
    assert_string_equal(json_string_value(json_object_get(p, "id")), "gcp-a3-highgpu-8g");
    /* (8 x 9.5 + 208 x 0.025 + 1872 x 0.002) / 8 = (76 + 5.2 + 3.744) / 8 */
    assert_true(fabs(json_real_value(json_object_get(p, "price_on_demand_gpu_hr")) - 10.618) < 1e-9);
    /* (8 x 2 + 208 x 0.01 + 1872 x 0.001) / 8 = (16 + 2.08 + 1.872) / 8 */
    assert_true(fabs(json_real_value(json_object_get(p, "price_spot_gpu_hr")) - 2.494) < 1e-9);
    sk = json_object_get(sum, "skipped");
    assert_int_equal(json_integer_value(json_object_get(sk, "unpriced_rows")), 1);  /* Commit1Yr */
    assert_int_equal(json_integer_value(json_object_get(sk, "other_currency")), 1); /* IDR */
    assert_int_equal(json_integer_value(json_object_get(sk, "no_accelerator")), 1); /* E2 core */
    assert_int_equal(json_integer_value(json_object_get(sk, "unknown_accelerator")), 1); /* L4 */
    json_decref(sum);
    assert_int_equal(cf_catalog_get(cat, "gcp-a3-highgpu-8g", &o), CF_OK);
    assert_true(fabs(o->price_on_demand_gpu_hr - 10.618) < 1e-9);
    assert_non_null(strstr(o->notes, "Cloud Billing Catalog"));
    cf_offering_free(o);
    /* A non-numeric units on a used SKU: line 3 (the second SKU), the units. */
    bad = strdup(GCP_SKUS);
    memcpy(strstr(bad, "\"units\": \"0\""), "\"units\": \"o\"", 12);
    assert_int_equal(cf_catalog_import_prices(cat, "page1.json", bad, strlen(bad),
                                              CF_PRICE_GCP_CATALOG, &po, &sum, &err), CF_EPARSE);
    assert_int_equal(err.line, 3);
    assert_true(err.column > 1);
    assert_non_null(strstr(err.message, "skus[1].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.units"));
    free(bad);
    /* Not a page; a cloud other than gcp. */
    assert_int_equal(cf_catalog_import_prices(cat, "p.json", "[1]", 3, CF_PRICE_GCP_CATALOG, &po,
                                              &sum, &err), CF_EPARSE);
    po.cloud = "aws";
    assert_int_equal(cf_catalog_import_prices(cat, "p.json", GCP_SKUS, strlen(GCP_SKUS),
                                              CF_PRICE_GCP_CATALOG, &po, &sum, &err), CF_EINVAL);
    {
        cf_price_format f;
        assert_int_equal(cf_price_format_parse("GCP-Catalog", &f), CF_OK);
        assert_int_equal(f, CF_PRICE_GCP_CATALOG);
    }
    cf_catalog_close(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skypilot_overlay_and_rows),
        cmocka_unit_test(skypilot_refusals_change_nothing),
        cmocka_unit_test(skypilot_zero_is_no_price),
        cmocka_unit_test(gcp_host_plus_gpus),
        cmocka_unit_test(gcp_catalog_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
