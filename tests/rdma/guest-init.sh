#!/bin/sh
# tests/rdma/guest-init.sh - the first process of guest.sh's QEMU guest
# (kernel option init=): its root is the host's, read-only, so it mounts
# the guest's own /proc, /sys, /dev, /run and /tmp, the control folder
# (tag rigctl, at /run/rig) and the writable shares listed there, sets up
# soft-RoCE (rxe0 on veth0, 10.66.0.1/24), runs /run/rig/cmd with its output
# in /run/rig/out and /run/rig/err, writes its status to /run/rig/status and
# powers the guest off.  Not meant to run anywhere else.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HOME=/tmp
TMPDIR=/tmp
export PATH HOME TMPDIR

[ "$$" = 1 ] || { echo "guest-init.sh: only the rig's guest runs this (as its init)" >&2; exit 2; }

off() {
    sync
    echo 1 >/proc/sys/kernel/sysrq
    echo o >/proc/sysrq-trigger
    sleep 30
}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mkdir -p /run/rig /run/lock
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none rigctl /run/rig; then
    echo "guest-init.sh: cannot mount the control folder" >/dev/console
    off
fi
ctl=/run/rig
exec 2>>$ctl/err

while read -r tag dir; do
    # A share under /tmp or /run is hidden by the guest's own tmpfs there:
    # make its mount point (elsewhere it exists on the read-only root).
    [ -d "$dir" ] || mkdir -p "$dir" 2>/dev/null
    mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none "$tag" "$dir" ||
        echo "guest-init.sh: cannot mount the share $dir" >&2
done <$ctl/shares

# Open MPI wants a host name it can find in /etc/hosts (the host's).
hostname "$(cat /etc/hostname 2>/dev/null || echo localhost)"
ip link set lo up

# Soft-RoCE on one end of a veth pair: every process talks to the one
# device, as Debian 6.1's rxe has no network-namespace support.
setup_rxe() {
    modprobe rdma_rxe || return 1
    # librdmacm's /dev/infiniband/rdma_cm (libgshmem_kv's GSHMEM_KV_VERBS).
    modprobe rdma_ucm || echo "guest-init.sh: no rdma_ucm: librdmacm will not work" >&2
    ip link add veth0 type veth peer name veth1 || return 1
    ip addr add 10.66.0.1/24 dev veth0 || return 1
    ip link set veth1 up && ip link set veth0 up || return 1
    rdma link add rxe0 type rxe netdev veth0 || return 1
    # The port turns ACTIVE once the link is up.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE' && return 0
        sleep 1
    done
    return 1
}
if ! setup_rxe; then
    echo "guest-init.sh: could not set up rxe0 on veth0:" >&2
    rdma link show >&2
    echo 1 >$ctl/started
    echo 1 >$ctl/status
    off
fi

date +%s >$ctl/started
sh $ctl/cmd >>$ctl/out 2>>$ctl/err </dev/null
echo $? >$ctl/status
off
