# fit: the rule of the man page at its boundary. A task of M GiB needs M + 3
# GiB (the runtime reserve) per GPU and fits when that is at most the vendor's
# 80 GB = 80e9 B = 74.5058 GiB of an H100: 71.5 + 3 = 74.5 fits, 71.51 + 3 =
# 74.51 does not (and more GPUs do not help a per-task footprint).
task() {
    printf '{"name":"t","kind":"embarrassing","shape":{"task_gpu_s":60,"startup_s":0,"straggler_cv":0,"memory_gib":%s},"tasks":8}\n' "$1" >"$T/w.json"
}
task 71.5
cf fit --workload "$T/w.json" --gpu H100-SXM --format json
expect_rc 0; expect_json .fits_one_node true; expect_near "$(jq .memory_per_gpu_gib "$T/out")" 74.5 0.0001
cf fit --workload "$T/w.json" --gpu H100-SXM
expect_rc 0; expect_out "74.5 GiB (the GPU has 80 GB = 74.5 GiB)"
task 71.51
cf fit --workload "$T/w.json" --gpu H100-SXM --format json
expect_rc 0; expect_json .fits_one_node false; expect_json .min_nodes 0
# Not 97 %: 0.97 x 74.5 = 72.27 GiB would reject a 72.5 GiB total (69.5 + 3).
task 69.5
cf fit --workload "$T/w.json" --gpu H100-SXM --format json
expect_rc 0; expect_json .fits_one_node true
