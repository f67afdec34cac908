# The time objective rents what can be rented (issue 23): it ranked 4,096
# GPUs for 3 s at E 0.18 for the stencil. Now no row scales below the
# efficiency floor (CF_PLAN_TIME_E_FLOOR), the row says which bound chose it
# (chosen_by, and its why line), and the objective line states both bounds.
floor=0.5
cf plan --workload cfd-stencil --multinode yes --objective time --top 1 --format json; expect_rc 0
expect_json_true "[.ranked[] | .scaling_efficiency >= $floor] | all"
expect_json_true '.ranked[0].chosen_by | index("efficiency_floor") != null'
expect_json_true '.ranked[0].why | contains("scale below E 0.50 (the efficiency floor")'
cf plan --workload cfd-stencil --multinode yes --objective time --top 1; expect_rc 0
expect_out "among node counts with E of at least 0.50 and"
tr '\n' ' ' < "$T/out" | tr -s ' ' | grep -qF "chosen over faster node counts that scale below E 0.50 (the efficiency floor" || \
    fail "the why line does not say the efficiency floor chose the row"
# Every ranked row of the time objective meets the floor; the cost objective
# has none (its rows may scale worse under a tight deadline) and says no bound.
cf plan --workload llama3-8b --objective time --format json; expect_rc 0
expect_json_true "[.ranked[] | .scaling_efficiency >= $floor] | all"
cf plan --workload llama3-8b --format json; expect_rc 0
expect_json_true '[.ranked[] | .chosen_by | type == "array"] | all'
