// perftest/nvshmem/nvshmem_bench.cu - the device benchmarks of
// perftest/device_*.c written against NVSHMEM's documented host and device
// API, so the GPU kit (tests/gpu/kit.sh run) measures gshmem and NVSHMEM in
// the same run on the same GPU; plus a plain same-GPU copy kernel with the
// same split of the work, the floor for the bandwidth figures.
//
// Built on the GPU machine against the nvidia-nvshmem-cu13 package (nvcc
// -rdc=true ... -lnvshmem_device -lnvshmem_host).  Not compiled here: the
// development machine has no NVSHMEM headers.
//
// No launcher: NVSHMEM's unique-id bootstrap.  NVB_RANK and NVB_SIZE name
// the process; rank 0 writes the id to NVB_DIR/nvshmem.uid, the others
// read it (perftest/nvshmem/run2.sh starts 2).  Every PE uses GPU 0.
// Each figure is one JSON line in perftest/device_bench.h's shape, with
// "impl":"nvshmem" (or "cuda" for the copy kernel).  A failed data check
// ends the run with a nonzero status, so a broken run reports no figure.
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCKS 2
#define THREADS 64
#define BUF (4u << 20)
#define BW_BYTES (64u << 20) // per size and scope
#define LAT_ITERS 2000

enum { SC_THREAD, SC_WARP, SC_BLOCK };
static const char *scope_name[] = {"thread", "warp", "block"};

#define CK(call)                                                                       \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "nvshmem_bench: %s: %s\n", #call, cudaGetErrorString(e_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static int me, npes;

static void report(const char *bench, const char *impl, long bytes, long iters, const char *scope,
                   const char *metric, double v)
{
    printf("{\"bench\":\"%s\",\"impl\":\"%s\",\"npes\":%d,\"bytes\":%ld,\"iters\":%ld,"
           "\"scope\":\"%s\",\"mode\":\"p2p\",\"proxy_threads\":0,\"%s\":%.3f}\n",
           bench, impl, npes, bytes, iters, scope, metric, v);
    fflush(stdout);
}

// ---- bandwidth: units (lanes, warps or blocks) move msgs messages ----------

__device__ static void unit_of(int scope, unsigned *unit, unsigned *units, bool *lead)
{
    unsigned t = threadIdx.x, b = blockIdx.x;

    if (scope == SC_THREAD) {
        *unit = b * blockDim.x + t, *units = gridDim.x * blockDim.x, *lead = true;
    } else if (scope == SC_WARP) {
        unsigned w = blockDim.x / 32;
        *unit = b * w + t / 32, *units = gridDim.x * w, *lead = true;
    } else {
        *unit = b, *units = gridDim.x, *lead = true;
    }
}

__global__ void bw_kernel(char *dst, const char *src, size_t size, long msgs, int scope, int get,
                          int peer)
{
    unsigned unit, units;
    bool lead;
    size_t slots = BUF / size;

    unit_of(scope, &unit, &units, &lead);
    for (long k = unit; k < msgs; k += units) {
        size_t off = (size_t)(k % (long)slots) * size;
        if (scope == SC_THREAD) {
            if (get)
                nvshmem_getmem_nbi(dst + off, src + off, size, peer);
            else
                nvshmem_putmem_nbi(dst + off, src + off, size, peer);
        } else if (scope == SC_WARP) {
            if (get)
                nvshmemx_getmem_nbi_warp(dst + off, src + off, size, peer);
            else
                nvshmemx_putmem_nbi_warp(dst + off, src + off, size, peer);
        } else {
            if (get)
                nvshmemx_getmem_nbi_block(dst + off, src + off, size, peer);
            else
                nvshmemx_putmem_nbi_block(dst + off, src + off, size, peer);
        }
    }
    nvshmem_quiet();
}

// The floor: the same messages copied on this GPU by plain loads and stores.
__global__ void copy_kernel(char *dst, const char *src, size_t size, long msgs, int scope)
{
    unsigned unit, units, lane, lanes;
    bool lead;
    size_t slots = BUF / size;

    unit_of(scope, &unit, &units, &lead);
    lane = scope == SC_THREAD ? 0 : scope == SC_WARP ? threadIdx.x % 32 : threadIdx.x;
    lanes = scope == SC_THREAD ? 1 : scope == SC_WARP ? 32 : blockDim.x;
    for (long k = unit; k < msgs; k += units) {
        size_t off = (size_t)(k % (long)slots) * size;
        if (size % 8 == 0) {
            const uint64_t *s = (const uint64_t *)(src + off);
            uint64_t *d = (uint64_t *)(dst + off);
            for (size_t i = lane; i < size / 8; i += lanes)
                d[i] = s[i];
        } else {
            for (size_t i = lane; i < size; i += lanes)
                dst[off + i] = src[off + i];
        }
    }
}

