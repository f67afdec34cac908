/* limits.h — every size limit of libclusterfit in one place, with the reason
 * for each number (SQLite's sqliteLimit.h, curl's dynbuf caps). Growable
 * buffers take their cap from here when created and refuse to grow past it.
 * The two sizes of cf_error sit next to it in status.h, and CF_DATE_SIZE
 * (a date's length) in date.h. */
#ifndef CLUSTERFIT_LIMITS_H
#define CLUSTERFIT_LIMITS_H

/* Catalog import file: the shipped catalog is ~100 KB; 16 MiB allows a
 * user's thousands of negotiated quotes while keeping the load in memory. */
#define CF_MAX_IMPORT_BYTES (16L * 1024 * 1024)

/* Rows in one import: far beyond any provider list, small enough to stay
 * a single quick transaction. */
#define CF_MAX_IMPORT_ROWS 100000L

/* One CSV field: notes and source URL lists are the longest, < 2 KB in the
 * shipped data. */
#define CF_MAX_FIELD_BYTES 8192L

/* Workload JSON file: presets are ~1 KB. */
#define CF_MAX_WORKLOAD_BYTES (1L * 1024 * 1024)

/* Validation CSV: the shipped tables are < 20 KB. */
#define CF_MAX_VALIDATION_BYTES (16L * 1024 * 1024)

/* Rows in a validation CSV: the shipped tables have < 100 rows; 100k keeps
 * a user's own measurement dumps while bounding memory. */
#define CF_MAX_VALIDATION_ROWS 100000L

/* Files in one validation set (validate refit, --cv source): the
 * repository has 9. */
#define CF_MAX_VALIDATION_FILES 64

/* Coordinate-descent passes of a refit (model/refit.c): the shipped files
 * settle in 2-3. */
#define CF_REFIT_MAX_PASSES 6

/* Rows a fitted constant needs; with fewer it keeps its start, the
 * literature value (one or two rows are an anecdote, not a fit). */
#define CF_REFIT_MIN_ROWS 3

/* GPU models in data/gpus.csv: ~25 today; the table is built once per
 * process and this bounds it. */
#define CF_MAX_GPUS 256L

/* Largest node count `fit` tries before answering "fits nowhere": 2048
 * nodes of 8 GPUs is 16,384 GPUs, the plan's default cap (DESIGN §4.5),
 * and the Llama 3 405B run's size. */
#define CF_FIT_MAX_NODES 2048L

/* Longest log line the audit keeps whole: NCCL INFO lines are < 1 KB and
 * topology dumps < 4 KB; longer lines are cut (and reported TRUNCATED_INPUT
 * only if they were the last line), never buffered without bound. */
#define CF_MAX_LINE_BYTES (64L * 1024)

/* Largest single audit input through the web API (the CLI streams files of
 * any size with bounded memory). NCCL_DEBUG logs posted in issues are < 1 MB. */
#define CF_MAX_AUDIT_UPLOAD_BYTES (64L * 1024 * 1024)

/* Rows kept per nccl-tests run: nccl-tests with -f 2 from 1 B to 16 GiB is
 * 35 rows; linear steps (-i) can give thousands. */
#define CF_MAX_PERF_ROWS 4096L

/* Parts (runs, log streams, matrices, port dumps) kept per audit. */
#define CF_MAX_AUDIT_PARTS 256L

/* Findings kept per audit; repeats of one code are counted, not stored. */
#define CF_MAX_FINDINGS 512L

/* Ranks tracked by the audit (the largest published jobs have ~100k GPUs;
 * beyond this ranks are still counted but per-rank state is not kept). */
#define CF_MAX_RANKS 131072L

/* HTTP request body (plan JSON, audit text). */
#define CF_MAX_HTTP_BODY_BYTES CF_MAX_AUDIT_UPLOAD_BYTES

/* Query string length for GET requests. */
#define CF_MAX_QUERY_BYTES 8192L

/* The raw request target (path and query, percent-encoded): the query's
 * bytes and 1 KiB of path. Longer is 414 (issue 21). */
#define CF_MAX_HTTP_TARGET_BYTES (CF_MAX_QUERY_BYTES + 1024L)

/* Header lines of one request, and their bytes in all: a browser sends
 * about 20 lines and 2 KiB (cookies of another site on 127.0.0.1 add some);
 * Apache's LimitRequestFields is 100, nginx's buffers 4 x 8 KiB. More is
 * 431 from the server itself (issue 21). */
