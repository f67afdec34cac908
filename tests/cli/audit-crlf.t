# CRLF line ends (a log saved on Windows) read like LF.
sed 's/$/\r/' "$SHARED/cases/24-ib-gdr-forced-one-side-gather-dropoff-topo-ibstat.txt" > "$T/crlf.txt"
cf audit --format json "$T/crlf.txt"; expect_rc 0
expect_json .network ib
expect_json .gdr partial
expect_json .busbw_GBps 10.91
expect_json '[.parts[] | select(.kind == "ibstat") | .ports[].link_layer] | unique | join(",")' "Ethernet,InfiniBand"
