#!/bin/sh
# rdma_compare.sh - gshmem over soft-RoCE beside perftest's own RDMA WRITE
# figures, in one boot of the rig's QEMU guest (tests/rdma/guest.sh): on
# the one device rxe0, client and server (or PE 0 and PE 1) in the same
# guest, it runs
#   ib_write_lat -s 8          and gshmem's p_pingpong (8 B put + wait),
#   ib_write_bw -s SIZE        and gshmem's put_bw, for each SIZE,
# the gshmem programs under mpirun -np 2 with GSHMEM_DISABLE_P2P=1 and
# GSHMEM_TRANSPORT=T for each T of TRANSPORTS, then prints one table.  Raw
# outputs go to perftest/results/rdma-<stamp>.txt.
#
#   ITERS=1000 (latency iterations; a tenth of that warms up, as the
#   program's own 10000 would take minutes under emulation), BW_ITERS=200
#   (bandwidth iterations per size), SIZES="8 4096 65536", TRANSPORTS=verbs
#   (a space-separated list: verbs; ucx-rc = UCX's rc_verbs on rxe0, wired
#   up over ud_verbs on GID 0 (tests/rdma/README.md); ucx-tcp = UCX over
#   TCP on the guest's veth0),
#   GSHMEMCC (default ../tools/gshmemcc), TIMEOUT=1200 (the whole guest).
# A transport this build lacks (tools/gshmem-info) shows "-" in its rows.
# Under TCG emulation the figures say little about hardware; they set
# gshmem's cost on the same emulated device against perftest's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
iters=${ITERS:-1000}
bw_iters=${BW_ITERS:-200}
sizes=${SIZES:-"8 4096 65536"}
transports=${TRANSPORTS:-verbs}
build=$here/build/rdma
results=$here/results

# Inside the guest: measure, print the table.  $2 is the raw output file.
if [ "${1:-}" = --in-guest ]; then
    raw=$2
    run_mpi() { # TRANSPORT PROGRAM ARGS...
        t=$1
        shift
        case $t in
        verbs) set -- env GSHMEM_TRANSPORT=verbs "$@" ;;
        ucx-tcp) set -- env GSHMEM_TRANSPORT=ucx UCX_TLS=tcp,self UCX_NET_DEVICES=veth0 "$@" ;;
        ucx-rc)
            set -- env GSHMEM_TRANSPORT=ucx UCX_TLS=rc_verbs,ud_verbs,self UCX_NET_DEVICES=rxe0:1 \
                UCX_IB_GID_INDEX=0 "$@"
            ;;
        esac
        GSHMEM_DISABLE_P2P=1 timeout 300 mpirun --allow-run-as-root --oversubscribe \
            --bind-to none -np 2 "$@"
    }
    # field TEXT COLUMN: the COLUMN of the line under perftest's "#bytes" header.
    field() {
        printf '%s\n' "$1" | awk -v c="$2" 'h && NF > 3 { print $c; exit } /#bytes/ { h = 1 }'
    }
    # json TEXT BENCH BYTES KEY: KEY of the JSON line of BENCH at BYTES.
    json() {
        printf '%s\n' "$1" | grep "\"bench\":\"$2\"" | grep "\"bytes\":$3," |
            sed -n "s/.*\"$4\":\([0-9.]*\).*/\1/p" | head -n 1
    }
    printf '%-26s %8s %12s %12s\n' what bytes lat_us MBps
    o=$("$top/tests/rdma/ib_pair.sh" ib_write_lat -s 8 -n "$iters" 2>&1)
    printf '=== ib_write_lat -s 8\n%s\n' "$o" >>"$raw"
    printf '%-26s %8s %12s %12s\n' ib_write_lat 8 "$(field "$o" 5)" -
    for t in $transports; do
        v=-
        if [ -x "$build/p_pingpong.$t" ]; then
            o=$(run_mpi "$t" "$build/p_pingpong.$t" -n "$iters" -w $((iters / 10)) 2>&1)
            printf '=== p_pingpong over %s\n%s\n' "$t" "$o" >>"$raw"
            v=$(json "$o" p_pingpong 8 lat_ns | awk '{ if ($1 != "") printf "%.2f", $1 / 1000 }')
        fi
        printf '%-26s %8s %12s %12s\n' "gshmem $t p_pingpong" 8 "${v:--}" -
    done
    for s in $sizes; do
        o=$("$top/tests/rdma/ib_pair.sh" ib_write_bw -s "$s" -n "$bw_iters" 2>&1)
        printf '=== ib_write_bw -s %s\n%s\n' "$s" "$o" >>"$raw"
        printf '%-26s %8s %12s %12s\n' ib_write_bw "$s" - "$(field "$o" 4)"
    done
    for t in $transports; do
        o=
        if [ -x "$build/put_bw.$t" ]; then
            o=$(run_mpi "$t" "$build/put_bw.$t" -n "$bw_iters" -b 4194304 2>&1)
            printf '=== put_bw over %s\n%s\n' "$t" "$o" >>"$raw"
        fi
        for s in $sizes; do
            v=$(json "$o" put_bw "$s" MBps)
            printf '%-26s %8s %12s %12s\n' "gshmem $t put_bw" "$s" - "${v:--}"
        done
    done
    exit 0
fi

gshmemcc=${GSHMEMCC:-$top/tools/gshmemcc}
info=$("$top/tools/gshmem-info" 2>/dev/null)
mkdir -p "$build" "$results" || exit 1
for t in $transports; do
    case $t in
    verbs) case $info in *verbs=yes*) ;; *) echo "rdma_compare.sh: this build has no gst_verbs: its rows show -" >&2; continue ;; esac ;;
    ucx-tcp | ucx-rc) case $info in *ucx=yes*) ;; *) echo "rdma_compare.sh: this build has no UCX: its rows show -" >&2; continue ;; esac ;;
    *) echo "rdma_compare.sh: TRANSPORTS: unknown '$t' (verbs, ucx-rc, ucx-tcp)" >&2; exit 2 ;;
    esac
    for prog in p_pingpong put_bw; do
        "$gshmemcc" -O2 -std=c11 -I"$here" "$here/$prog.c" -o "$build/$prog.$t" || exit 1
    done
done
raw=$results/rdma-$(date +%Y%m%d-%H%M%S).txt
: >"$raw"
"$top/tests/rdma/guest.sh" --timeout "${TIMEOUT:-1200}" --share "$top" \
    --env ITERS="$iters" --env BW_ITERS="$bw_iters" --env SIZES="$sizes" \
    --env TRANSPORTS="$transports" -- "'$here/rdma_compare.sh' --in-guest '$raw'"
s=$?
echo "rdma_compare.sh: raw output in $raw" >&2
exit $s
