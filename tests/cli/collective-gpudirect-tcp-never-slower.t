# GPUDirect-TCPX and -TCPXO run over the NICs plain sockets use, with NCCL's
# socket transport still there: no collective on them is slower than on TCP
# at the same NICs and line rate (new-user trial: serving's small dispatch
# and combine all-to-alls put TCPXO under TCP, its 60 us hop doubled by the
# GPUDirect flush of Simple past TCP's 80; the floor collective.c gave TCPX
# did not cover TCPXO). Over sizes from 8 B (latency) to 256 MiB
# (bandwidth), node counts, NIC counts and line rates.
for coll in alltoall all_reduce all_gather sendrecv; do
    for nodes in 2 16; do
        for rate in "1 100" "8 400"; do
            set -- $rate
            for bytes in 8 65536 256M; do
                t=""
                for net in tcp tcpx tcpxo; do
                    cf predict collective --collective "$coll" --bytes "$bytes" --nodes "$nodes" \
                        --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network "$net" \
                        --nics "$1" --nic-gbps "$2" --format json
                    expect_rc 0
                    t="$t $(jq -r .time_us "$T/out")"
                done
                set -- $t
                awk -v tcp="$1" -v x="$2" -v xo="$3" 'BEGIN { exit !(x <= tcp * (1 + 1e-12) && xo <= tcp * (1 + 1e-12)) }' ||
                    fail "$coll $bytes B on $nodes nodes at $rate: tcp $1 us, tcpx $2, tcpxo $3"
                set -- $rate
            done
        done
    done
done
