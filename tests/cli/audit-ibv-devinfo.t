# ibv_devinfo -v: RoCE v2 port (IPv4-mapped GID), rate = width x speed; a down port.
printf 'hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n\tphys_port_cnt:\t\t\t1\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tactive_width:\t\t4X (2)\n\t\t\tactive_speed:\t\t50.0 Gbps (64)\n\t\t\tphys_state:\t\tLINK_UP (5)\n\t\t\tlink_layer:\t\tEthernet\n\t\t\tGID[  3]:\t\t0000:0000:0000:0000:0000:ffff:c000:0201, RoCE v2\n\nhca_id:\tmlx5_1\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_DOWN (1)\n\t\t\tphys_state:\t\tPOLLING (2)\n\t\t\tlink_layer:\t\tEthernet\n' > "$T/d.txt"
cf audit --format json "$T/d.txt"; expect_rc 0
expect_json .network roce
expect_json '.parts[0].kind' ibv-devinfo
expect_json '.parts[0].ports[0].rate_gbps' 200
expect_json '.parts[0].ports[0].roce_v2' true
expect_json '[.findings[].code] | index("PORT_DOWN") != null' true
