#!/bin/sh
# tests/gpu/kit/nvshmem_build.sh TOP OUTDIR - build perftest/nvshmem's
# benchmark against the nvidia-nvshmem-cu13 pip package into
# OUTDIR/nvshmem_bench, and write OUTDIR/nvshmem.env: the environment its
# runs need (sourced by kit.sh).  A script, not a shell function, because
# kit_step runs its command under timeout(1), which cannot run a function.
#
# NVSHMEM opens its bootstrap and transport plugins by bare name, so its
# lib folder goes on LD_LIBRARY_PATH; the kit has no remote network, so
# NVSHMEM_REMOTE_TRANSPORT=none, and the unique-id bootstrap listens on
# loopback.  Exit 77 (SKIP) when the package is not installed.
set -u
top=${1:?usage: nvshmem_build.sh TOP OUTDIR}
out=${2:?usage: nvshmem_build.sh TOP OUTDIR}
h=$(python3 -c 'import nvidia.nvshmem as m; print(list(m.__path__)[0])' 2>/dev/null)
if [ -z "$h" ] || [ ! -d "$h/include" ]; then
    echo "SKIP: no nvidia-nvshmem-cu13 package (python3 -c 'import nvidia.nvshmem')"
    exit 77
fi
# The pip package has only the versioned name (libnvshmem_host.so.3), which
# nvcc does not take as an input file: it goes to the linker by -Xlinker.
host=$(ls "$h"/lib/libnvshmem_host.so* 2>/dev/null | head -n 1)
[ -n "$host" ] || { echo "no libnvshmem_host.so in $h/lib"; exit 1; }
nvcc=${NVCC:-nvcc}
command -v "$nvcc" > /dev/null 2>&1 || { echo "SKIP: no nvcc on PATH or under CUDA_HOME"; exit 77; }
"$nvcc" -O3 -rdc=true -gencode arch=compute_90,code=sm_90 -I"$h/include" \
    -o "$out/nvshmem_bench" "$top/perftest/nvshmem/nvshmem_bench.cu" \
    -L"$h/lib" -lnvshmem_device -Xlinker "$host" -Xlinker -rpath,"$h/lib" -lcuda -lcudart || exit 1
cat > "$out/nvshmem.env" <<EOT
LD_LIBRARY_PATH=$h/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
NVSHMEM_REMOTE_TRANSPORT=none
NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME=lo
export LD_LIBRARY_PATH NVSHMEM_REMOTE_TRANSPORT NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME
EOT
echo "built $out/nvshmem_bench against $h"
