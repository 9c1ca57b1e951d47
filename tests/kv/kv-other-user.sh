#!/bin/sh
# A second local user can neither connect to a KV server without its
# secret nor reach its pools.  As root it makes two local users (those of
# tests/security/shm_modes.sh): gshmem-owner runs a one-PE server
# (kv_peers serve-listen, its blob and address in a directory only it can
# read); gshmem-peer, not given the secret, runs kv_intrude against it (a
# wrong secret, then process_vm_readv and /proc/PID/mem, the ways the
# same-host path and a debugger reach memory); then the owner's own puller
# (pull-connect, with the secret) completes the server's job.  Every
# attempt of the intruder must be refused and both of the owner's jobs
# must pass.  Without root or setpriv: SKIP (77).
set -u
me=kv-other-user.sh
[ "$(id -u)" = 0 ] || { echo "$me: SKIP, needs root to create two local users"; exit 77; }
command -v setpriv >/dev/null 2>&1 || { echo "$me: SKIP, no setpriv (util-linux)"; exit 77; }
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${GSHMEM_TEST_TIMEOUT:-60}
groupadd -f gshmem-sec || exit 99
for u in gshmem-owner gshmem-peer; do
    id "$u" >/dev/null 2>&1 || useradd -M -g gshmem-sec -s /bin/sh "$u" || exit 99
done
real() { # the program behind libtool's wrapper
    if [ -x "$(dirname "$1")/.libs/$(basename "$1")" ]; then
        echo "$(dirname "$1")/.libs/$(basename "$1")"
    else
        echo "$1"
    fi
}
# Copies the two users can run (the build tree may be below a 0700 folder).
stage=$(mktemp -d /tmp/gshmem-kvsec.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
cp "$(real "$build/tests/kv/kv_peers")" "$(real "$build/tests/kv/kv_intrude")" "$stage/" &&
    cp -P "$build"/.libs/libgshmem.so* "$build"/libs/kv/.libs/libgshmem_kv.so* "$stage/" || exit 99
for u in owner peer; do
    mkdir -m 0700 "$stage/$u" && chown "gshmem-$u:gshmem-sec" "$stage/$u" || exit 99
done
dir=$stage/owner/job
as() { # USER CMD...: CMD as gshmem-USER, with a home and TMPDIR of its own
    u=$1
    shift
    setpriv --reuid="gshmem-$u" --regid=gshmem-sec --clear-groups \
        env HOME="$stage/$u" TMPDIR="$stage/$u" LD_LIBRARY_PATH="$stage" "$@"
}
secret=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
as owner mkdir -m 0700 "$dir" || exit 99
timeout -k 5 "$limit" setpriv --reuid=gshmem-owner --regid=gshmem-sec --clear-groups \
    env HOME="$stage/owner" TMPDIR="$stage/owner" LD_LIBRARY_PATH="$stage" \
    KV_PEERS_SECRET="$secret" "$stage/kv_peers" serve-listen "$dir" &
server=$!
n=0
while [ ! -s "$dir/addr.0" ] && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
done
[ -s "$dir/addr.0" ] || { echo "$me: FAIL: the server published no address"; exit 1; }
addr=$(tr -d '\0' <"$dir/addr.0")
# The server's process: timeout's child (setpriv and env exec into it).
pid=$(pgrep -P "$server" -f kv_peers | head -n 1)
fail=0
timeout -k 5 "$limit" env -u KV_PEERS_SECRET setpriv --reuid=gshmem-peer --regid=gshmem-sec \
    --clear-groups env HOME="$stage/peer" TMPDIR="$stage/peer" LD_LIBRARY_PATH="$stage" \
    "$stage/kv_intrude" "$addr" "${pid:-0}" || fail=1
[ -n "$pid" ] || { echo "$me: FAIL: no server process found"; fail=1; }
timeout -k 5 "$limit" setpriv --reuid=gshmem-owner --regid=gshmem-sec --clear-groups \
    env HOME="$stage/owner" TMPDIR="$stage/owner" LD_LIBRARY_PATH="$stage" \
    KV_PEERS_SECRET="$secret" "$stage/kv_peers" pull-connect "$dir" || fail=1
wait $server || fail=1
if [ $fail = 0 ]; then
    echo "$me: PASS: the other user was refused at $addr and by pid $pid; the owner's jobs passed"
else
    echo "$me: FAIL"
fi
exit $fail
