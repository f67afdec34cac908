/* libcheck.h — which parts of libclusterfit this build links.
 *
 * The library's modules land one by one (catalog, collective, step, plan,
 * audit) while the server is written against their headers. Each library
 * function the server calls is referenced weakly here, so the tool links
 * before a module exists, and an endpoint whose function is absent answers
 * 501 not_implemented instead of inventing data. Once every module is in,
 * these references resolve like ordinary ones (the CLI's commands link the
 * same objects strongly). */
#ifndef CLUSTERFIT_SERVER_LIBCHECK_H
#define CLUSTERFIT_SERVER_LIBCHECK_H

#include "clusterfit/clusterfit.h"
#include "clusterfit/plan.h"

#ifndef SRV_STRONG_LIB  /* defined by builds that link the whole library (fuzz harness) */
#pragma weak cf_filter_init
#pragma weak cf_filter_set
#pragma weak cf_sort_parse
#pragma weak cf_sort_accepted
#pragma weak cf_age_days
#pragma weak cf_catalog_close
#pragma weak cf_catalog_query
#pragma weak cf_catalog_get
#pragma weak cf_offering_destroy
#pragma weak cf_offering_list_free
#pragma weak cf_offering_to_json
#pragma weak cf_gpu_lookup
#pragma weak cf_gpu_accepted
#pragma weak cf_fabric_from_offering
#pragma weak cf_collective_predict
#pragma weak cf_coll_result_to_json
#pragma weak cf_workload_load
#pragma weak cf_workload_from_json
#pragma weak cf_workload_presets
#pragma weak cf_plan_opts_init
#pragma weak cf_plan
#pragma weak cf_scale
#pragma weak cf_audit_buffer

/* True when function `fn` is linked into this build. */
#define SRV_HAVE(fn) ((void (*)(void))(fn) != NULL)
#else
#define SRV_HAVE(fn) 1
#endif

#endif
