# `clusterfit version` and `--version` (issue 26): the release of the VERSION
# file, the commit (12 hex digits, -dirty, or unknown outside git), the
# model constants' version (their count in constants.def, then a digest),
# and the catalog; asking writes nothing.
rel=$(cat VERSION); nk=$(grep -c '^CF_CONSTANT(' lib/model/constants.def)
cf version --format json; expect_rc 0
expect_json .version "$rel"
jq -e '.commit | test("^([0-9a-f]{12}(-dirty)?|unknown)$")' "$T/out" > /dev/null || fail "commit: $(jq .commit "$T/out")"
jq -e --arg n "$nk" '.model_constants | test("^" + $n + "-[0-9a-f]{16}$")' "$T/out" > /dev/null ||
    fail "model_constants: $(jq .model_constants "$T/out"), expected $nk-<16 hex>"
expect_json .catalog.path null; expect_json .catalog.origin built-in
[ ! -e "$CLUSTERFIT_DB" ] || fail "version made the catalog file"
mc=$(jq -r .model_constants "$T/out"); commit=$(jq -r .commit "$T/out")
cf --version; expect_rc 0
[ "$(head -n 1 "$T/out")" = "clusterfit $rel" ] || fail "first line: $(head -n 1 "$T/out")"
expect_out "commit: $commit"; expect_out "model constants: $mc"
expect_out "catalog: built-in, $(($(grep -c '' data/offerings.csv) - 1)) rows"
expect_out "catalog file: none yet"
# With a catalog file: its path. The same constants after a refit in
# another process (the digest is of the shipped values).
cf list --format json > /dev/null; expect_rc 0
cf version --format json; expect_json .catalog.path "$CLUSTERFIT_DB"; expect_json .model_constants "$mc"
cf version extra; expect_rc 2
cf --version extra; expect_rc 2
cf version --format csv; expect_rc 2
