#!/bin/sh
# gshmem-info --topology prints a placement on this node and on each
# synthetic node of tests/topo/, for 1, 2, 4 and 8 local PEs, and the
# lines say what the topology implies (gen-xml.py describes the nodes).
top=${GSHMEM_TOP_SRCDIR:-.}
info=${GSHMEM_TOP_BUILDDIR:-.}/tools/gshmem-info
fail=0

# has OUTPUT LINE...: every LINE is one of OUTPUT's lines.
has() {
    out=$1
    shift
    for line in "$@"; do
        if ! printf '%s\n' "$out" | grep -qxF -- "$line"; then
            echo "FAIL: no line '$line' in:"
            printf '%s\n' "$out" | sed 's/^/    /'
            fail=1
        fi
    done
}

run() {
    out=$("$info" --topology "$@") || {
        echo "FAIL: gshmem-info --topology $* exited $?"
        fail=1
    }
}

# This node: whatever it holds, every PE line is there (none, with why, if
# it has no GPU, NIC or second NUMA node).
run
for what in "GPU " "NIC " "proxy CPUs " "heap NUMA node "; do
    printf '%s\n' "$out" | grep -q "^PE 0: $what" || {
        echo "FAIL: this node: no 'PE 0: $what' line in:"
        printf '%s\n' "$out"
        fail=1
    }
done

dgx=$top/tests/topo/dgx8.xml
for n in 1 2 4 8; do
    run --xml "$dgx" --local-pes $n
    has "$out" "GPUs: 8" "PE 0: NIC mlx5_0:1: nearest GPU 0: 3 PCI hops; the least used of 1 so near" \
        "PE 0: heap NUMA node 0: GPU 0's"
done
run --xml "$dgx" --local-pes 2
has "$out" "PE 1: bound to CPUs 16-31" \
    "PE 1: GPU 4 (0000:51:00.0): nearest the PE's cores: 16 of its 16 bound PUs are local to it; the least used of 4 so near" \
    "PE 1: NIC mlx5_4:1: nearest GPU 4: 3 PCI hops; the least used of 1 so near" \
    "PE 1: proxy CPUs 16-31: the PE's own cores: NUMA node 1 has none free of the node's PEs" \
    "PE 1: heap NUMA node 1: GPU 4's"
run --xml "$dgx" --local-pes 8 --bind core
has "$out" "PE 5: bound to CPUs 20" "PE 5: NIC mlx5_5:1: nearest GPU 5: 3 PCI hops; the least used of 1 so near" \
    "PE 5: proxy CPUs 21-23: NUMA node 1's cores no PE of the node is bound to, share 2 of 4"

pcie=$top/tests/topo/pcie4.xml
for n in 1 2 4 8; do
    run --xml "$pcie" --local-pes $n
    has "$out" "GPUs: 4" "PE 0: heap NUMA node none (one NUMA node: nothing to choose)"
done
run --xml "$pcie" --local-pes 8
has "$out" "PE 7: GPU 3 (0000:04:00.0): nearest the PE's cores: 2 of its 2 bound PUs are local to it; the least used of 4 so near" \
    "PE 7: NIC mlx5_0:2: nearest GPU 3: 5 PCI hops; the least used of 1 so near"

# The overrides apply as at shmem_init, a bad one is one line and status 1.
out=$(GSHMEM_GPU=2/3 "$info" --topology --xml "$pcie" --local-pes 2)
has "$out" "PE 0: GPU 2 (0000:03:00.0): GSHMEM_GPU=2" "PE 1: GPU 3 (0000:04:00.0): GSHMEM_GPU=3"
out=$(GSHMEM_GPU=9 "$info" --topology --xml "$pcie" 2>&1)
status=$?
[ $status -eq 1 ] || { echo "FAIL: GSHMEM_GPU=9: status $status, not 1"; fail=1; }
has "$out" "gshmem: GSHMEM_GPU=9: no such GPU (the node has 4 GPUs; give auto, none, an index from gshmem-info --topology or a PCI bus id)"
out=$(GSHMEM_TOPO=0 "$info" --topology --xml "$pcie")
has "$out" "placement off (GSHMEM_TOPO=0)"
"$info" --topology --local-pes 0 2>/dev/null
[ $? -eq 2 ] || { echo "FAIL: --local-pes 0 is not refused with status 2"; fail=1; }

[ $fail -eq 0 ] && echo "gshmem-info --topology: this node, dgx8.xml and pcie4.xml as expected"
exit $fail
