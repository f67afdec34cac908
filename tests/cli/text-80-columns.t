# Every text report fits 80 columns, as plan's does (issue 23 item 6; the
# new-user trial, 2026-12-b, found show's notes at 266 columns, fit's layout
# line at 90, predict collective's band line at 100), and no wrap splits a
# number from its unit ("lost work +9.5" / "%, restarts" in scale). A line
# that is one token only (a URL or a path, unbreakable) may be longer.
for args in "show aws-p5-48xlarge" "show crusoe-h100-ib" "show gcp-a2-highgpu-8g" \
            "fit --workload deepseek-v3 --gpu H100-SXM" "fit --workload llama3-70b --gpu H100-SXM" \
            "predict collective --collective all_reduce --bytes 1G --offering crusoe-h100-ib --nodes 2" \
            "scale --workload deepseek-v3 --offering crusoe-h100-ib" \
            "scale --workload llama3-70b --offering crusoe-h100-ib" \
            "plan --workload llama3-70b --deadline 2160 --top 3" \
            "fabrics --workload llama3-70b --gpu H100-SXM --nodes 64" \
            "goodput --workload llama3-8b --offering crusoe-h100-ib --nodes 128"; do
    # shellcheck disable=SC2086
    cf $args; expect_rc 0
    python3 -c 'import sys
for i, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    l = l.rstrip("\n")
    if len(l) > 80 and len(l.split()) > 1: print("%d: %d columns: %s" % (i, len(l), l[:90]))' \
        "$T/out" > "$T/long"
    [ -s "$T/long" ] && fail "$args prints lines over 80 columns: $(head -3 "$T/long")"
    # a line that starts with a unit alone was split from its number
    if grep -En '^ *(%|GB/s|Gbit/s|ms|pp)([ ,;:)]|$)' "$T/out" > "$T/split"; then
        fail "$args splits a number from its unit: $(head -3 "$T/split")"
    fi
done
# scale's layout column may be cut at 80 columns; then every layout is
# printed in full below the table.
cf scale --workload deepseek-v3 --offering crusoe-h100-ib; expect_rc 0
if grep -q '…' "$T/out"; then
    expect_out "layouts in full"
    cf scale --workload deepseek-v3 --offering crusoe-h100-ib --format json; expect_rc 0
    expect_json '[.[] | select(.layout != null)] | length > 0' true
fi
