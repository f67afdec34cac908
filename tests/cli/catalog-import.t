# `import`: one transaction; a bad row rejects the whole file with
# FILE:LINE:COLUMN, exit 3, and the catalog unchanged; a later import
# updates the user's rows by id.
. tests/cli/catalog-lib.sh
import_small
cf list --format csv; cp "$T/out" "$T/before.csv"
# Line 3, column 21 (price_on_demand_gpu_hr) is negative; line 2 is fine.
{ head -1 "$SMALL"
  echo 'testz-new,TestZeta,Z,H100-SXM,8,80,,ib,400,,,,,,,,,,,,1.00,,USD,,,yes,,https://example.com/z,2026-11,,,'
  echo 'testa-h100-ib,TestAlpha,Alpha HGX H100 cluster,H100-SXM,8,80,,ib,3200,,,,,,,,,,,,-3,,USD,,,yes,,https://example.com/a,2026-11,,,'
} > "$T/bad.csv"
cf import "$T/bad.csv"; expect_rc 3
expect_err "$T/bad.csv:3:21: price_on_demand_gpu_hr: expected a non-negative number, got \"-3\""
cf list --format csv; cmp -s "$T/before.csv" "$T/out" || fail "a rejected import changed the catalog"
# Unknown column, named; missing file; bad JSON: all exit 3, nothing changed.
printf 'id,provider,offering,source_url,as_of,colour\n' > "$T/cols.csv"
cf import "$T/cols.csv"; expect_rc 3; expect_err "$T/cols.csv:1:6: unknown column \"colour\""
cf import "$T/missing.csv"; expect_rc 3; expect_err "cannot open"
printf '[{"id": "testz-new", "provider": "TestZeta", "offering": "Z", "source_url": "https://example.com/z", "as_of": "2026-11", "gpus_per_node": -8}]' > "$T/bad.json"
# JSON errors carry the value's line and column (here column 139, where -8
# starts), and show the value as the file wrote it.
cf import "$T/bad.json"; expect_rc 3; expect_err "bad.json:1:139: offering 1 (id \"testz-new\"): gpus_per_node: expected a whole number from 1 to 576, got -8"
printf 'id,provider\n\377\376,x\n' > "$T/bin.csv"
cf import "$T/bin.csv"; expect_rc 3; expect_err "bin.csv:1: missing required columns: offering, source_url, as_of"
cf list --format csv; cmp -s "$T/before.csv" "$T/out" || fail "a rejected import changed the catalog"
# An update by id, and a new row, in JSON.
printf '[{"id": "testa-h100-ib", "provider": "TestAlpha", "offering": "Alpha HGX H100 cluster", "gpu": "H100-SXM", "network": "ib", "price_on_demand_gpu_hr": 2.19, "currency": "USD", "multinode": "yes", "source_url": ["https://example.com/alpha/h100", "https://example.com/alpha/news"], "as_of": "2026-11-15", "origin": "shipped"},
 {"id": "testz-new", "provider": "TestZeta", "offering": "Z", "source_url": "https://example.com/z", "as_of": "2026-11", "orchestration": ["slurm"], "regions": ["a", "b"]}]' > "$T/update.json"
cf import "$T/update.json"; expect_rc 0; expect_out "imported 2 offerings"
cf show testa-h100-ib --format json
expect_json '.price_on_demand_gpu_hr' 2.19
expect_json '.gpudirect_rdma' null
expect_json '.source_url' "https://example.com/alpha/h100; https://example.com/alpha/news"
expect_json '.origin' user
expect_json '.age_days' 17
cf list --format json; expect_json '[.[] | select(.provider | startswith("Test"))] | length' 9
cf import; expect_rc 2
cf import a.csv b.csv; expect_rc 2
printf 'id,provider,offering,source_url,as_of\na,\377\376,A,https://a.example,2026-01\n' > "$T/bin2.csv"
cf import "$T/bin2.csv"; expect_rc 3; expect_err "bin2.csv:2:2: provider: invalid UTF-8 at byte 1 of the cell"
printf 'id,\377\n' > "$T/bin3.csv"
cf import "$T/bin3.csv"; expect_rc 3; expect_err "bin3.csv:1:2: invalid UTF-8 or a control character in a column name"
