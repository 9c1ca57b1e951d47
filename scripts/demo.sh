#!/bin/sh
# Fresh Debian 12 to a running example: install what is missing, build,
# install (as root into /usr/local, else into ~/.local; GSHMEM_PREFIX chooses
# another), build examples/ring.c with the installed gshmemcc and run it on
# 4 PEs with gshmemrun; then the main demo, the MoE dispatch/combine of
# examples/moe on 4 PEs (device kernels on host lanes where there is no GPU),
# which prints its shape, time per dispatch and combine, GB/s and "verified".
# Last, where the prefix is not searched already, the lines to add to
# ~/.profile so that a login shell finds gshmemcc, gshmemrun, gshmem-info and
# `pkg-config gshmem`.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
sh scripts/build.sh

# The install directories, as configured (Makefile: "libdir = ${exec_prefix}/lib").
mkvar() { sed -n "s/^$1 = //p" Makefile | sed 's/\$(\([A-Za-z_]*\))/${\1}/g'; }
prefix=$(mkvar prefix)
exec_prefix=$(eval "echo \"$(mkvar exec_prefix)\"")
bindir=$(eval "echo \"$(mkvar bindir)\"")
libdir=$(eval "echo \"$(mkvar libdir)\"")

echo "gshmem: installing into $prefix"
make install >/dev/null
if [ "$(id -u)" = 0 ]; then
    # So that the dynamic linker finds libgshmem.so without an rpath.
    PATH=$PATH:/sbin:/usr/sbin ldconfig
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gshmem-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bindir/gshmemcc" -O2 examples/ring.c -o "$work/ring"
"$bindir/gshmemrun" -np 4 "$work/ring"
"$bindir/gshmemrun" -np 4 ./examples/moe/moe
# The installed Python package, from outside the tree (make install wrote a
# gshmem.pth for python3: python/install-pth.sh).
(cd / && python3 -c 'import gshmem; print("gshmem: import gshmem works:", gshmem.__file__)')

# What a login shell lacks to find the tools and gshmem.pc.
on_path() {
    case ":$2:" in *":$1:"*) return 0 ;; esac
    return 1
}
# DIR as ~/.profile would write it: $HOME/... under the home folder.
home_rel() {
    case $1 in "$HOME"/*) echo "\$HOME/${1#"$HOME"/}" ;; *) echo "$1" ;; esac
}
lines=
if ! on_path "$bindir" "$PATH"; then
    lines="$lines
    export PATH=\"$(home_rel "$bindir"):\$PATH\""
fi
pcdir=$libdir/pkgconfig
if ! on_path "$pcdir" "$(pkg-config --variable pc_path pkg-config 2>/dev/null)" &&
    ! on_path "$pcdir" "${PKG_CONFIG_PATH:-}"; then
    lines="$lines
    export PKG_CONFIG_PATH=\"$(home_rel "$pcdir")\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\""
fi
if [ -n "$lines" ]; then
    echo "gshmem: installed in $prefix; add these lines to ~/.profile (and run them in this shell):$lines"
else
    echo "gshmem: installed in $prefix: gshmemcc, gshmemrun, gshmem-info and pkg-config gshmem are found"
fi