#define CF_MAX_HTTP_HEADERS 100
#define CF_MAX_HTTP_HEAD_BYTES (16L * 1024)

/* libmicrohttpd's memory per connection (MHD_OPTION_CONNECTION_MEMORY_LIMIT,
 * 32 KiB by default), which holds the request line, the headers and their
 * parsed entries (about 56 bytes a line): a head that does not fit is
 * answered by libmicrohttpd itself (414, 431) without the server's headers.
 * 128 KiB holds a head of 1,000 short lines or one 100 KiB line, far past
 * the limits above, so the server's own 414 and 431 (with its headers) come
 * first (issue 21); 2048 connections x 128 KiB = 256 MiB at most, touched
 * only as heads arrive, each within CF_HTTP_HEAD_DEADLINE_S. */
#define CF_HTTP_CONNECTION_MEMORY_BYTES (128L * 1024)

/* Devices (GPUs + NICs) in one nvidia-smi topo -m matrix: 8 GPUs and up to
 * 18 NICs on today's largest boards (GB200 trays list fewer); 64 leaves room
 * and keeps the matrix a fixed 4 KB. Wider matrices are cut to this. */
#define CF_MAX_TOPO_DEVICES 64

/* RDMA ports kept per ibstat / ibv_devinfo dump: 8 GPUs x 2 ports plus
 * front-end NICs is < 32. */
#define CF_MAX_AUDIT_PORTS 64

/* Distinct hosts tracked by the audit (nodes of the largest jobs). */
#define CF_MAX_AUDIT_HOSTS 65536L

/* HTTP server (clusterfit serve). Connections accepted at once (the hard
 * cap libmicrohttpd enforces): a local web page opens ~6, a load test a few
 * dozen; the cap stays above the soft limits below, so that a new client
 * (the page, /healthz) is still accepted while slow ones hold connections
 * and are being shed (issue 15). A connection past the cap waits in the
 * kernel's accept queue behind all the others: with 512, /healthz waited
 * there 2-3 s behind a burst of 1,000 requests (issue 21), so the cap is
 * twice such a burst. The server raises its open-file limit to fit (or
 * lowers the cap to the limit it can get, and says so). */
#define CF_MAX_HTTP_CONNECTIONS 2048

/* Connections accepted from one address (hard cap): half of all. */
#define CF_MAX_HTTP_CONNECTIONS_PER_IP 1024

/* Soft limits: past 128 connections in all, or 32 from one address, the
 * connections that have waited longest for their request head (more than
 * CF_HTTP_SHED_AGE_S) are shut down, oldest first, until the count is back
 * under the limit. A browser keeps ~6 per origin; a load test at 64
 * connections on one address keeps them busy, and busy ones are never shed. */
#define CF_HTTP_SHED_CONNECTIONS 128
#define CF_HTTP_SHED_CONNECTIONS_PER_IP 32
#define CF_HTTP_SHED_AGE_S 1.0

/* Seconds a connection may take to send a request head (from its start, or
 * from the end of its previous request): a head is a few hundred bytes, so
 * a client sending one byte a second (slowloris) is dropped here, however
 * it spaces its bytes. `serve` reads CLUSTERFIT_SERVE_DEADLINE_S to shorten
 * it (the tests). */
#define CF_HTTP_HEAD_DEADLINE_S 10

/* Slowest body accepted, bytes per second on average, once the first
 * CF_HTTP_HEAD_DEADLINE_S seconds of it have passed: 1 KiB/s is a
 * 2G modem's rate, and a 64 MiB upload on loopback takes under a second. */
#define CF_HTTP_BODY_MIN_BYTES_PER_S 1024.0

/* Seconds an idle or stalled connection is kept: a slow client cannot hold
 * a slot for longer (slowloris); large uploads still finish on loopback. */
#define CF_HTTP_TIMEOUT_S 15

/* Request bodies held in memory by all connections together: one 64 MiB
 * upload plus plan requests; beyond it new bodies are refused (503). */
#define CF_MAX_HTTP_BODIES_TOTAL_BYTES (4L * CF_MAX_HTTP_BODY_BYTES)

/* Cached GET responses (catalog queries, until the catalog file changes):
 * the page's filter combinations in use at once are a few dozen; the whole
 * catalog as JSON is ~140 KB, so 64 entries stay under ~10 MB. */
#define CF_MAX_HTTP_CACHE_ENTRIES 64

