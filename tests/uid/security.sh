#!/bin/sh
# tests/uid/security.sh - a stranger at the unique-id bootstrap's port.  A
# second local user (gshmem-intruder, made here if missing, removed again
# if made) runs tests/uid/intruder, which does not know the job's secret,
# against environment-mode jobs of tests/uid/boot that this user starts:
#   (a) it connects first and claims a rank with a guessed hello: rank 0
#       must drop it, say so, and run the job to the end with its own ranks;
#   (b) it holds the port before rank 0: rank 0 fails with a clear line, and
#       rank 1 does not join it (rank 0's proof fails);
#   (c) stalls: a truncated header, 8 silent connections, a fake rank claim
#       that then stays silent, a second claim of a rank already in: each
#       job still starts, with less than STALL_LIMIT s (default 10) of added
#       delay over the same job alone, and exits 0;
#   (d) the environment mode without a secret is refused with one line
#       naming GSHMEM_UID.
# The ranks other than 0 start late (1 s, rank 2 3 s), so that the intruder
# is at the door first.  Needs root (for the second user) and setpriv or su;
# elsewhere prints a SKIP line and exits 77.
set -u
. "$(dirname "$0")/common.sh"

if [ "$(id -u)" != 0 ]; then
    echo "security.sh: SKIP, needs root to create a second local user"
    exit 77
fi
user=gshmem-intruder
made_user=
if ! id -u "$user" >/dev/null 2>&1; then
    if ! useradd -M -s /usr/sbin/nologin "$user" 2>/dev/null; then
        echo "security.sh: SKIP, useradd could not create the local user $user"
        exit 77
    fi
    made_user=1
fi
uid=$(id -u "$user")
gid=$(id -g "$user")
limit=${STALL_LIMIT:-10}
boot=$top_build/tests/uid/boot
api=$top_build/tests/uid/api
for p in intruder boot api; do
    if [ ! -x "$top_build/tests/uid/$p" ]; then
        fail "$top_build/tests/uid/$p is not built"
        finish security.sh
    fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/uid-security.XXXXXX") || exit 1
ipid=
cleanup() {
    [ -n "$ipid" ] && kill -KILL "$ipid" 2>/dev/null
    rm -rf "$work"
    [ -n "$made_user" ] && userdel "$user" 2>/dev/null
    return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# The other user runs its own copy, from a folder it can read.
chmod 755 "$work"
cp "$top_build/tests/uid/intruder" "$work/intruder" && chmod 755 "$work/intruder" || exit 1

# intruder OUT ARGS...: the intruder as the other user, in the background
# ($ipid), its lines in $work/OUT.
intruder() {
    _out=$work/$1
    shift
    if command -v setpriv >/dev/null 2>&1; then
        setpriv --reuid="$uid" --regid="$gid" --clear-groups "$work/intruder" "$@" \
            >"$_out" 2>&1 &
    else
        su -s /bin/sh "$user" -c '"$0" "$@"' "$work/intruder" "$@" >"$_out" 2>&1 &
    fi
    ipid=$!
}

# intruder_end: stop the intruder (it may hold connections for a while) and
# leave its exit status in $istatus.
intruder_end() {
    kill -TERM "$ipid" 2>/dev/null
    wait "$ipid"
    istatus=$?
    ipid=
}

# job NAME NP: tests/uid/boot on NP ranks by tests/uid/uidrun on $port, the
# others late; $job_status, $job_ms, and $work/NAME.out, .err.
job() {
    _t0=$(now_ms)
    GSHMEM_UID_TIMEOUT=40 timeout -k 5 90 "$uidrun" -np "$2" --port "$port" sh -c \
        'case $GSHMEM_UID_RANK in 0) ;; 1) sleep 1 ;; *) sleep 3 ;; esac; exec "$0"' "$boot" \
        >"$work/$1.out" 2>"$work/$1.err"
    job_status=$?
    job_ms=$(($(now_ms) - _t0))
}

# The same jobs without an intruder, for the delay an attack adds.
port=$(free_port)
job base2 2
base2=$job_ms
port=$(free_port)
job base3 3
base3=$job_ms
if ! grep -q '^boot: PASS on 2 ranks' "$work/base2.out" ||
    ! grep -q '^boot: PASS on 3 ranks' "$work/base3.out"; then
    fail "the jobs without an intruder do not pass"
    show "$work"/base*.out "$work"/base*.err
    finish security.sh
fi
echo "security.sh: the jobs alone take $base2 ms (2 ranks) and $base3 ms (3 ranks)"

# (a) The intruder connects first and claims rank 1 with a guessed hello.
port=$(free_port)
intruder a.intruder claim 127.0.0.1 "$port" 1 2
job a 2
intruder_end
what="(a) another user claims rank 1 before it arrives"
bad=
[ "$job_status" -eq 0 ] || bad="$bad; the job exited $job_status"
grep -q '^boot: PASS on 2 ranks' "$work/a.out" || bad="$bad; the job did not pass on its 2 ranks"
grep -E -q "^gshmem: PE 0: rank 0 at 127.0.0.1:$port dropped a connection from 127.0.0.1:[0-9]+: it failed authentication" \
    "$work/a.err" || bad="$bad; rank 0 printed no line about the dropped intruder"
grep -q '^intruder: claim: refused' "$work/a.intruder" || bad="$bad; the intruder was not refused"
[ "$istatus" -eq 0 ] || bad="$bad; the intruder exited $istatus (3: it got in)"
if [ -n "$bad" ]; then
    fail "$what: ${bad#; }"
    show "$work/a.out" "$work/a.err" "$work/a.intruder"
else
    pass "$what: dropped ($(grep -m1 '^intruder: claim: refused' "$work/a.intruder" | cut -c1-90)...), the job passed"
fi

# (b) The intruder holds the port first and plays rank 0.
port=$(free_port)
secret=$(new_secret)
intruder b.intruder squat 127.0.0.1 "$port" 20
deadline=$(($(now_ms) + 10000))
while ! grep -q 'holding port' "$work/b.intruder" 2>/dev/null && [ "$(now_ms)" -lt "$deadline" ]; do
    sleep 0.05
done
for r in 1 0; do
    (
        GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port:$secret GSHMEM_UID_RANK=$r \
            GSHMEM_UID_SIZE=2 GSHMEM_UID_TIMEOUT=10 timeout -k 5 60 "$api" env \
            >"$work/b.out.$r" 2>"$work/b.err.$r"
        echo $? >"$work/b.status.$r"
    ) &
    [ $r = 1 ] && sleep 0.5  # rank 1 reaches the intruder before rank 0 starts
done
wait_start=$(now_ms)
while { [ ! -f "$work/b.status.0" ] || [ ! -f "$work/b.status.1" ]; } &&
    [ "$(($(now_ms) - wait_start))" -lt 70000 ]; do
    sleep 0.1
done
intruder_end
what="(b) another user holds rank 0's port"
bad=
[ "$(cat "$work/b.status.0" 2>/dev/null)" != 0 ] || bad="$bad; rank 0 exited 0"
grep -E -q "^gshmem: PE 0: .*rank 0 cannot listen at 127.0.0.1:$port \(GSHMEM_UID\): Address already in use: another process holds that port" \
    "$work/b.err.0" || bad="$bad; rank 0 did not say that another process holds its port"
[ "$(cat "$work/b.status.1" 2>/dev/null)" != 0 ] || bad="$bad; rank 1 exited 0"
grep -E -q "^gshmem: PE 1: .*the process at 127.0.0.1:$port failed authentication as rank 0" \
    "$work/b.err.1" || bad="$bad; rank 1 did not fail the authentication of the fake rank 0"
! grep -q 'JOINED' "$work/b.intruder" || bad="$bad; rank 1 joined the intruder's job"
case $istatus in 2 | 3) bad="$bad; the intruder exited $istatus (3: a rank joined it)" ;; esac
if [ -n "$bad" ]; then
    fail "$what: ${bad#; }"
    show "$work"/b.err.* "$work/b.intruder"
