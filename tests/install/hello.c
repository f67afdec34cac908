/* hello.c — a program a user writes against the installed libclusterfit
 * (tests/install/run.sh builds it with `pkg-config --cflags --libs
 * clusterfit` only): it includes the umbrella header from the installed
 * include/clusterfit/, and prints what the library says of itself and one
 * value of its model, for the script to compare with the source tree. */
#include <stdio.h>
#include <clusterfit/clusterfit.h>

int main(void)
{
    json_t *info = NULL;
    cf_catalog *cat = NULL;
    cf_offering_list l = {NULL, 0};
    cf_error err;
    cf_status st;

    printf("version %s\n", cf_version());
    printf("commit %s\n", cf_version_commit());
    printf("constants %s\n", cf_model_constants_version());
    /* The busbw factor of all_reduce on 8 ranks (nccl-tests: 2(n-1)/n). */
    printf("busbw_factor %.6f\n", cf_busbw_factor(CF_COLL_ALL_REDUCE, 8));
    if (cf_catalog_info(NULL, &info) != CF_OK) return 1;
    printf("builtin_rows %lld\n", (long long)json_integer_value(json_object_get(info, "rows")));
    json_decref(info);
    /* An in-memory catalog: its rows come from the library's embedded data. */
    st = cf_catalog_open(NULL, &cat, &err);
    if (st != CF_OK) {
        fprintf(stderr, "hello: %s\n", err.message);
        return 1;
    }
    if (cf_catalog_query(cat, NULL, CF_SORT_PRICE, &l) != CF_OK) return 1;
    printf("catalog_rows %zu\n", l.n);
    cf_offering_list_clear(&l);
    cf_catalog_close(cat);
    return 0;
}