/* Bytes the response cache holds in all (bodies and keys), and the largest
 * reply it keeps: a 100,000-row catalog is a 64 MB full list, and 64 such
 * entries once took 4.9 GB (issue 15). 32 MiB holds the page's few dozen
 * filter combinations of the shipped catalog (~140 KB each) many times. */
#define CF_MAX_HTTP_CACHE_BYTES (32L * 1024 * 1024)
#define CF_MAX_HTTP_CACHE_ENTRY_BYTES (4L * 1024 * 1024)

/* Node counts one plan or scale curve evaluates per node type: N0 plus the
 * powers of two up to the largest stated cluster (~10^5 GPUs: 17 doublings
 * of 1 node), and for plan 1.5 times each (lib/plan/ladder.c: 34 counts at
 * most); `scale --nodes` lists are held to the same number. */
#define CF_MAX_PLAN_NODE_COUNTS 40

/* ---- Fabric and collective parameters. cf_fabric_set and
 * cf_coll_query_set accept exactly these ranges, and the model's own checks
 * use the same numbers, so the CLI's flags and the API's parameters cannot
 * disagree. */

/* GPUs per node (gpus_per_node): 8 on an HGX/DGX board, 4 on a GH200 or
 * GB200 tray, 72 for a whole GB200/GB300 NVL72 rack described as one node.
 * 576 is the largest scale-up domain any vendor has announced (NVIDIA's
 * Rubin Ultra NVL576, 576 GPU dies in one NVLink domain, shown in the GTC
 * 2025 keynote of March 2025 for late 2027): a count above it is no board
 * or offering that exists, so it is refused rather than modelled. Ranks per node
 * (ranks_per_node) are at most the node's GPUs, so the same bound. */
#define CF_MAX_GPUS_PER_NODE 576

/* Scale-out NICs per node (nics): 8 ConnectX-7 on an HGX H100 node, 32 EFA
 * devices on a p5.48xlarge. 1024 is 30 times the largest and catches a
 * typo; zero NICs is no scale-out network, which network none says. */
#define CF_MAX_NICS_PER_NODE 1024

/* Nodes of one collective (nodes): the largest published jobs have ~10^5
 * GPUs, ~10^4 nodes; 10^6 is beyond any real question and catches a typo
 * (the model also refuses a rank count nodes x ranks_per_node past INT_MAX). */
#define CF_MAX_NODES 1000000

/* Largest message (bytes, in nccl-tests' size column) the size parser
 * accepts: 2^50 = 1 PiB, thousands of times any GPU's memory, and exact in
 * a double. */
#define CF_MAX_MESSAGE_BYTES 1125899906842624.0

/* Accepted line rates, Gbit/s, of a NIC (--nic-gbps, nic_gbps) or a node
 * (--expect-gbps, expect_gbps), in the CLI and the API alike: above zero
 * (0.001 allows the 0.1 Gbit/s of a throttled pod), and up to 1e6, over ten
 * times a 2025 node's 8 x 800 Gbit/s, so a typo of a few zeros is caught. */
#define CF_LINE_GBPS_MIN 0.001
#define CF_LINE_GBPS_MAX 1e6

/* The decimals of a workload file (issue 21: any positive finite value was
 * taken, so `shape.flops_per_cell: 1e308` made plan rank first a row of
 * infinite time with "nan" efficiency, and `tokens: 1e-320` a cost of
 * -0.00). Each is bounded where the quantity stops making sense, with
 * orders of magnitude of room past the largest real case, so that every
 * product the model forms stays finite in a double (< 1e308). A value out
 * of its range is refused, naming the file, the field and the range. */
/* Training tokens: Llama 3 used 1.5e13 (15T), the presets reach 3.6e13;
 * 1e16 is 280x that. At least one token. */
#define CF_WL_TOKENS_MIN 1.0
#define CF_WL_TOKENS_MAX 1e16
/* shape.params_b (billion): the largest dense and MoE models are about 2e3
 * (2T); 1e6 (a quadrillion parameters) leaves room. */
#define CF_WL_PARAMS_B_MIN 1e-6
#define CF_WL_PARAMS_B_MAX 1e6
/* shape.moe.capacity_factor: 1.0-2.0 in practice (GShard, Switch); an
 * expert receiving more than 64x its share is no longer a capacity. */
#define CF_WL_CAPACITY_FACTOR_MIN 0.01
#define CF_WL_CAPACITY_FACTOR_MAX 64.0
/* Data-parallel and embarrassing kinds, and the stencil's cell counts:
 * parameters, samples, tasks, cells (counts): at least 1, at most 1e15
 * (a 1e12-cell grid is the largest published CFD run's order). */
