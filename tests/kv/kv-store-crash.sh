#!/bin/sh
# The block store after kill -9 in the middle of puts: a writer
# (kv_store_crash write) puts keys into one store, is killed with SIGKILL
# at a different moment each round, and a checker (kv_store_crash check)
# reopens the store: every key held comes back with its own bytes, and the
# newest keys whose puts ended well are held.  Rounds go on in the same
# store (each writer starting at new keys), so later rounds also recover
# from the earlier kills and evict what they left; every other round the
# writer uses the pread/pwrite engine (a kill between two pwrites).  Under /var/tmp: a disk
# file system, where the store's data file is O_DIRECT.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
prog=$build/tests/kv/kv_store_crash
rounds=${KV_CRASH_ROUNDS:-8}
dir=$(mktemp -d /var/tmp/gshmem-kvcrash-XXXXXX) || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0
r=1
while [ "$r" -le "$rounds" ]; do
    first=$((r * 100000))
    out=$dir/round$r.out
    engine=auto
    [ $((r % 2)) -eq 0 ] && engine=posix
    GSHMEM_KV_FILE_ENGINE=$engine "$prog" write "$dir/store" "$first" >"$out" 2>"$dir/round$r.err" &
    pid=$!
    # 0.3 .. 1.0 s: the kill lands at a different point of a put each time.
    sleep "0.$((2 + r % 8))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    done_key=$(sed -n 's/^done //p' "$out" | tail -n 1)
    if [ -z "$done_key" ]; then
        echo "kv-store-crash.sh: round $r: no put ended before the kill; the writer said:"
        cat "$dir/round$r.err"
        fail=1
        break
    fi
    if ! timeout -k 5 60 "$prog" check "$dir/store" "$first" "$done_key"; then
        echo "kv-store-crash.sh: FAIL: round $r (killed after key $done_key)"
        fail=1
    fi
    r=$((r + 1))
done
[ $fail -eq 0 ] && echo "kv-store-crash.sh: PASS: $rounds kills mid-put, every held key whole"
exit $fail
