# GCP and libfabric transports from their NCCL lines (DESIGN §5).
p='node01:1:2 [0] NCCL INFO'
q='node02:1:2 [0] NCCL INFO'
printf '%s\n' "$p Using network GPUDirectTCPX_v7" "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/GPUDirectTCPX_v7/0/GDRDMA" \
  "$q Channel 00/0 : 0[0] -> 1[0] [receive] via NET/GPUDirectTCPX_v7/0/GDRDMA" > "$T/tcpx.txt"
cf audit --format json "$T/tcpx.txt"; expect_json .network tcpx; expect_json .gdr on
printf '%s\n' "$p Using network FasTrak" "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/FasTrak/0/GDRDMA" > "$T/tcpxo.txt"
cf audit --format json "$T/tcpxo.txt"; expect_json .network tcpxo
printf '%s\n' "$p Using network FastSocket" "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/FastSocket/0" > "$T/fs.txt"
cf audit --format json "$T/fs.txt"; expect_json .network tcp; expect_json .gdr na
printf '%s\n' "$p NET/OFI Selected provider is tcp, fabric is 192.0.2.0/24 (found 1 nics)" "$p Using network Libfabric" \
  "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Libfabric/0" "$q Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Libfabric/0" > "$T/ofi.txt"
cf audit --format json "$T/ofi.txt"; expect_json .network tcp
expect_json '[.findings[].code] | index("EFA_NOT_USED") != null' true
# ranks disagreeing on /GDRDMA: partial
printf '%s\n' "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA" "$q Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0" > "$T/part.txt"
cf audit --format json "$T/part.txt"; expect_json .gdr partial; expect_json .network ib
# send without /GDRDMA, receive with it: NCCL's GDR-read default, not partial
printf '%s\n' "$p Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA" "$p Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0" > "$T/read.txt"
cf audit --format json "$T/read.txt"; expect_json .gdr on