#define CF_WL_COUNT_MIN 1.0
#define CF_WL_COUNT_MAX 1e15
/* FLOPs of one sample or one cell update: ResNet-50 is 1.2e10 per sample
 * (3x 4.1 GFLOPs), a stencil cell 1e1-1e4; 1e18 bounds any one sample. */
#define CF_WL_FLOPS_MIN 1e-3
#define CF_WL_FLOPS_MAX 1e18
/* Bytes of one sample's activations, one cell, or one halo exchange to one
 * neighbour per GPU: 1e15 (a petabyte) bounds them all. A cell may hold a
 * fraction of a byte (bit-packed state), not less than 1e-3. */
#define CF_WL_BYTES_MIN 1e-3
#define CF_WL_BYTES_MAX 1e15
/* Iterations of a stencil run: 1e12 time steps is years at 1 ms each. */
#define CF_WL_ITERATIONS_MAX 1e12
/* Seconds (shape.task_gpu_s, shape.startup_s): at most 1e8 s (3 years),
 * at least a microsecond for a task's GPU time. */
#define CF_WL_SECONDS_MIN 1e-6
#define CF_WL_SECONDS_MAX 1e8
/* shape.straggler_cv, the tasks' coefficient of variation: 0 (identical)
 * to 10 (a heavy tail no schedule plans for). */
#define CF_WL_STRAGGLER_CV_MAX 10.0
/* shape.memory_gib: one task's GPU memory; 1e6 GiB is past any GPU. */
#define CF_WL_MEMORY_GIB_MIN 1e-6
#define CF_WL_MEMORY_GIB_MAX 1e6

/* Goodput (docs/goodput.md): mtbf_gpu_h (workload key, --mtbf-gpu-h) is
 * GPU-hours between unexpected interruptions; Llama 3's 405B run had about
 * 5e4; 1 is a GPU failing every hour, 1e12 a rate no fleet has seen.
 * --ckpt-interval, seconds: 1 s up to 1e7 s (four months). */
#define CF_MTBF_GPU_H_MIN 1.0
#define CF_MTBF_GPU_H_MAX 1e12
#define CF_CKPT_INTERVAL_S_MIN 1.0
#define CF_CKPT_INTERVAL_S_MAX 1e7

/* The decimal filters (--min-gbps, --max-price, the API's min_gbps and
 * max_price): a node's line rate at most CF_LINE_GBPS_MAX x 1024 NICs; a
 * price per GPU-hour at most 1e9 in any currency (the largest listed are
 * about 1e4 in JPY or KRW). Past those a filter can only mean a typo. */
#define CF_FILTER_MIN_GBPS_MAX (CF_LINE_GBPS_MAX * CF_MAX_NICS_PER_NODE)
#define CF_FILTER_MAX_PRICE_MAX 1e9


/* ---- Parallel layout (cf_layout). cf_layout_set accepts exactly these
 * ranges, for `predict step`'s flags and any front end that takes a layout
 * by name; cf_step_predict refuses degrees below 1 and a ZeRO stage past
 * CF_MAX_ZERO_STAGE itself (the layout against the workload and the GPU
 * count is its check, not a bound). */

/* Tensor, pipeline and context parallel degrees (tp, pp, cp): TP stays
 * within a scale-up domain (8 GPUs on an HGX board, 72 on NVL72, 576 on
 * NVL576), PP within the layers (126 for Llama 3 405B), CP within the
 * sequence (a few dozen for 1M tokens). 4096 is far beyond each and
 * catches a typo. */
#define CF_MAX_LAYOUT_DEGREE 4096

/* Data parallel degree (dp): 2^20 replicas, each of one GPU at least, is the
 * largest cluster a plan considers (CF_PLAN_MAX_GPUS_MAX), five times the
 * largest built by 2025. */
#define CF_MAX_DP 1048576

/* Interleaved pipeline chunks per stage (vp): Megatron-LM runs 2 to 8;
 * pp x vp cannot exceed the layers (the model refuses that itself), and
 * 1024 is eight times the layers of any model in the presets. */
#define CF_MAX_VP 1024

/* Sequences per micro-batch (micro_batch): 1 to 8 in published LLM runs,
 * up to a few hundred images for vision data parallelism; 65536 is past any
 * global batch of sequences (Llama 3 405B: 2048 of 8192 tokens) and
 * catches a typo. */