else
    pass "$what: rank 0 refused the port, rank 1 refused the fake rank 0"
fi

# (c) Stalls.  stall NAME NP WHAT MODE ARGS...: the job on NP ranks starts
# and passes despite `intruder MODE 127.0.0.1 PORT ARGS...`, within $limit s
# of the job alone.
stall() {
    _name=$1 _np=$2 _what=$3 _mode=$4
    shift 4
    port=$(free_port)
    intruder "$_name.intruder" "$_mode" 127.0.0.1 "$port" "$@"
    job "$_name" "$_np"
    intruder_end
    eval "_base=\$base$_np"
    _added=$((job_ms - _base))
    _bad=
    [ "$job_status" -eq 0 ] || _bad="$_bad; the job exited $job_status"
    grep -q "^boot: PASS on $_np ranks" "$work/$_name.out" || _bad="$_bad; the job did not pass"
    [ "$_added" -lt $((limit * 1000)) ] ||
        _bad="$_bad; it took $job_ms ms, $_added ms more than alone (limit $limit s)"
    ! grep -q 'ADMITTED' "$work/$_name.intruder" || _bad="$_bad; rank 0 admitted the intruder"
    # 2: it could not even attack (usage, no port); 3: it got in.  Killed
    # while it held its connections is the usual end.
    case $istatus in 2 | 3) _bad="$_bad; the intruder exited $istatus" ;; esac
    if [ -n "$_bad" ]; then
        fail "(c) $_what: ${_bad#; }"
        show "$work/$_name.out" "$work/$_name.err" "$work/$_name.intruder"
    else
        pass "(c) $_what: the job passed in $job_ms ms ($_added ms more than alone);" \
            "$(tail -n 1 "$work/$_name.intruder" | cut -c1-80)"
    fi
}
stall truncated 2 "a truncated header held open 30 s" truncated 30
stall silent 2 "8 silent connections held open 30 s" silent 8 30
stall fake 2 "a fake claim of rank 1 that then stays silent" claim 1 2 0 30
stall dup 3 "a second claim of rank 1, 2 s after the real one" claim 1 3 2000 30

# (d) No secret in GSHMEM_UID.
port=$(free_port)
for r in 0 1; do
    what="(d) GSHMEM_UID=127.0.0.1:$port (no secret) on rank $r of 2"
    GSHMEM_BOOTSTRAP=uid GSHMEM_UID=127.0.0.1:$port GSHMEM_UID_RANK=$r GSHMEM_UID_SIZE=2 \
        GSHMEM_UID_TIMEOUT=2 timeout -k 5 30 "$api" env >"$work/d.out" 2>"$work/d.err"
    s=$?
    lines=$(grep -c . "$work/d.err")
    if [ $s -ne 0 ] && [ $s -ne 124 ] && [ "$lines" -eq 1 ] &&
        grep -q 'GSHMEM_UID="127.0.0.1:[0-9]*" has no secret' "$work/d.err"; then
        pass "$what: refused with: $(cut -c1-100 "$work/d.err")..."
    else
        fail "$what: status $s, $lines line(s) of stderr, expected 1 saying it has no secret"
        show "$work/d.err"
    fi
done
finish security.sh
