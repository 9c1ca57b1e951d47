#!/bin/sh
# tests/security/shm_modes.sh - no other user may reach a job's memory.
#
# As root it makes two local users in one primary group (gshmem-sec):
# gshmem-owner runs a 2-PE job (tests/security/hold), once over load/store
# and once with GSHMEM_DISABLE_P2P=1 (UCX, whose shared memory then holds
# the heap and the globals).  While the job holds still, gshmem-peer, of
# the same group, tries every object of the job's processes: each SysV
# segment they created or map (attach), each file of theirs in /dev/shm and
# each memfd (open), each abstract Unix socket they have bound (send,
# connect) - with tests/security/intrude.  Anything reached is a FAIL, and
# so is a job whose data changed.  Without root: a SKIP line and 77.
set -u

me=shm_modes.sh
if [ "$(id -u)" != 0 ]; then
    echo "$me: SKIP, needs root to create two local users"
    exit 77
fi
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
hold=$build/tests/security/hold
intrude=$build/tests/security/intrude
for p in "$hold" "$intrude"; do
    [ -x "$p" ] || { echo "$me: no $p (build it: make tests/security/hold tests/security/intrude)"; exit 99; }
done
launcher=${GSHMEM_TEST_LAUNCHER:-mpirun}
command -v setpriv >/dev/null 2>&1 || { echo "$me: SKIP, no setpriv (util-linux)"; exit 77; }

groupadd -f gshmem-sec || exit 99
for u in gshmem-owner gshmem-peer; do
    id "$u" >/dev/null 2>&1 || useradd -M -g gshmem-sec -s /bin/sh "$u" || exit 99
done
owner_uid=$(id -u gshmem-owner)

# The real programs behind libtool's wrappers, which the two users run.
real() {
    d=$(dirname "$1") b=$(basename "$1")
    if [ -x "$d/.libs/$b" ]; then
        echo "$d/.libs/$b"
    else
        echo "$1"
    fi
}
# The two users run copies of the programs and of the library: the build
# tree may lie below a directory only root may enter (a clone in a
# `mktemp -d` directory, mode 0700), where they could not start them.
stage=$(mktemp -d /tmp/gshmem-sec-bin.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
cp "$(real "$hold")" "$stage/hold" && cp "$(real "$intrude")" "$stage/intrude" &&
    cp -P "$build"/.libs/libgshmem.so* "$stage/" || exit 99
hold=$stage/hold intrude=$stage/intrude
libs=$stage${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# as USER CMD...: run CMD as USER, primary group gshmem-sec, no other groups.
as() {
    u=$1
    shift
    setpriv --reuid="$u" --regid=gshmem-sec --clear-groups \
        env HOME="$job" TMPDIR="$job" LD_LIBRARY_PATH="$libs" "$@"
}

# The objects of processes $pids: one intrude target per line.
targets() {
    for pid in $pids; do
        # SysV segments mapped here: the inode of a /SYSV mapping is its shmid.
        awk '$6 ~ /^\/SYSV/ { print "shm:" $5 }' "/proc/$pid/maps" 2>/dev/null
        for fd in /proc/"$pid"/fd/*; do
            link=$(readlink "$fd" 2>/dev/null) || continue
            case $link in
            /memfd:* | /dev/shm/*) echo "file:$fd" ;;
            socket:*)
                ino=${link#socket:[}
                ino=${ino%]}
                # /proc/net/unix: ... Inode Path; abstract names start with @.
                awk -v ino="$ino" '$7 == ino && substr($8, 1, 1) == "@" { print "sock:" substr($8, 2) }' \
                    /proc/net/unix
                ;;
            esac
        done
    done
    # Segments they created but no longer map, and their files in /dev/shm.
    for pid in $pids; do
        awk -v pid="$pid" 'NR > 1 && $5 == pid { print "shm:" $2 }' /proc/sysvipc/shm
    done
    find /dev/shm -maxdepth 1 -user gshmem-owner -type f 2>/dev/null | sed 's/^/file:/'
}

# run_case NAME ENV...: the job under ENV; 0 when nothing was reached.
run_case() {
    name=$1
    shift
    work=$(mktemp -d /tmp/gshmem-sec.XXXXXX) || exit 99
    chmod 0755 "$work"
    mkdir "$work/job" && chown gshmem-owner:gshmem-sec "$work/job" && chmod 0700 "$work/job"
    job=$work/job
    as gshmem-owner "$@" GSHMEM_SEC_DIR="$job" GSHMEM_SEC_WAIT=90 \
        $launcher --oversubscribe --bind-to none -np 2 "$(real "$hold")" >"$work/job.log" 2>&1 &
    jobpid=$!
    i=0
    while [ ! -e "$job/ready" ] && [ $i -lt 600 ] && kill -0 $jobpid 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    if [ ! -e "$job/ready" ]; then
        echo "$me: $name: FAIL, the job did not get ready:"
        sed 's/^/    /' "$work/job.log"
        kill $jobpid 2>/dev/null
        wait $jobpid
        rm -rf "$work"
        return 1
    fi
    pids=$(cat "$job"/pe*.pid)
    targets | sort -u >"$work/targets"
    n=$(wc -l <"$work/targets")
    # shellcheck disable=SC2046
    as gshmem-peer "$(real "$intrude")" $(cat "$work/targets") >"$work/intrude.log" 2>&1
    reached=$?
    : >"$job/done"
    wait $jobpid
    job_status=$?
    sed "s/^/$me: $name: /" "$work/intrude.log"
    result=0
    if [ $n -eq 0 ]; then
        echo "$me: $name: FAIL, found no object of the job's processes (pids $pids) to try"
        result=1
    elif [ $reached -ne 0 ]; then
        echo "$me: $name: FAIL, gshmem-peer (same group) reached objects of the job"
        result=1
    fi
    if [ $job_status -ne 0 ]; then
        echo "$me: $name: FAIL, the job ended with status $job_status:"
        sed 's/^/    /' "$work/job.log"
        result=1
    fi
    [ $result -eq 0 ] && echo "$me: $name: PASS, $n objects, none reachable by another user"
    rm -rf "$work"
    return $result
}

fails=0
run_case p2p || fails=$((fails + 1))
run_case net GSHMEM_DISABLE_P2P=1 || fails=$((fails + 1))
[ $fails -eq 0 ] && exit 0
exit 1