static double time_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;

    CK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

static void bandwidth(char *sym_src, char *sym_dst, char *loc_src, char *loc_dst)
{
    static const size_t sizes[] = {8, 65536, 1048576};
    int peer = (me + 1) % npes;
    cudaEvent_t e0, e1;

    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int sc = SC_THREAD; sc <= SC_BLOCK; sc++) {
        for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            size_t size = sizes[i];
            long msgs = (long)(BW_BYTES / size);
            if (msgs > 200000)
                msgs = 200000;
            for (int get = 0; get <= 1; get++) {
                nvshmem_barrier_all();
                if (me == 0) { // PE 0 drives, as in perftest/device_bw.c
                    CK(cudaEventRecord(e0));
                    bw_kernel<<<BLOCKS, THREADS>>>(sym_dst, sym_src, size, msgs, sc, get, peer);
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    CK(cudaGetLastError());
                    report(get ? "dev_get_bw" : "dev_put_bw", "nvshmem", (long)size, msgs,
                           scope_name[sc], "MBps", (double)size * msgs / (time_ms(e0, e1) * 1e3));
                }
                nvshmem_barrier_all();
            }
            if (me == 0) {
                CK(cudaEventRecord(e0));
                copy_kernel<<<BLOCKS, THREADS>>>(loc_dst, loc_src, size, msgs, sc);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                CK(cudaGetLastError());
                report("copy_bw", "cuda", (long)size, msgs, scope_name[sc], "MBps",
                       (double)size * msgs / (time_ms(e0, e1) * 1e3));
            }
        }
    }
    // Every PE's src holds the same pattern (main): PE 0's puts wrote it
    // into its peer's dst.
    nvshmem_barrier_all();
    if (me == peer || npes == 1) {
        unsigned char h[64];
        CK(cudaMemcpy(h, sym_dst, sizeof h, cudaMemcpyDeviceToHost));
        for (unsigned k = 0; k < sizeof h; k++)
            if (h[k] != (unsigned char)(k * 131u + 7u)) {
                fprintf(stderr, "nvshmem_bench: PE %d: put data check: byte %u is %u\n", me, k,
                        h[k]);
                exit(1);
            }
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

// ---- latency and rate: one thread ------------------------------------------

enum { L_P, L_SIGNAL, L_AMO, L_RATE };

// Ping-pong (p and signal): PE 0 sends i, waits for i back; half a round
// trip per iteration.  At 1 PE the peer is itself (a put to self and wait).
__global__ void lat_kernel(int kind, long *word, uint64_t *sig, uint64_t *ctr, long iters, int peer,
                           int mine_first, unsigned long long *ns)
{
    unsigned long long t0, t1;

    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (long i = 1; i <= iters; i++) {
        if (kind == L_P) {
            if (mine_first) {
                nvshmem_long_p(word, i, peer);
                nvshmem_long_wait_until(word, NVSHMEM_CMP_GE, i);
            } else {
                nvshmem_long_wait_until(word, NVSHMEM_CMP_GE, i);
                nvshmem_long_p(word, i, peer);
            }
        } else if (kind == L_SIGNAL) {
            if (mine_first) {
                nvshmemx_signal_op(sig, (uint64_t)i, NVSHMEM_SIGNAL_SET, peer);
                nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, (uint64_t)i);
            } else {
                nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, (uint64_t)i);
                nvshmemx_signal_op(sig, (uint64_t)i, NVSHMEM_SIGNAL_SET, peer);
            }
        } else if (kind == L_AMO) {
            (void)nvshmem_uint64_atomic_fetch_add(ctr, 1, peer);
        } else {
            nvshmem_uint64_p(ctr + (i % 4096), (uint64_t)i, peer);
        }
    }
    nvshmem_quiet();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = t1 - t0;
}

