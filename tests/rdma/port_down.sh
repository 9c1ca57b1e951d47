#!/bin/sh
# tests/rdma/port_down.sh - the port-down case of the soft-RoCE rig (a line
# "verbs sh tests/rdma/port_down.sh" of tests.list, run in the guest as
# root in the build folder): starts tests/pe/bad_verbs_port_down on 2 PEs,
# takes rxe0's netdev down once they are past init, and passes if run-pe
# does (the job ended with one line naming the port).  The netdev comes
# back up, and the port back to ACTIVE, before this returns, whatever
# happened, so that the lines after this one still have rxe0.
set -u
dev=${GSHMEM_HCA:-rxe0}
netdev=$(rdma link show "$dev/1" 2>/dev/null | sed -n 's/.* netdev \([^ ]*\).*/\1/p')
if [ -z "$netdev" ]; then
    echo "port_down.sh: no netdev under $dev/1 (rdma link show)" >&2
    exit 1
fi
ready=$(mktemp -u /tmp/port_down.XXXXXX)
PORT_DOWN_READY=$ready tests/pe/run-pe tests/pe/bad_verbs_port_down-np2.pe &
job=$!

waited=0
while [ ! -e "$ready" ] && kill -0 "$job" 2>/dev/null && [ "$waited" -lt 120 ]; do
    sleep 1
    waited=$((waited + 1))
done
if [ -e "$ready" ]; then
    echo "port_down.sh: the PEs are up after ${waited} s; taking $netdev down"
    ip link set "$netdev" down
else
    echo "port_down.sh: the PEs never got past init (${waited} s)" >&2
fi
wait "$job"
status=$?
rm -f "$ready"

ip link set "$netdev" up
waited=0
until rdma link show "$dev/1" 2>/dev/null | grep -q 'state ACTIVE'; do
    if [ "$waited" -ge 60 ]; then
        echo "port_down.sh: $dev/1 did not come back to ACTIVE in 60 s" >&2
        exit 1
    fi
    sleep 1
    waited=$((waited + 1))
done
echo "port_down.sh: $netdev up again, $dev/1 ACTIVE after ${waited} s"
exit $status
