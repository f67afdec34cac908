/* goodput.h — time to train as it happens on a rented cluster: failures,
 * restarts, checkpoints and the shared storage they hit (issue 24,
 * docs/goodput.md).
 *
 * Goodput = steady time / wall time: the useful fraction of paid time. The
 * steady time is what the step model gives (steps x step time); the wall
 * time adds the checkpoint stalls, the work lost since the last checkpoint
 * at each unexpected interruption, the restarts (detect and reschedule,
 * load the checkpoint, warm up) and, where input data binds, the time the
 * GPUs wait for the storage. Rates and class defaults are constants of
 * lib/model/constants.def (GOODPUT_*, FAIL_*, STOR_*), each with its
 * source. */
#ifndef CLUSTERFIT_GOODPUT_H
#define CLUSTERFIT_GOODPUT_H

#include <jansson.h>
#include "status.h"
#include "workload.h"
#include "step.h"

/* Storage classes a checkpoint or input data can sit on; the catalog's
 * shared_storage cell names them (CF_STOR_* of vocab.h) and the model picks
 * the fastest one the offering states (cf_storage_class_of_set). */
typedef enum cf_storage_class {
    CF_SC_UNKNOWN = 0,  /* not stated: the model assumes CF_SC_ASSUMED's default */
    CF_SC_NFS,          /* one NFS server (Filestore, a provider's persistent fs) */
    CF_SC_LUSTRE,       /* Lustre (FSx for Lustre, DDN) */
    CF_SC_GPFS,         /* IBM Storage Scale (GPFS) */
    CF_SC_VAST,         /* VAST Data (NFS over RDMA, multipath) */
    CF_SC_WEKA,         /* WEKA */
    CF_SC_OBJECT,       /* an object store (S3, GCS, Nebius/CloudDigit object) */
    CF_SC_LOCAL_NVME,   /* the nodes' own NVMe (no shared copy) */
    CF_SC__COUNT
} cf_storage_class;

/* Failures, checkpoint stalls or input reads that cost more than this many
 * percent of the steady time get their sentence in a row's why line: below
 * it the loss is inside the step model's own error (median 8-9 %). */
#define CF_GOODPUT_NOTE_PCT 5.0

/* The class the model assumes where a row states no storage. */
#define CF_SC_ASSUMED CF_SC_NFS

/* "nfs", "lustre", ... ("unknown" for CF_SC_UNKNOWN); static storage. */
CF_API const char *cf_storage_class_name(cf_storage_class c);

/* The class named `s` (case-insensitive; "local-nvme" or "nvme" for local
 * NVMe).
 * - errors: CF_EINVAL for NULL or another name, err->param "storage" and a
 *   message listing the classes (cf_storage_class_list)
 * - output: *out, set only on success */
CF_API cf_status cf_storage_class_parse(const char *s, cf_storage_class *out, cf_error *err);

/* "nfs, lustre, gpfs, vast, weka, object, local-nvme"; static storage. */
CF_API const char *cf_storage_class_list(void);

/* The fastest class of a catalog shared_storage set (CF_STOR_* bits of
 * vocab.h, `known` 0 = the cell is empty): parallel file systems first
 * (weka, vast, lustre, gpfs), then the object store, then NFS;
 * CF_SC_UNKNOWN when not known, none or no class is set. */
CF_API cf_storage_class cf_storage_class_of_set(unsigned stor_bits, int known);

/* A storage class's throughput, GB/s (1e9 bytes/s): per node (a client's
 * ceiling) and for the whole file system (its aggregate ceiling; INFINITY =
 * none: local NVMe, whose aggregate grows with the nodes). The class
 * defaults of constants.def (STOR_*); CF_SC_UNKNOWN gives CF_SC_ASSUMED's. */
typedef struct cf_storage_bw {
    double node_write_gbps, node_read_gbps;     /* per node */
    double agg_write_gbps, agg_read_gbps;       /* the file system's ceiling */
} cf_storage_bw;
CF_API void cf_storage_class_bw(cf_storage_class c, cf_storage_bw *out);

/* Options of the goodput model; cf_goodput_opts_init gives the defaults. */
typedef struct cf_goodput_opts {
    int no_failures;        /* 1: steady state (goodput 1, no checkpoint) */
    double mtbf_gpu_h;      /* GPU-hours between unexpected interruptions;
                             * NAN = the workload's mtbf_gpu_h, else the
                             * published rate (FAIL_* of constants.def) */
    double ckpt_interval_s; /* seconds between checkpoints; NAN = Young/Daly */
    int ckpt_async;         /* -1 = the workload's; 0 sync; 1 async */
    cf_storage_class storage;   /* CF_SC_UNKNOWN = the offering's shared_storage */
} cf_goodput_opts;

/* no_failures 0, mtbf_gpu_h and ckpt_interval_s NAN, ckpt_async -1,
 * storage CF_SC_UNKNOWN (the offering's). */
CF_API void cf_goodput_opts_init(cf_goodput_opts *o);

/* Sets one option from its text (the CLI's flags, the API's members):
 *   no_failures      true/false (yes/no, 1/0)
 *   mtbf_gpu_h       GPU-hours, > 0 and finite
 *   ckpt_interval    seconds, > 0 and finite
 *   ckpt_async       true/false
 *   storage          a class name (cf_storage_class_parse): refused with
 *                    the list
 * - errors: CF_EINVAL, err->param = name ("mtbf_gpu_h expects a number of
 *   GPU-hours above 0, got '0'"); CF_ENOTFOUND for a name it does not
 *   know (err untouched), so a caller can try its own names first. */
CF_API cf_status cf_goodput_opts_set(cf_goodput_opts *o, const char *name, const char *value,
                                     cf_error *err);

