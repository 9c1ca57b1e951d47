#!/bin/sh
# Install the Debian 12 packages gshmem needs, when missing.
#
#   install-deps.sh           what building, installing and running the
#                             library, its tools, the examples and
#                             `import gshmem` need (scripts/demo.sh)
#   install-deps.sh --tests   that and what the test suite needs
#                             (scripts/test.sh): Criterion, torch and
#                             pytest, Slurm, cmake, clang-format,
#                             ucx_perftest, and for the soft-RoCE rig
#                             (tests/rdma) qemu, Debian's kernel (files
#                             under /boot and /lib/modules only) and perftest
#
# Runs as root (or through sudo when present).  Prints one line per package
# apt sets up (those asked for and what they pull in); on a failure, the end
# of apt's output.
set -e
pkgs="build-essential autoconf automake libtool pkg-config libpmix-dev libucx-dev
      libhwloc-dev openmpi-bin libopenmpi-dev libibverbs-dev librdmacm-dev python3 python3-numpy"
case ${1:-} in
--tests)
    pkgs="$pkgs libcriterion-dev rdma-core python3-torch python3-pytest ucx-utils iproute2
          cmake clang-format slurmd slurmctld munge slurm-client slurm-wlm-basic-plugins
          qemu-system-x86 linux-image-amd64 initramfs-tools ibverbs-providers ibverbs-utils
          perftest liburing-dev"
    ;;
"") ;;
*)
    echo "usage: scripts/install-deps.sh [--tests]" >&2
    exit 2
    ;;
esac
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "gshmem: installing$missing"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/gshmem-apt.XXXXXX")
trap 'rm -f "$log" "$log.status"' EXIT
echo "gshmem: apt-get update"
if ! $sudo apt-get update -q >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "gshmem: apt-get update failed" >&2
    exit 1
fi
# apt's whole output goes to $log; "Setting up PKG (VERSION) ..." (dpkg's
# line, one per package) is shown as "gshmem:   PKG VERSION" as it happens.
# shellcheck disable=SC2086
{ s=0; $sudo apt-get install -y -q --no-install-recommends $missing 2>&1 || s=$?; echo $s >"$log.status"; } |
    tee "$log" | sed -u -n 's/^Setting up \([^ ]*\) (\([^)]*\)).*/gshmem:   \1 \2/p'
status=$(cat "$log.status" 2>/dev/null || echo 1)
if [ "$status" -ne 0 ]; then
    tail -n 20 "$log" >&2
    echo "gshmem: apt-get install failed (status $status)" >&2
    exit 1
fi
