# An empty result says what happened (issue 23 item 2): `plan --network tcp
# --multinode yes` printed "0 ranked; every offering could be ranked." and
# exited 0. Now the line names what removed every offering, from the
# library's `filters` (each filter alone against the whole catalog), and the
# exit status is 1 (the man page's EXIT STATUS: "none", as grep's 1). (Since
# the catalog gained Vast.ai's TCP clusters, the empty pair is TCP with
# GPUDirect RDMA, which no plain-TCP offering has.)
cf plan --workload cfd-stencil --network tcp --gdr yes; expect_rc 1
expect_no_out "every offering could be ranked"
tr '\n' ' ' < "$T/out" | grep -qE -- "0 ranked: no offering passes the filters; --gdr yes alone keeps [0-9]+ of the catalog's [0-9]+, --network tcp [0-9]+: none has them all" || \
    fail "the empty plan does not say which filters removed every offering"
cf plan --workload cfd-stencil --network tcp --gdr yes --format json; expect_rc 1
expect_json '.matched' 0
expect_json '[.filters[].filter] | join(",")' "gdr,network"
# The counts are the catalog's: each filter alone, as `list` gives it.
cf list --network tcp --format json; n_tcp=$(jq length "$T/out")
cf list --gdr yes --format json; n_mn=$(jq length "$T/out")
cf plan --workload cfd-stencil --network tcp --gdr yes --format json
expect_json '.filters[1].matches' "$n_tcp"
expect_json '.filters[0].matches' "$n_mn"
# One filter that matches nothing is named alone.
cf plan --workload cfd-stencil --provider nobody-sells-this; expect_rc 1
tr '\n' ' ' < "$T/out" | grep -qF -- "--provider nobody-sells-this matches no offering." || fail "the filter that matches nothing is not named"
# Offerings that pass but cannot be ranked still exit 0, with reasons.
cf plan --workload llama3-70b --deadline 1 --format json; expect_rc 0
expect_json_true '.matched > 0'
