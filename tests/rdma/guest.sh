#!/bin/sh
# tests/rdma/guest.sh - run a command inside a QEMU guest that has a
# soft-RoCE device, rxe0, for the RDMA transports' tests on a machine
# without RDMA hardware (or whose kernel has no rdma_rxe).
#
#   guest.sh [--timeout SECONDS] [--share DIR]... [--env NAME=VALUE]...
#            [--no-install] -- COMMAND [ARGS...]
#
# The guest runs Debian's own kernel (linux-image-amd64) under TCG: a Linux
# guest hangs in early boot under nested KVM here.  Its root is this
# machine's root, shared read-only over virtio-9p, so programs built here run
# there unchanged; each DIR is shared writable at the same path (default: the
# top folder of the current folder's git worktree, else this repository's),
# and /tmp, /dev, /proc, /sys and /run are the guest's own.
# tests/rdma/guest-init.sh is the guest's first process: it loads rdma_rxe,
# puts rxe0 on veth0 (10.66.0.1/24, its peer veth1 up), then runs
# `sh -c COMMAND ARGS...` (ARGS become $0, $1, ...) as root in the current
# folder (when it is shared; / otherwise) with each --env set.  COMMAND's output comes
# back on this script's stdout and stderr, through files in a shared
# control folder; the guest kernel's console goes to console.log there.
#
# Missing packages are installed with apt-get (as root, unless --no-install).
# The initramfs (mkinitramfs with a boot script that mounts the 9p root) is
# built once into the cache folder, ${XDG_CACHE_HOME:-$HOME/.cache}/gshmem-rig,
# and rebuilt when the kernel or its recipe changes.
#
# Exit status: COMMAND's; 124 when the guest runs past --timeout (default
# 900 s); 77 after a line "SKIP: <reason>" when qemu or the kernel cannot be
# installed or the guest does not boot; 2 for a usage error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
limit=900
shares=
envs=
install=yes

usage() {
    echo "usage: guest.sh [--timeout SECONDS] [--share DIR]... [--env NAME=VALUE]... [--no-install] -- COMMAND [ARGS...]" >&2
    exit 2
}

# quote WORD: WORD in single quotes, for a shell to read back.
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

while [ $# -gt 0 ]; do
    case $1 in
    --timeout)
        [ $# -ge 2 ] || usage
        case $2 in '' | *[!0-9]*) echo "guest.sh: --timeout takes seconds, got '$2'" >&2; exit 2 ;; esac
        limit=$2
        shift 2
        ;;
    --share)
        [ $# -ge 2 ] || usage
        [ -d "$2" ] || { echo "guest.sh: --share $2: no such folder" >&2; exit 2; }
        shares="$shares $(cd "$2" && pwd)"
        shift 2
        ;;
    --env)
        [ $# -ge 2 ] || usage
        case $2 in
        [A-Za-z_]*=*) ;;
        *) echo "guest.sh: --env takes NAME=VALUE, got '$2'" >&2; exit 2 ;;
        esac
        envs="$envs export ${2%%=*}=$(quote "${2#*=}");"
        shift 2
        ;;
    --no-install) install=no; shift ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ $# -gt 0 ] || usage
# By default the repository the command is run from (or this script's).
if [ -z "$shares" ]; then
    shares=" $(git rev-parse --show-toplevel 2>/dev/null || echo "$top")"
fi

skip() {
    echo "SKIP: $*"
    exit 77
}

# The packages the rig needs, and a command or file that shows each is here.
have_all() {
    command -v qemu-system-x86_64 >/dev/null 2>&1 &&
        command -v mkinitramfs >/dev/null 2>&1 &&
        command -v rdma >/dev/null 2>&1 &&
        command -v ibv_devices >/dev/null 2>&1 &&
        command -v ib_write_lat >/dev/null 2>&1 &&
        ls /boot/vmlinuz-*-amd64 >/dev/null 2>&1
}
if ! have_all; then
    [ "$install" = yes ] || skip "the rig's packages are missing (qemu-system-x86 linux-image-amd64 initramfs-tools rdma-core ibverbs-providers ibverbs-utils perftest iproute2) and --no-install was given"
    [ "$(id -u)" = 0 ] || skip "the rig's packages are missing and installing them needs root"
    command -v apt-get >/dev/null 2>&1 || skip "the rig's packages are missing and there is no apt-get"
    echo "guest.sh: installing qemu-system-x86 linux-image-amd64 initramfs-tools rdma-core ibverbs-providers ibverbs-utils perftest iproute2" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        qemu-system-x86 linux-image-amd64 initramfs-tools rdma-core ibverbs-providers \
        ibverbs-utils perftest iproute2 >&2; then
        skip "apt-get could not install the rig's packages"
    fi
    have_all || skip "the rig's packages were installed but a command or /boot/vmlinuz-*-amd64 is still missing"
fi