#define CF_MAX_MICRO_BATCH 65536

/* ZeRO stages (zero): 0 (none) to 3 (parameters sharded too, as FSDP),
 * the stages DeepSpeed defines; there is no stage 4. */
#define CF_MAX_ZERO_STAGE 3

/* ---- Fixed-size strings in public structs (bytes, NUL included). */

/* cf_fabric.gpu: a GPU name of data/gpus.csv, the longest of which is 11
 * bytes ("A100-SXM-80"). A name that does not fit is no GPU of the table:
 * cf_fabric_set and cf_fabric_from_offering refuse it (CF_EINVAL). */
#define CF_GPU_NAME_MAX 32

/* cf_workload.name: preset names are < 20 bytes ("llama3-70b-finetune");
 * a longer name from a workload file is cut. */
#define CF_WORKLOAD_NAME_MAX 64
/* ---- Plan options. cf_plan_opts_set accepts exactly these ranges and
 * cf_plan checks the options it is given against the same numbers, so
 * `clusterfit plan`'s flags and POST /api/plan's members cannot disagree. */

/* Deadline in hours (deadline_h; the CLI's --deadline). 0.001 h = 3.6 s is
 * shorter than any training run, so every offering misses it (the tests use
 * it to see that), and below it the number is more likely seconds or a slip
 * than hours; 1e7 h is over a thousand years, 200 times the longest plan
 * the catalog yields (the cheapest Llama 3 405B run, ~4 x 10^4 h), so a typo
 * of a few zeros is caught. */
#define CF_PLAN_DEADLINE_H_MIN 0.001
#define CF_PLAN_DEADLINE_H_MAX 1e7

/* Budget, in the planning currency (budget). 0.001 is a tenth of a cent,
 * less than one GPU-minute at any price in the catalog (the cheapest is
 * 0.15 USD per GPU-hour); 1e18 leaves room for the largest jobs in
 * currencies of small units (a 10^9 USD run is ~10^13 IDR) and still
 * catches an amount typed with a dozen zeros too many. */
#define CF_PLAN_BUDGET_MIN 0.001
#define CF_PLAN_BUDGET_MAX 1e18

/* `list --stale MONTHS`, `providers --stale MONTHS`: a century of months;
 * the catalog's dates start in 1900 (date.h). */
#define CF_MAX_STALE_MONTHS 1200L

/* The staleness a renter is shown by default (`providers`, the web page's
 * offerings note, GET /api/offerings' `stale`): six months, the age past
 * which issue 13 counts a catalog row as needing a re-check (prices move
 * monthly; two quarters is the ClusterMAX-style refresh cycle). */
#define CF_STALE_MONTHS_DEFAULT 6L

/* Rows kept (top): 1 up to the rows one import may add (CF_MAX_IMPORT_ROWS),
 * more offerings than a catalog holds; 0 in cf_plan_opts means all. */
#define CF_PLAN_TOP_MAX 100000

/* Largest cluster, GPUs, where the provider states none (max_gpus): the
 * largest clusters built by 2025 have ~2 x 10^5 GPUs; 2^20 is five times
 * that and 64 times the default cap (16,384), and its node counts stay
 * within CF_MAX_PLAN_NODE_COUNTS (20 doublings of one GPU); 0 in
 * cf_plan_opts means the default. */
#define CF_PLAN_MAX_GPUS_MAX 1048576L

/* Deadline margin in percent (margin_pct; the CLI's --margin): a
 * configuration meets a deadline D when its time to train x (1 + margin /
 * 100) <= D. 0 trusts the model exactly; 100 % (the prediction doubled) is
 * far past any error the validation shows (median 3-9 %, worst rows ~40 %),
 * so a larger number is more likely a slip. */
#define CF_PLAN_MARGIN_PCT_MIN 0.0
#define CF_PLAN_MARGIN_PCT_MAX 100.0
/* The probe (probe.h). One file read from a host tree: sysfs attributes are
 * a page (4 KiB) at most, a PCI config space 4 KiB, /proc/self/limits
 * ~1.5 KB, /proc/driver/nvidia/gpus/X/information ~0.5 KB; 64 KiB refuses
 * anything that is not such a file (a link to a device node, a log). */
#define CF_MAX_PROBE_FILE_BYTES (64L * 1024)

/* Entries read from one directory (/sys/bus/pci/devices has ~100-500 on a
 * GPU server, /sys/class/net a few dozen; 4096 bounds a strange tree). */
