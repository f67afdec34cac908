# An FP8 workload on a GPU without FP8 (issue 23: `fit --gpu T4 --workload
# deepseek-v3` answered 128 nodes and said nothing of it): the library says
# the precision the step model computes in (cf_gpu_precision, the one rule
# step.c uses), text and JSON alike; a GPU with FP8 gets no note.
cf fit --gpu T4 --workload deepseek-v3; expect_rc 0
tr '\n' ' ' < "$T/out" | tr -s ' ' | grep -qF "assumes: deepseek-v3 trains in FP8, which T4 has no tensor cores for (nor BF16): its step is computed at the FP16 peak" || \
    fail "no precision fallback said for FP8 on a T4"
cf fit --gpu A100-SXM-80 --workload deepseek-v3 --format json; expect_rc 0
expect_json '.precision_note | contains("computed at the BF16 peak")' true
cf fit --gpu H100-SXM --workload deepseek-v3 --format json; expect_rc 0
expect_json '.precision_note' null
cf fit --gpu T4 --workload llama3-8b --format json; expect_rc 0
expect_json '.precision_note | contains("trains in BF16, which T4 has no tensor cores for: its step is computed at the FP16 peak")' true
