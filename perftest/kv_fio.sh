#!/bin/sh
# perftest/kv_fio.sh - the KV storage tier (perftest/kv_fio) beside fio on
# the same file, same settings, same run (issue 28; target: ours >= 0.9x
# fio at every size):
#   fio     --direct=1 --ioengine=io_uring --iodepth=QD --bs=SIZE
#           --rw=read|write|randread|randwrite --size=FILE --loops=ROUNDS
#   ours    kv_fio -m PATTERN -b SIZE -q QD -s FILE -n ROUNDS -w 0: a
#           request of QD blocks, one I/O each, O_DIRECT, io_uring
# interleaved (which goes first turns with the rep), REPS (3) reps each;
# then kv_fio -m llama (Llama-3-8B's cache, 252 MiB, offloaded and
# reloaded, against a pwrite/pread loop) once per rep.  Prints markdown
# tables of the medians over reps.  fio's figure is its mean over ROUNDS
# loops, ours the median of ROUNDS passes.
#
#   DIR     where the test file goes (/var/tmp); must be a disk: tmpfs is
#           memory (and may refuse O_DIRECT) and is refused
#   SIZE    the file (1G); QD (32); ROUNDS (3); REPS (3)
#   K       blocks per kv_fio request (QD) and W requests in flight (2).
#           The file's I/O thread streams queued requests into the ring,
#           so it never drains between requests, as fio's never does, and
#           each request ends with its last I/O.  K = QD gives the disk
#           fio's depth from a buffer of fio's size (the W requests share
#           it): at K = 8 x QD the buffer is 8 times fio's, and writes of
#           64 KiB ran at 0.75x here, a cache effect of this VM's disk
#           (the same code at K = QD: 1.07x)
#   SIZES   block sizes ("4k 16k 64k 256k 1m"); PATTERNS (the four)
#   LLAMA=0 skips the Llama rows; KEEP=1 keeps the raw lines (path printed)
#   QUICK=1 a check that the script works: SIZE=64M ROUNDS=1 REPS=1
# fio is installed with apt-get when missing and we are root; else its
# columns say n/a.
set -u
build=${GSHMEM_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
if [ -n "${QUICK:-}" ]; then
    : "${SIZE:=64M}" "${ROUNDS:=1}" "${REPS:=1}"
fi
dir=${DIR:-/var/tmp}
size=${SIZE:-1G}
qd=${QD:-32}
rounds=${ROUNDS:-3}
reps=${REPS:-3}
sizes=${SIZES:-"4k 16k 64k 256k 1m"}
patterns=${PATTERNS:-"read write randread randwrite"}
prog=$build/perftest/kv_fio

bytes() { # 64M -> 67108864
    case $1 in
    *[kK]) echo $((${1%?} * 1024)) ;;
    *[mM]) echo $((${1%?} * 1048576)) ;;
    *[gG]) echo $((${1%?} * 1073741824)) ;;
    *) echo "$1" ;;
    esac
}

[ -x "$prog" ] || { echo "kv_fio.sh: $prog is not built (make)" >&2; exit 1; }
if ! command -v fio >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "kv_fio.sh: installing fio" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y fio >/dev/null 2>&1 ||
        echo "kv_fio.sh: apt-get install fio failed" >&2
fi
have_fio=1
command -v fio >/dev/null 2>&1 || { have_fio=0; echo "kv_fio.sh: no fio: its columns say n/a" >&2; }
mkdir -p "$dir" || exit 1
fs=$(stat -f -c %T "$dir") # "ext2/ext3" for ext4 too
case $fs in
tmpfs | ramfs)
    echo "kv_fio.sh: $dir is on $fs (memory, not a disk): set DIR to a directory on a disk" >&2
    exit 1
    ;;
esac
file=$dir/kv_fio.$$.dat
out=$(mktemp)
log=$(mktemp)
trap 'rm -f "$file"' EXIT
trap 'exit 130' INT TERM
size_b=$(bytes "$size")
# Written out whole before anything reads it: a hole reads back without
# the disk (kv_fio would lay it out too; fio might go first).
dd if=/dev/zero of="$file" bs=1M count=$((size_b / 1048576)) oflag=direct conv=fsync \
    status=none || exit 1