static void latency(long *word, uint64_t *sig, uint64_t *ctr, unsigned long long *ns)
{
    int peer = (me + 1) % npes;

    for (int kind = L_P; kind <= L_RATE; kind++) {
        unsigned long long h = 0;
        int pingpong = kind == L_P || kind == L_SIGNAL;

        CK(cudaMemset(word, 0, sizeof(long)));
        CK(cudaMemset(sig, 0, sizeof(uint64_t)));
        CK(cudaDeviceSynchronize());
        nvshmem_barrier_all();
        // A ping-pong needs both PEs' kernels at once; at 1 PE PE 0 plays both.
        if (me == 0 || (pingpong && npes > 1)) {
            lat_kernel<<<1, 32>>>(kind, word, sig, ctr, LAT_ITERS, peer, me == 0 || npes == 1, ns);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(&h, ns, sizeof h, cudaMemcpyDeviceToHost));
        }
        nvshmem_barrier_all();
        if (me != 0)
            continue;
        if (kind == L_P)
            report("dev_p_pingpong", "nvshmem", 8, LAT_ITERS, "thread", "lat_ns",
                   (double)h / LAT_ITERS / (npes > 1 ? 2 : 1));
        else if (kind == L_SIGNAL)
            report("dev_signal_pingpong", "nvshmem", 8, LAT_ITERS, "thread", "lat_ns",
                   (double)h / LAT_ITERS / (npes > 1 ? 2 : 1));
        else if (kind == L_AMO)
            report("dev_amo_lat", "nvshmem", 8, LAT_ITERS, "thread", "lat_ns",
                   (double)h / LAT_ITERS);
        else
            report("dev_msg_rate", "nvshmem", 8, LAT_ITERS, "thread", "Mmsgps",
                   LAT_ITERS / ((double)h / 1e3));
    }
}

// ---- setup: the unique-id bootstrap through a file --------------------------

static void init(void)
{
    const char *r = getenv("NVB_RANK"), *n = getenv("NVB_SIZE"), *dir = getenv("NVB_DIR");
    int rank = r ? atoi(r) : 0, size = n ? atoi(n) : 1;
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    char path[512], tmp[520];
    FILE *f;

    snprintf(path, sizeof path, "%s/nvshmem.uid", dir ? dir : "/tmp");
    CK(cudaSetDevice(0));
    if (rank == 0) {
        if (nvshmemx_get_uniqueid(&id) != 0) {
            fprintf(stderr, "nvshmem_bench: nvshmemx_get_uniqueid failed\n");
            exit(1);
        }
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        f = fopen(tmp, "wb");
        if (!f || fwrite(&id, sizeof id, 1, f) != 1 || fclose(f) != 0 || rename(tmp, path) != 0) {
            fprintf(stderr, "nvshmem_bench: cannot write %s\n", path);
            exit(1);
        }
    } else {
        for (int t = 0; t < 600 && access(path, R_OK) != 0; t++)
            usleep(100000);
        f = fopen(path, "rb");
        if (!f || fread(&id, sizeof id, 1, f) != 1) {
            fprintf(stderr, "nvshmem_bench: rank %d: no id in %s\n", rank, path);
            exit(1);
        }
        fclose(f);
    }
    nvshmemx_set_attr_uniqueid_args(rank, size, &id, &attr);
    if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) {
        fprintf(stderr, "nvshmem_bench: nvshmemx_init_attr failed\n");
        exit(1);
    }
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
}

int main(void)
{
    unsigned char *pat = (unsigned char *)malloc(BUF);
    char *sym_src, *sym_dst, *loc_src, *loc_dst;
    long *word;
    uint64_t *sig, *ctr;
    unsigned long long *ns;

    init();
    sym_src = (char *)nvshmem_malloc(BUF);
    sym_dst = (char *)nvshmem_malloc(BUF);
    word = (long *)nvshmem_malloc(sizeof(long));
    sig = (uint64_t *)nvshmem_malloc(sizeof(uint64_t));
    ctr = (uint64_t *)nvshmem_malloc(4096 * sizeof(uint64_t));
    if (!pat || !sym_src || !sym_dst || !word || !sig || !ctr) {
        fprintf(stderr, "nvshmem_bench: PE %d: allocation failed\n", me);
        return 1;
    }
    CK(cudaMalloc((void **)&loc_src, BUF));
    CK(cudaMalloc((void **)&loc_dst, BUF));
    CK(cudaMalloc((void **)&ns, sizeof *ns));
    for (unsigned i = 0; i < BUF; i++)
        pat[i] = (unsigned char)(i * 131u + 7u);
    CK(cudaMemcpy(sym_src, pat, BUF, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(loc_src, pat, BUF, cudaMemcpyHostToDevice));
    CK(cudaMemset(sym_dst, 0, BUF));
    CK(cudaDeviceSynchronize());
    bandwidth(sym_src, sym_dst, loc_src, loc_dst);
    latency(word, sig, ctr, ns);
    nvshmem_barrier_all();
    nvshmem_free(ctr);
    nvshmem_free(sig);
    nvshmem_free(word);
    nvshmem_free(sym_dst);
    nvshmem_free(sym_src);
    cudaFree(ns);
    cudaFree(loc_dst);
    cudaFree(loc_src);
    free(pat);
    nvshmem_finalize();
    return 0;
}
