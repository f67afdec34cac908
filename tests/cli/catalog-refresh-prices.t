# tools/refresh-prices.py (issue 22 item 2) rewrites a cloud's snapshot from
# a newer copy of skypilot-catalog: it keeps the header and the rows of every
# type data/skypilot-map.csv names (mapped, or listed with an empty offering),
# drops the others, reads a cloud from the layout its provenance row names
# (v8 for hyperstack), rewrites the provenance row, and runs data/check.py,
# which refuses a mapped type whose count contradicts its offering; all or
# nothing: the check runs on a staged copy, and a refusal leaves data/ as it was.
command -v python3 > /dev/null || exit 0
mkdir -p "$T/repo" "$T/cat/catalogs/v7/runpod" "$T/cat/catalogs/v8/hyperstack"
cp -r data tools "$T/repo/"
commit=0123456789abcdef0123456789abcdef01234567
{ cat data/prices/runpod/vms.csv
  echo "cpu3c-2-4,,,2.0,4.0,,CA,,0.06,CA-MTL-1"
  echo "1x_A40_SECURE,A40,1.0,9.0,48.0,A40,CA,,0.44,CA-MTL-1"; } > "$T/cat/catalogs/v7/runpod/vms.csv"
cp data/prices/hyperstack/vms.csv "$T/cat/catalogs/v8/hyperstack/"
(cd "$T/repo" && python3 tools/refresh-prices.py "$T/cat" $commit 2026-12-03 runpod hyperstack) \
    > "$T/out" 2> "$T/err" || fail "refresh failed: $(cat "$T/err")"
expect_out "runpod: 9 rows kept"
expect_out "hyperstack: 3 rows kept"
# The shipped rows, listed and mapped alike, and nothing else.
cmp -s data/prices/runpod/vms.csv "$T/repo/data/prices/runpod/vms.csv" || fail "runpod rows: $(diff data/prices/runpod/vms.csv "$T/repo/data/prices/runpod/vms.csv")"
grep -q "^8x_H100-SXM_SECURE," "$T/repo/data/prices/runpod/vms.csv" || fail "a listed type was dropped"
! grep -q "^1x_A40_SECURE," "$T/repo/data/prices/runpod/vms.csv" || fail "a type the map does not name was kept"
grep -q "^hyperstack,data/prices/hyperstack/vms.csv,$commit,2026-12-03,https://github.com/skypilot-org/skypilot-catalog/blob/$commit/catalogs/v8/hyperstack/vms.csv," \
    "$T/repo/data/prices/provenance.csv" || fail "provenance: $(grep '^hyperstack' "$T/repo/data/prices/provenance.csv")"
# A newer copy whose mapped 8-GPU flavor counts 4 is refused at its line.
sed -i 's/^n3-H100-SXM5x8,H100-80G-SXM5,8,/n3-H100-SXM5x8,H100-80G-SXM5,4,/' "$T/cat/catalogs/v8/hyperstack/vms.csv"
! (cd "$T/repo" && python3 tools/refresh-prices.py "$T/cat" $commit 2026-12-03 hyperstack) > "$T/out" 2> "$T/err" \
    || fail "a contradicting count was refreshed"
grep -q "data/prices/hyperstack/vms.csv:3:3: AcceleratorCount 4 contradicts offering 'hyperstack-h100-sxm'" "$T/err" \
    || fail "message: $(cat "$T/err")"
# All or nothing: the refused refresh above left data/ as it was (the staged
# copy with the count 4 never reached it), and so does a run whose second
# cloud is missing after a first that would have been rewritten.
cmp -s data/prices/hyperstack/vms.csv "$T/repo/data/prices/hyperstack/vms.csv" \
    || fail "a refused refresh changed data/: $(diff data/prices/hyperstack/vms.csv "$T/repo/data/prices/hyperstack/vms.csv")"
grep -q "nothing in data/ changed" "$T/err" || fail "refusal does not say data/ is unchanged: $(cat "$T/err")"
cp -r "$T/repo/data" "$T/before"
sed -i 's/^\(8x_H100-SXM_SECURE,.*\),21.52,23.92,CA-MTL-1/\1,20.00,23.92,CA-MTL-1/' "$T/cat/catalogs/v7/runpod/vms.csv"
grep -q ',20.00,23.92,CA-MTL-1' "$T/cat/catalogs/v7/runpod/vms.csv" || fail "test set-up: no runpod row changed"
! (cd "$T/repo" && python3 tools/refresh-prices.py "$T/cat" 1111111111111111111111111111111111111111 2026-12-04 runpod nosuchcloud) \
    > "$T/out" 2> "$T/err" || fail "a missing cloud was refreshed"
grep -q "nosuchcloud/vms.csv: not found" "$T/err" || fail "message: $(cat "$T/err")"
diff -r "$T/before" "$T/repo/data" > /dev/null || fail "a failed refresh changed data/: $(diff -r "$T/before" "$T/repo/data" | head -5)"
[ -z "$(ls -a "$T/repo" | grep '^\.refresh-prices-')" ] || fail "temporary directory left behind"