#define CF_MAX_PROBE_ENTRIES 4096L

/* GPUs and RDMA ports kept per node: 8-16 GPUs and up to 32 EFA devices on
 * today's nodes (p5: 32); the caps leave 4x room. */
#define CF_MAX_PROBE_GPUS 64L
#define CF_MAX_PROBE_PORTS 128L

/* NCCL_* / FI_* variables kept from the environment (a tuned job sets ~20). */
#define CF_MAX_PROBE_ENV 256L

/* Paths of the probe (--sysroot). Linux refuses a path of PATH_MAX (4096)
 * bytes or more (ENAMETOOLONG). The probe builds host paths of at most 1024
 * bytes (the longest it reads, "/sys/class/infiniband/DEV/ports/N/
 * phys_state" with names of at most 255 bytes each, is ~560; a resolved
 * sysfs device path is ~100-200); a sysroot whose real path is longer
 * than 3071 bytes is refused, so that the sysroot and any host path fit in
 * PATH_MAX and no read is cut or fails for its length. */
#define CF_MAX_PROBE_PATH_BYTES 1024L
#define CF_MAX_PROBE_SYSROOT_BYTES 3071L

/* One node report as the MPI front end sends it (~10-20 KB of JSON for an
 * 8-GPU, 8-NIC node; 1 MiB bounds what rank 0 accepts from one host). */
#define CF_MAX_PROBE_REPORT_BYTES (1L * 1024 * 1024)

/* A probe JSON the audit reads as one input part (lib/audit/probe_in.c):
 * a cluster report of 4096 nodes is ~60 MB; 64 MiB holds it, and bounds
 * what the audit keeps of one file that starts like JSON. */
#define CF_MAX_AUDIT_PROBE_BYTES (64L * 1024 * 1024)

/* --nodes of `recipe`: 2 nodes (a multi-node job) up to the fit's cap. */
#define CF_RECIPE_NODES_MIN 2L
#define CF_RECIPE_NODES_MAX CF_FIT_MAX_NODES
/* --image of `recipe`: a container image reference (registry/name:tag or
 * @digest); Docker's reference grammar allows 255 bytes for the name. */
#define CF_RECIPE_IMAGE_MAX 255

/* --timeout of `probe --mpi`, seconds: each phase (gather, pair tests,
 * results) waits at most this long for a rank. */
#define CF_PROBE_TIMEOUT_S_MIN 1.0
#define CF_PROBE_TIMEOUT_S_MAX 3600.0

/* ---- Imported counts (issue 15). Every whole number of an offering feeds
 * the plan's arithmetic, so import (and every read of a stored row) refuses
 * values past these; gpus_per_node and nics_per_node take the fabric's
 * bounds above (CF_MAX_GPUS_PER_NODE, CF_MAX_NICS_PER_NODE). */

/* Largest stated cluster (max_cluster_gpus): the largest clusters built by
 * 2025 have ~2 x 10^5 GPUs; 10^7 is fifty times that and keeps nodes x GPUs
 * per node far below 2^63 (a value of 2^32 once crashed the server). */
#define CF_MAX_CLUSTER_GPUS 10000000L

/* ---- Price imports (import --format). A price an import changes by more
 * than this, up or down, is flagged in the summary (old -> new, with their
 * dates): SkyPilot's files have carried wrong accelerator counts (a price
 * off by their ratio), and a real price rarely moves by half between two
 * reads; the import still applies it. */
#define CF_PRICE_CHANGE_WARN_PCT 50.0

/* ---- Serving (issue 25, docs/model-serve.md). Tokens of one request's
 * prompt or output: the longest context windows published by 2026 hold
 * 10^7 tokens (Llama 4 Scout's 10M); more is a typo. */
#define CF_SERVE_MAX_TOKENS 10000000
/* Offered traffic, requests/s: 10^7 is ten times the largest public
 * inference fleets' request rates and keeps tokens/s far below 2^53. */
#define CF_SERVE_MAX_RPS 10000000
/* Latency targets (plan --tpot-ms, --ttft-s): from 0.01 ms and 1 ms, below
 * any GPU's kernel launch, to a day (a target that never binds). */
#define CF_SERVE_TPOT_MS_MIN 0.01
#define CF_SERVE_TPOT_MS_MAX 86400000.0
#define CF_SERVE_TTFT_S_MIN 0.001
#define CF_SERVE_TTFT_S_MAX 86400.0

#endif
