# data/check.py validates the shipped data files (offerings.csv, gpus.csv,
# skypilot-map.csv) against the loader's rules: it passes on the files as
# shipped, and fails with FILE:LINE:COLUMN on a broken copy.
command -v python3 > /dev/null || exit 0
python3 data/check.py --quiet > "$T/out" 2> "$T/err" || fail "data/check.py: $(cat "$T/err")"
mkdir -p "$T/data"
cp data/gpus.csv data/offerings.csv data/skypilot-map.csv "$T/data/"
sed -i 's/^instance,aws\/p5.48xlarge,aws-p5-48xlarge,/instance,aws\/p5.48xlarge,aws-p5-nope,/' "$T/data/skypilot-map.csv"
! python3 data/check.py --quiet "$T/data" > "$T/out" 2> "$T/err" || fail "a map to a missing offering passed"
grep -q "skypilot-map.csv:[0-9]*:3: value: offering 'aws-p5-nope' not in offerings.csv" "$T/err" || fail "message: $(cat "$T/err")"