# The newest Debian kernel with its modules (the guest loads them from the
# shared root, at /lib/modules/<version>).
kernel=$(ls /boot/vmlinuz-*-amd64 | sort -V | tail -n 1)
kver=${kernel#/boot/vmlinuz-}
[ -d "/lib/modules/$kver/kernel" ] || skip "no modules for $kver in /lib/modules"
[ -f "/lib/modules/$kver/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko" ] ||
    ls /lib/modules/"$kver"/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko* >/dev/null 2>&1 ||
    skip "kernel $kver has no rdma_rxe module"

cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/gshmem-rig
mkdir -p "$cache" || skip "cannot make the cache folder $cache"

# The initramfs: initramfs-tools' own init with a boot script ("boot=gshmem9p")
# whose mountroot loads virtio and 9p and mounts the tag "hostroot" read-only.
recipe=$here/initramfs-boot.sh
sum=$(cksum <"$recipe" | cut -d' ' -f1)
initrd=$cache/initrd-$kver-$sum.img
if [ ! -s "$initrd" ]; then
    conf=$(mktemp -d "${TMPDIR:-/tmp}/rig-initramfs.XXXXXX") || exit 1
    mkdir -p "$conf/scripts" "$conf/hooks" "$conf/conf.d"
    sed -e 's/^MODULES=.*/MODULES=list/' -e 's/^COMPRESS=.*/COMPRESS=gzip/' \
        /etc/initramfs-tools/initramfs.conf >"$conf/initramfs.conf"
    printf '%s\n' virtio_pci virtio_console 9pnet_virtio 9p >"$conf/modules"
    cp "$recipe" "$conf/scripts/gshmem9p"
    echo "guest.sh: building the initramfs for $kver into $initrd" >&2
    if ! mkinitramfs -d "$conf" -o "$initrd.tmp" "$kver" >"$cache/mkinitramfs.log" 2>&1; then
        rm -rf "$conf" "$initrd.tmp"
        tail -n 20 "$cache/mkinitramfs.log" >&2
        skip "mkinitramfs failed for $kver (log: $cache/mkinitramfs.log)"
    fi
    rm -rf "$conf"
    mv "$initrd.tmp" "$initrd"
    # Older images of this recipe or kernel are no longer used.
    for f in "$cache"/initrd-*.img; do
        [ "$f" = "$initrd" ] || rm -f "$f"
    done
fi

# The control folder: the command to run, the shares to mount, and what comes
# back (out, err, the guest's console, started, status).
ctl=$(mktemp -d "${TMPDIR:-/tmp}/rig-ctl.XXXXXX") || exit 1
qpid=
tails=
cleanup() {
    # timeout passes TERM on to qemu (a KILL would leave qemu running).
    [ -n "$qpid" ] && kill -TERM "$qpid" 2>/dev/null
    # shellcheck disable=SC2086
    [ -n "$tails" ] && kill $tails 2>/dev/null
    rm -rf "$ctl"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

cwd=/
for d in $shares; do
    case $PWD/ in "$d"/*) cwd=$PWD ;; esac
done
cmdline=
for a in "$@"; do cmdline="$cmdline $(quote "$a")"; done
{
    echo "$envs"
    echo "cd $(quote "$cwd") || exit 1"
    echo "exec sh -c$cmdline"
} >"$ctl/cmd"
: >"$ctl/out"
: >"$ctl/err"

i=0
fsdevs=
for d in $shares; do
    echo "share$i $d" >>"$ctl/shares"
    fsdevs="$fsdevs -fsdev local,id=share$i,path=$d,security_model=none,multidevs=remap -device virtio-9p-pci,fsdev=share$i,mount_tag=share$i"
    i=$((i + 1))
done

append="console=ttyS0 root=hostroot boot=gshmem9p init=$here/guest-init.sh panic=-1 loglevel=4 quiet"
# shellcheck disable=SC2086
timeout -k 5 "$limit" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp 2 -m 3G \
    -nographic -no-reboot -nodefaults -nic none \
    -serial "file:$ctl/console.log" \
    -kernel "$kernel" -initrd "$initrd" -append "$append" \
    -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
    -fsdev local,id=rigctl,path="$ctl",security_model=none \
    -device virtio-9p-pci,fsdev=rigctl,mount_tag=rigctl \
    $fsdevs </dev/null >"$ctl/qemu.log" 2>&1 &
qpid=$!

# Stream the command's output as it comes; tail ends once qemu has, after a
# last read (the guest syncs before it powers off).
tail -n +1 -f --pid="$qpid" "$ctl/out" &
tails=$!
tail -n +1 -f --pid="$qpid" "$ctl/err" >&2 &
tails="$tails $!"
wait "$qpid"
qstatus=$?
qpid=
# shellcheck disable=SC2086
wait $tails
tails=

if [ "$qstatus" -eq 124 ] || [ "$qstatus" -eq 137 ]; then
    echo "guest.sh: the guest ran past $limit s (--timeout); its console's tail:" >&2
    tail -n 15 "$ctl/console.log" >&2
    exit 124
fi
if [ ! -f "$ctl/started" ]; then
    echo "guest.sh: qemu exited $qstatus before the guest ran the command; qemu and console:" >&2
    tail -n 10 "$ctl/qemu.log" >&2
    tail -n 25 "$ctl/console.log" >&2
    skip "the QEMU guest with kernel $kver did not boot (see above)"
fi
if [ ! -s "$ctl/status" ]; then
    echo "guest.sh: the guest stopped (qemu status $qstatus) before the command ended; console:" >&2
    tail -n 25 "$ctl/console.log" >&2
    exit 1
fi
exit "$(cat "$ctl/status")"
