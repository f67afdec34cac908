# An offering that states only a reserved price (a market, a reservation-only
# cluster) is listed at it: the price column marks it with "*", --max-price
# and --sort price use it, as the plan's sticker price does.
cf list --max-price 3 --format json; expect_rc 0
expect_json_true 'map(select(.id == "sfcompute-h100-market")) | length == 1'
expect_json '[.[] | select(.id == "sfcompute-h100-market") | .price_on_demand_gpu_hr] | .[0]' null
cf list --max-price 3 --sort price; expect_rc 0
grep -q '^sfcompute-h100-market .* 2\.11 USD\*$' "$T/out" || fail "sfcompute's reserved price not shown with *"
expect_out "*: reserved price; the offering states no on-demand price"
cf list --max-price 2 --format json; expect_rc 0
expect_json_true 'map(select(.id == "sfcompute-h100-market")) | length == 0'
