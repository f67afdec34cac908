# A GPU part as people type it (issue 23): "H100" answered with its variants,
# "H200" with its one variant, never with an edit-distance neighbour of
# another part (was "did you mean H800?" / "H20?"); the rule is the
# library's (cf_gpu_unknown_hint), every front end shows it.
cf plan --workload llama3-70b --gpu H100; expect_rc 2
expect_err "H100 names a part sold as H100-PCIe, H100-SXM, H100-NVL: give one"
grep -qF "H800" "$T/err" && grep -qF "did you mean H800" "$T/err" && fail "suggests H800"
cf list --gpu A100; expect_rc 2; expect_err "A100-PCIe, A100-SXM-40, A100-SXM-80"
cf plan --workload llama3-70b --gpu H200; expect_rc 2; expect_err "did you mean H200-SXM?"
cf fabrics --workload llama3-70b --gpu H100; expect_rc 2
expect_err "H100 names a part sold as H100-PCIe, H100-SXM, H100-NVL"
cf fit --gpu MI300 --workload llama3-70b; expect_rc 2; expect_err "did you mean MI300X?"
