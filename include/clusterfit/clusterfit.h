/* clusterfit.h — umbrella header of libclusterfit. */
#ifndef CLUSTERFIT_H
#define CLUSTERFIT_H
#include "status.h"
#include "limits.h"
#include "vocab.h"
#include "units.h"
#include "date.h"
#include "hardware.h"
#include "catalog.h"
#include "collective.h"
#include "fabric.h"
#include "workload.h"
#include "step.h"
#include "audit.h"
#include "billing.h"
#include "plan.h"
#include "validate.h"
#include "fabrics.h"
#include "serve.h"
#include "probe.h"
#endif