echo "kv_fio.sh: $file ($fs), $size, QD $qd, K ${K:-$qd}, W ${W:-2}, $rounds rounds, $reps reps" >&2

fio_one() { # RW BS: fio's figure as a kv_fio-like line
    timeout 600 fio --name=kvfio --filename="$file" --size="$size_b" --direct=1 \
        --ioengine=io_uring --iodepth="$qd" --bs="$2" --rw="$1" --loops="$rounds" \
        --output-format=json >"$log.json" 2>>"$log" || { echo "kv_fio.sh: fio $1 $2 failed" >&2; return; }
    python3 - "$log.json" "$1" "$2" >>"$out" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["read" if "read" in sys.argv[2] else "write"]
print(json.dumps({"bench": "kv_fio_" + sys.argv[2], "impl": "fio", "bytes": int(sys.argv[3]),
                  "MBps": d["bw_bytes"] / 1e6, "iops": d["iops"]}))
PY
}

ours_one() { # RW BS
    timeout 600 "$prog" -f "$file" -s "$size_b" -m "$1" -b "$2" -q "$qd" -k "${K:-$qd}" -W "${W:-2}" \
        -n "$rounds" -w 0 2>>"$log" | grep '^{' >>"$out" || echo "kv_fio.sh: kv_fio $1 $2 failed" >&2
}

for rep in $(seq 1 "$reps"); do
    sides="ours fio"
    [ $((rep % 2)) = 0 ] && sides="fio ours"
    for s in $sizes; do
        bs=$(bytes "$s")
        for rw in $patterns; do
            for side in $sides; do
                [ "$side" = fio ] && [ $have_fio = 0 ] && continue
                "${side}_one" "$rw" "$bs"
            done
        done
    done
    if [ "${LLAMA:-1}" != 0 ]; then
        timeout 600 "$prog" -f "$file" -m llama -q "$qd" -n "$rounds" -w 1 2>>"$log" |
            grep '^{' >>"$out" || echo "kv_fio.sh: kv_fio -m llama failed" >&2
    fi
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    side = "fio" if d["impl"] == "fio" else "pwrite" if d["impl"] == "pwrite" else "ours"
    rows.setdefault((d["bench"], d["bytes"], side), []).append(d)
med = lambda k, f: statistics.median(x[f] for x in rows[k]) if k in rows else None
size = lambda b: "%d KiB" % (b >> 10) if b < 1 << 20 else "%d MiB" % (b >> 20)
print("| figure | ours MB/s | ours IOPS | fio MB/s | fio IOPS | ours / fio |")
print("| --- | --- | --- | --- | --- | --- |")
for rw in ("read", "write", "randread", "randwrite"):
    for b in sorted({k[1] for k in rows if k[0] == "kv_fio_" + rw}):
        o, f = ("kv_fio_" + rw, b, "ours"), ("kv_fio_" + rw, b, "fio")
        cell = lambda k: ("%.1f | %.0f" % (med(k, "MBps"), med(k, "iops"))) if k in rows else "n/a | n/a"
        ratio = "%.2fx" % (med(o, "MBps") / med(f, "MBps")) if o in rows and f in rows else "n/a"
        print("| %s %s | %s | %s | %s |" % (rw, size(b), cell(o), cell(f), ratio))
if any(k[0].startswith("kv_fio_llama") for k in rows):
    print("\n| Llama-3-8B cache, 252 MiB | ours s (GB/s) | pwrite/pread loop s (GB/s) | loop / ours time |")
    print("| --- | --- | --- | --- |")
    for name, what in (("kv_fio_llama_offload", "offload (one store)"),
                       ("kv_fio_llama_reload", "reload (one load)")):
        o = [k for k in rows if k[0] == name and k[2] == "ours"]
        p = [k for k in rows if k[0] == name and k[2] == "pwrite"]
        if not o or not p:
            continue
        so, sp = med(o[0], "seconds"), med(p[0], "seconds")
        print("| %s | %.3f (%.2f) | %.3f (%.2f) | %.2fx |" % (what, so, med(o[0], "gbps"), sp,
                                                          med(p[0], "gbps"), sp / so))
PY
if [ -n "${KEEP:-}" ]; then
    echo "kv_fio.sh: raw lines in $out, stderr in $log" >&2
else
    rm -f "$out" "$log" "$log.json"
fi
