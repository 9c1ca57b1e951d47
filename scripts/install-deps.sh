#!/bin/sh
# Install the Debian 12 packages gshmem needs to build and test, when missing.
# Runs as root (or through sudo when present).
set -e
pkgs="build-essential autoconf automake libtool pkg-config libpmix-dev libucx-dev
      libhwloc-dev libcriterion-dev openmpi-bin libopenmpi-dev rdma-core libibverbs-dev
      python3 ucx-utils iproute2"
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
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
