#!/bin/sh
# tests/rdma/ib_pair.sh - run one of perftest's programs (ib_write_lat,
# ib_write_bw, ...) as server and client on the one soft-RoCE device of
# guest.sh's guest: both on rxe0, GID index 1 (RoCE v2, the IPv4-mapped
# address of veth0), the client connecting to 10.66.0.1.  Prints the
# client's report (and the server's, should it fail).
#
#   ib_pair.sh PROGRAM [OPTION...]     e.g. ib_pair.sh ib_write_lat -n 1000
#
# Exit status: 0 when both sides succeed, 1 otherwise (2: usage).
set -u
prog=${1:?usage: ib_pair.sh PROGRAM [OPTION...]}
shift
command -v "$prog" >/dev/null 2>&1 || { echo "ib_pair.sh: no $prog (install perftest)" >&2; exit 1; }
srv=$(mktemp "${TMPDIR:-/tmp}/ib_pair.XXXXXX") || exit 1
trap 'rm -f "$srv"' EXIT
# A port of its own, so that a server left over from a failed run does not
# answer.
port=$((18515 + $$ % 1000))

timeout 120 "$prog" -d rxe0 -x 1 -p "$port" "$@" >"$srv" 2>&1 &
spid=$!
# The server listens once it has made its queue pair; retry until then.
ok=1
for _ in 1 2 3 4 5 6 7 8 9 10; do
    sleep 1
    if timeout 120 "$prog" -d rxe0 -x 1 -p "$port" "$@" 10.66.0.1; then
        ok=0
        break
    fi
    kill -0 "$spid" 2>/dev/null || break
done
wait "$spid"
s=$?
if [ "$ok" -ne 0 ] || [ "$s" -ne 0 ]; then
    echo "ib_pair.sh: $prog failed (client: $ok, server status $s); the server said:" >&2
    cat "$srv" >&2
    exit 1
fi
exit 0
