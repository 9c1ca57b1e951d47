#!/bin/sh
# Configure (when needed) and build gshmem in the source tree.
#
# The prefix, where `make install` (scripts/demo.sh) puts the library and the
# tools: $GSHMEM_PREFIX, else /usr/local as root, else $HOME/.local.  A tree
# configured for another prefix is configured again, with its other options,
# and the library relinked; GSHMEM_CONFIGURE_FLAGS adds options to the first
# configure.  The tests use the build tree, never the installed copy.
set -e
cd "$(dirname "$0")/.."
if [ -n "${GSHMEM_PREFIX:-}" ]; then
    want=$GSHMEM_PREFIX
elif [ "$(id -u)" = 0 ]; then
    want=/usr/local
else
    want=${HOME:?gshmem: HOME is not set; set GSHMEM_PREFIX}/.local
fi
[ -x configure ] || autoreconf -fi
if [ -f Makefile ] && [ -x config.status ]; then
    have=$(sed -n 's/^prefix = //p' Makefile)
    if [ "$have" != "$want" ]; then
        echo "gshmem: configured for prefix $have; configuring again for $want"
        # The options of the last configure, less its prefix.
        eval "set -- $(./config.status --config)"
        n=$#
        while [ "$n" -gt 0 ]; do
            a=$1
            shift
            n=$((n - 1))
            case $a in
            --prefix=*) ;;
            --prefix) shift; n=$((n - 1)) ;;
            *) set -- "$@" "$a" ;;
            esac
        done
        ./configure --prefix="$want" "$@"
        # libtool writes the prefix's libdir into libgshmem.la, and
        # `make install` relinks the tools with it as their rpath: relink.
        make clean-libLTLIBRARIES >/dev/null
    fi
else
    # shellcheck disable=SC2086
    ./configure --prefix="$want" ${GSHMEM_CONFIGURE_FLAGS:-}
fi
make -j"$(nproc)" ${V:+V=$V}
