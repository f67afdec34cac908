# EFA ports count as the node's NICs (issue 21): ibstat calls an EFA device
# "efa_0" with link layer Unknown (case c23, amzn-drivers #114); with the
# EFA run of shared case 08 (aws-ofi-nccl, provider efa) its 100 Gb/s port
# gives the node's line rate and the run is judged against it.
C=$ROOT/tests/data/cases
cf audit --format json "$SHARED"/cases/08-*.txt "$C"/c23-*.txt
expect_json '[.network, .node_nics, .node_nics_source, .bandwidth_judged] | tostring' '["efa",1,"ibstat",true]'
expect_json_true '.expected_busbw_GBps > 5 and .expected_busbw_GBps < 12.5'
# without the port dump: nothing gives a link rate
cf audit --format json "$SHARED"/cases/08-*.txt
expect_json '[.node_nics, .bandwidth_judged] | tostring' '[null,false]'
# an InfiniBand port with an unknown link layer is still not counted
sed 's/efa_0/mlx5_0/' "$C"/c23-*.txt > "$T/ib.txt"
cf audit --format json "$SHARED"/cases/08-*.txt "$T/ib.txt"
expect_json .node_nics null
