# goodput (issue 24, docs/goodput.md): one configuration's breakdown, its
# options and refusals, and the comparison with Meta's published runs.
# The same 405B job: on an NFS-only offering the checkpoint stalls, on a
# parallel file system it does not.
cf goodput --workload llama3-405b --offering crusoe-h100-ib --nodes 256 --format json; expect_rc 0
expect_json '.goodput_detail.storage' nfs
expect_json '.goodput_detail.storage_assumed' false
# 405e9 parameters x (2 B weights + 12 B Adam) = 5.67 TB
expect_json '.goodput_detail.checkpoint.bytes' 5670000000000
# written at the NFS ceiling STOR_NFS_AGG_WRITE_GBPS
expect_json_true "(.goodput_detail.checkpoint.write_s - 5670 / $(K STOR_NFS_AGG_WRITE_GBPS) | fabs) < 1e-6"
expect_json_true '.goodput_detail.breakdown.ckpt_stall_h / .steady_time_to_train_h > 0.05'
expect_json_true '((.time_to_train_h * .goodput / .steady_time_to_train_h) - 1 | fabs) < 1e-9'
cf goodput --workload llama3-405b --offering aws-p5-48xlarge --nodes 256 --format json; expect_rc 0
expect_json '.goodput_detail.storage' lustre
expect_json_true '.goodput_detail.breakdown.ckpt_stall_h / .steady_time_to_train_h < 0.05'
# --storage replaces the offering's class; the interval and MTBF given are used
cf goodput --workload llama3-405b --offering crusoe-h100-ib --nodes 256 --storage lustre --ckpt-interval 3600 --mtbf-gpu-h 100000 --format json; expect_rc 0
expect_json '.goodput_detail.storage' lustre
expect_json '.goodput_detail.checkpoint.interval_s' 3600
expect_json '.goodput_detail.checkpoint.interval_from' option
expect_json '.goodput_detail.failures.mtbf_gpu_h' 100000
expect_json_true "(.goodput_detail.failures.job_mtbf_h - 100000 / 2048 | fabs) < 1e-9"
cf goodput --workload llama3-405b --offering crusoe-h100-ib --nodes 256 --no-failures --format json; expect_rc 0
expect_json '.goodput' 1
# the table names each part and its assumptions
cf goodput --workload resnet50-dp --offering crusoe-h100-ib --nodes 8; expect_rc 0
expect_out "checkpoint stalls"
expect_out "input reads"
expect_out "binds"
expect_out "assumes: nfs class default"
# Bad input: zero, negative, not a number, each naming the flag; an unknown class.
for v in 0 -1 nan abc; do
    cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 1 --mtbf-gpu-h "$v"; expect_rc 2
    expect_err "--mtbf-gpu-h expects a number of GPU-hours from 1 to 1e+12"
    cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 1 --ckpt-interval "$v"; expect_rc 2
    expect_err "--ckpt-interval expects a number of seconds from 1 to 1e+07"
done
cf goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 1 --storage ceph; expect_rc 2
expect_err "--storage expects one of nfs, lustre, gpfs, vast, weka, object, local-nvme, got 'ceph'"
cf goodput --workload llama3-8b --nodes 1; expect_rc 2
# The published runs: 405B effective time within 5 points of 90 %, 405B and
# 70B GPU-hours within 15 % of the model card.
cf goodput --validate --format json; expect_rc 0
expect_json 'length' 4
expect_json_true '.[0].with_goodput > 0.85 and .[0].with_goodput < 0.95'
expect_json_true '[.[1], .[2]] | map(.gap_pct | fabs < 15) | all'
expect_json_true '[.[1:][] | .with_goodput > .steady] | all'
cf plan --workload llama3-405b --provider crusoe --top 1; expect_rc 0
expect_out "checkpoint stalls add"
expect_out "goodput:"