/* What the goodput of one configuration rests on. */
typedef struct cf_goodput_in {
    const cf_workload *w;   /* the workload (borrowed) */
    cf_layout lay;          /* its layout (zero, dp: who writes the checkpoint) */
    int nodes, gpus_per_node;
    double step_s;          /* steady seconds per step */
    double steps;           /* steps in the whole job */
    double units_per_step;  /* tokens (LLM) or samples per step, for input reads */
    cf_storage_class storage;   /* CF_SC_UNKNOWN = assumed (said in `assumes`) */
    const cf_storage_bw *bw;/* NULL = the class defaults; else stated figures */
    cf_goodput_opts opts;
} cf_goodput_in;

/* The breakdown (hours unless said). */
/* What raised the checkpoint interval above Young/Daly's optimum: nothing,
 * one step (a checkpoint happens between steps), or the asynchronous write
 * and its stall (one save in flight at a time, PyTorch DCP's async recipe). */
enum { CF_CKPT_FLOOR_NONE = 0, CF_CKPT_FLOOR_STEP = 1, CF_CKPT_FLOOR_WRITE = 2 };

typedef struct cf_goodput_out {
    double goodput;         /* steady_h / wall_h, 0..1; 0 = never finishes */
    double steady_h;        /* steps x step time */
    double wall_h;          /* the time to train with everything below */
    double data_stall_h;    /* waiting for input reads (0 when they do not bind) */
    double ckpt_stall_h;    /* checkpoint stalls */
    double lost_work_h;     /* work redone after unexpected interruptions */
    double restart_h;       /* restarts (every interruption, planned too) */
    double interruptions;   /* expected, unexpected + planned */
    double unexpected;      /* expected unexpected interruptions */
    double job_mtbf_h;      /* hours between unexpected interruptions of the job */
    double mtbf_gpu_h;      /* the per-GPU figure used */
    double ckpt_bytes;      /* the whole checkpoint, bytes */
    double ckpt_write_s;    /* writing it to the storage */
    double ckpt_stall_s;    /* the training stall per checkpoint */
    double ckpt_interval_s; /* the interval used */
    int interval_given;     /* 1: from the options, 0: Young/Daly */
    int interval_floor;     /* CF_CKPT_FLOOR_*: what raised Young/Daly's optimum */
    int ckpt_async;         /* 1: asynchronous */
    double restart_s;       /* one restart: detect + load + warm-up */
    double load_s;          /* loading the checkpoint */
    double read_need_gbps;  /* input bytes per second per node the step needs */
    double read_have_gbps;  /* what the storage gives per node: min(bw.node_read_gbps,
                               bw.agg_read_gbps / nodes), GB/s (the _gbps names are
                               historical: every storage figure is GB/s) */
    int data_binds;         /* 1: input reads slow the step */
    cf_storage_class storage;   /* the class used (CF_SC_ASSUMED for unknown) */
    int storage_assumed;    /* 1: the row states no storage */
    int no_failures;        /* 1: steady state asked for */
    cf_storage_bw bw;       /* the storage figures used */
    int bw_stated;          /* 1: given (cf_goodput_in.bw), 0: the class default */
} cf_goodput_out;

/* Young's interval sqrt(2 delta M) (Young 1974), and Daly's higher-order one
 * (Daly 2006, FGCS 22(3) eq. 37): sqrt(2dM)(1 + sqrt(d/2M)/3 + d/(18M)) - d
 * for d < 2M, else M. Seconds; NAN unless both are > 0. */
CF_API double cf_ckpt_interval_young(double stall_s, double mtbf_s);
CF_API double cf_ckpt_interval_daly(double stall_s, double mtbf_s);

/* Bytes of a whole checkpoint: parameters x (weight bytes + optimizer
 * state bytes) for LLM (every expert counted) and data-parallel training;
 * cells x state bytes for a stencil; 0 for independent tasks. */
CF_API double cf_ckpt_bytes(const cf_workload *w);

/* Nodes that write their share of a checkpoint: every node when ZeRO
 * shards the optimizer (zero >= 1: distributed checkpointing), else one
 * data-parallel replica's nodes (nodes / dp, at least 1). */
CF_API int cf_ckpt_writers(const cf_layout *lay, int nodes);

/* The goodput model.
 * - errors: CF_EINVAL (err->param naming it) for a bad option
 *   (mtbf_gpu_h, ckpt_interval not > 0 or not finite), nodes or GPUs < 1,
 *   a step time not > 0
 * - output: *out */
CF_API cf_status cf_goodput(const cf_goodput_in *in, cf_goodput_out *out, cf_error *err);

/* {goodput, steady_time_to_train_h, time_to_train_h, breakdown{...},
 * checkpoint{...}, failures{...}, data{...}, storage, storage_assumed}:
 * new reference, NULL on ENOMEM. */
CF_API json_t *cf_goodput_json(const cf_goodput_out *g);

/* One `assumes:`-style sentence of what g rests on ("storage not stated:
 * NFS class default 0.92 GB/s write; restart 15 min (detect 10 min, ...)").
 * Into buf (cap bytes). */
CF_API void cf_goodput_assumes(const cf_goodput_out *g, char *buf, size_t cap);

/* The published runs the model is held to (docs/goodput.md "Validation"):
 * Llama 3 405B's effective training time and Meta's GPU-hours of Llama 3.1
 * 405B, 70B and 8B. *out = [{model, published, steady, with_goodput, ...}]
 * (lib/plan/goodput_validate.c: it runs the step model's search). New
 * reference owned by the caller. CF_ENOMEM, or a preset that fails to load. */
CF_API cf_status cf_goodput_validate(json_t **out, cf_error *err);

#endif
