# Byte counts and element counts are exact JSON integers: case 24 says
# "maxBytes 12884901888" (not 12884901890.0) and its largest row 11408506880.
cf audit --format json "$SHARED"/cases/24-*.txt; expect_rc 0
expect_out '"max_bytes": 12884901888,'
expect_out '"min_bytes": 134217728,'
expect_out '"largest_bytes": 11408506880,'
expect_out '"size_bytes": 11408506880,'
expect_out '"count": 1426063360,'
expect_json '[.parts[0].rows[] | (.size_bytes, .count) | type == "number" and . == floor] | all' true
! grep -Eq '"(max_bytes|min_bytes|largest_bytes|size_bytes|count)": [0-9]+\.[0-9]' "$T/out" || fail "a byte count printed as a real"
# 01's linear-step sizes
cf audit --format json "$SHARED"/cases/01-*.txt
expect_out '"size_bytes": 133169160,'
expect_out '"max_bytes": 134217728,'
