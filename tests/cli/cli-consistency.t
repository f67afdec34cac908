# One answer for one input across the commands (issue 21, the reliability
# review of 2026-12-b, I1): `--stale` is the library's parser in `list` and
# `providers` alike ("+5" was refused by one, taken by the other); a list
# of counts or values with an empty item is refused ("2," was taken);
# a byte count is a whole number of bytes ("0.5" was rounded to 1); a new
# catalog that cannot be created is the environment (exit 5, as the man
# page's exit table says, not 4); a device or FIFO given as the catalog is
# refused before SQLite opens it (/dev/null-journal was left beside it).
for v in +5 ' 5' 5.0 0 1201; do
    cf list --stale "$v"; expect_rc 2; cp "$T/err" "$T/list.err"
    cf providers --stale "$v"; expect_rc 2
    expect_err "--stale: expected a whole number of months from 1 to 1200, got \"$v\""
    [ "$(sed 's/clusterfit list/clusterfit providers/' "$T/list.err")" = "$(cat "$T/err")" ] ||
        fail "--stale $v: list and providers say it differently"
done
cf providers --stale 5; expect_rc 0; expect_out "5 months ago"
cf providers --stale 1200; expect_rc 0
# Empty items: the count list of scale, the value sets of the filters.
ID=aws-p5-48xlarge
for n in 2, ,2 2,,4 ,; do
    cf scale --workload llama3-8b --offering "$ID" --nodes "$n"; expect_rc 2; expect_err "--nodes: an empty count"
done
cf scale --workload llama3-8b --offering "$ID" --nodes 1,2; expect_rc 0
for v in slurm, ,slurm 'slurm,,vm' 'slurm, '; do
    cf list --orchestration "$v"; expect_rc 2; expect_err "--orchestration: expected comma-separated values of"
done
cf list --orchestration slurm,vm; expect_rc 0
# Byte counts: whole numbers of bytes, with or without a binary multiple.
FAB="--collective all_reduce --nodes 2 --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400"
for b in 0.5 0.49999 1.5 1.3M 0.1K; do
    # shellcheck disable=SC2086
    cf predict collective $FAB --bytes "$b"; expect_rc 2; expect_err "a whole number of bytes from 1 to 2^50"
done
# shellcheck disable=SC2086
cf predict collective $FAB --bytes 0.5G --format json; expect_rc 0; expect_json .message_bytes 536870912
# shellcheck disable=SC2086
cf predict collective $FAB --bytes 1.5K --format json; expect_rc 0; expect_json .message_bytes 1536
# A catalog that cannot be created: exit 5 with the path (/proc takes no
# new files, even from root; a directory without write access, when not
# root, says so by name).
cf --db /proc/clusterfit-test.db list; expect_rc 5; expect_err "catalog /proc/clusterfit-test.db: cannot open"
if [ "$(id -u)" != 0 ]; then
    mkdir "$T/ro"; chmod 500 "$T/ro"
    cf --db "$T/ro/c.db" list; expect_rc 5; expect_err "the directory $T/ro is not writable"
    chmod 700 "$T/ro"
fi
# Not a regular file: refused by name (exit 2, as a directory is), and
# nothing is created beside it.
had_journal=no; [ -e /dev/null-journal ] && had_journal=yes
cf --db /dev/null list; expect_rc 2; expect_err "catalog /dev/null: not a regular file"
[ "$had_journal" = yes ] || [ ! -e /dev/null-journal ] || fail "/dev/null-journal was created"
mkfifo "$T/fifo"
cf --db "$T/fifo" list; expect_rc 2; expect_err "catalog $T/fifo: not a regular file"
[ ! -e "$T/fifo-journal" ] || fail "a journal was created beside the FIFO"
