/*
 * tests/device/dev_test.h - checks and the verdict of a device-API test
 * program.  Every tests/device program is written once for both backends:
 * the C compiler builds it for host lanes (make check), nvcc builds it as
 * CUDA (`nvcc -x cu`, tests/gpu/run.sh).  So the sources are C that is also
 * valid C++ (casts on every void *, no designated initializers, no compound
 * literals), kernels are GSHMEM_KERNEL bodies, functions they call are
 * DT_FN (device) or DT_HD (device and host), and the host reaches the
 * device heap only through gshmemx_memcpy_to/from_device.
 *
 * A program calls dt_start(), launches kernels with DT_LAUNCH, checks on
 * the device with DT_CHECK* (the kernel's args carry `fails`, this PE's
 * failure counter in the device heap) and on the host with the PT_CHECK*
 * macros of tests/pe/pe_test.h, and ends with `return dt_finish();`.
 * A failed device check prints one line, as the host checks do,
 *
 *   FAIL PE 1: gshmem_int_put: dest[3] (rma.c:120): expected 42, got 0
 *
 * and dt_finish() adds the device counts to the host's before the verdict:
 * 0 pass, 1 fail (77 skip through pt_skip).
 */
#ifndef DEV_TEST_H
#define DEV_TEST_H

#include <gshmem.h>
#include <gshmem_device.h>
#include <stdint.h>
#include <strings.h>

#include "../pe/pe_test.h"

/* DT_FN: a device function; DT_HD: device and host; DT_NOINL: a device
 * function nvcc keeps out of line - the gshmem_ functions are all forced
 * inline, and a kernel that inlines hundreds of them takes nvcc minutes,
 * while small functions holding a few each take seconds. */
#if defined(__CUDACC__)
#define DT_FN static __device__ inline
#define DT_HD static __host__ __device__ inline
#define DT_NOINL static __device__ __noinline__
#define DT_PRINTF printf
#else
#define DT_FN static inline
#define DT_HD static inline
#define DT_NOINL static
#define DT_PRINTF(...) fprintf(stderr, __VA_ARGS__)
#endif

/* Lanes of a test kernel: DT_BLOCKS blocks of dt_threads() threads.  At up
 * to 2 PEs a block is 48 threads (a full warp and a partial one); at more,
 * 32, so 4 PEs run 4 x 64 lanes on this 2-core machine. */
#define DT_BLOCKS 2u
#define DT_WARP 32u

/* ---- device side -------------------------------------------------------- */

DT_FN const char *dt_base(const char *file)
{
    const char *b = file;

    for (; *file; file++)
        if (*file == '/')
            b = file + 1;
    return b;
}

/* Count a failed check in *fails (this PE's counter) and print the first
 * PT_MAX_LINES of them. */
DT_FN void dt_fail_(uint64_t *fails, const char *routine, const char *what, long idx,
                    const char *file, int line, long long exp, long long act)
{
    if (gsd_fetch_add(fails, 1) < PT_MAX_LINES)
        DT_PRINTF("FAIL PE %d: %s: %s[%ld] (%s:%d): expected %lld, got %lld\n", gshmem_my_pe(),
                  routine, what, idx, dt_base(file), line, exp, act);
}

/* DT_CHECK(fails, routine, what, idx, expected, actual): both sides are
 * compared and printed as long long, so give it integers (or floating
 * values that hold integers); `what` and `idx` name the element checked. */
#define DT_CHECK(fails, routine, what, idx, exp, act)                                          \
    do {                                                                                       \
        long long dt_e_ = (long long)(exp), dt_a_ = (long long)(act);                          \
        if (dt_e_ != dt_a_)                                                                    \
            dt_fail_((fails), (routine), (what), (long)(idx), __FILE__, __LINE__, dt_e_,       \
                     dt_a_);                                                                   \
    } while (0)

/* A condition: printed as expected 1, got 0. */
#define DT_CHECK_TRUE(fails, routine, what, idx, cond)                                         \
    DT_CHECK(fails, routine, what, idx, 1, (cond) ? 1 : 0)

/* Warps are 32 consecutive threads of a block; the last may be partial. */
DT_FN unsigned dt_warp_id(void)
{
    return gshmemx_thread_id() / DT_WARP;
}
DT_FN unsigned dt_warps(void)
{
    return (gshmemx_block_threads() + DT_WARP - 1) / DT_WARP;
}
DT_FN unsigned dt_warp_lane(void)
{
    return gshmemx_thread_id() % DT_WARP;
}
DT_FN unsigned dt_warp_lanes(void)
{
    unsigned n = gshmemx_block_threads() - dt_warp_id() * DT_WARP;

    return n < DT_WARP ? n : DT_WARP;
}
/* Flat lane id in the grid, and the grid's lanes. */
DT_FN unsigned dt_lane(void)
{
    return gshmemx_block_id() * gshmemx_block_threads() + gshmemx_thread_id();
}
DT_FN unsigned dt_lanes(void)
{
    return gshmemx_grid_blocks() * gshmemx_block_threads();
}

/* ---- both sides ---------------------------------------------------------- */

/* The byte PE `pe` holds at offset `off` of a pattern-filled buffer.  It
 * never equals DT_SENT, which marks bytes a routine must not touch. */
#define DT_SENT 0xa5u
DT_HD unsigned char dt_pat(int pe, uint64_t off)
{
    unsigned v = (unsigned)(off * 131u + (off >> 8) * 7u + (off >> 16) * 3u);

    v += (unsigned)pe * 89u + 1u;

    v &= 0xffu;
    return (unsigned char)(v == DT_SENT ? v ^ 1u : v);
}

/* ---- host side ----------------------------------------------------------- */

static uint64_t *dt_fails; /* this PE's device-check failure counter (device heap) */
static int dt_me, dt_npes;

PT_UNUSED static unsigned dt_threads(void)
{
    return dt_npes <= 2 ? 48u : 32u;
}

PT_UNUSED static void dt_start_(const char *file)
{
    shmem_init();
    pt_setup_(file);
    dt_me = pt_me;
    dt_npes = pt_npes;
    dt_fails = (uint64_t *)gshmem_calloc(1, sizeof(uint64_t));
    if (dt_fails == NULL) {
        fprintf(stderr,
                "FAIL PE %d: gshmem_calloc: the device failure counter: "
                "expected a pointer, got NULL\n",
                pt_me);
        shmem_global_exit(1);
    }
}
#define dt_start() dt_start_(__FILE__)

/* Device heap <-> host. */
PT_UNUSED static void dt_to_dev(void *dev, const void *host, size_t n)
{
    gshmemx_memcpy_to_device(dev, host, n);
}
PT_UNUSED static void dt_from_dev(void *host, const void *dev, size_t n)
{
    gshmemx_memcpy_from_device(host, dev, n);
}

/* n bytes of the device heap at dev <- byte c, or <- PE pe's pattern of
 * the offsets base, base + 1, ... */
PT_UNUSED static void dt_fill(void *dev, int c, size_t n)
{
    void *h = malloc(n ? n : 1);

    memset(h, c, n);
    dt_to_dev(dev, h, n);
    free(h);
}
PT_UNUSED static void dt_fill_pat(void *dev, size_t n, int pe, uint64_t base)
{
    unsigned char *h = (unsigned char *)malloc(n ? n : 1);
    size_t i;

    for (i = 0; i < n; i++)
        h[i] = dt_pat(pe, base + i);
    dt_to_dev(dev, h, n);
    free(h);
}

/* A host copy of n bytes of the device heap (free() it). */
PT_UNUSED static void *dt_copy_back(const void *dev, size_t n)
{
    void *h = malloc(n ? n : 1);

    dt_from_dev(h, dev, n);
    return h;
}

/* Device memory of n bytes, symmetric (collective); the job ends if not. */
PT_UNUSED static void *dt_malloc(size_t n)
{
    void *p = gshmem_malloc(n);

    if (p == NULL) {
        fprintf(stderr, "FAIL PE %d: gshmem_malloc(%zu): expected a pointer, got NULL\n", pt_me,
                n);
        shmem_global_exit(1);
    }
    return p;
}

/* What the backend says of a failed launch: the CUDA error (a trap in the
 * kernel leaves a sticky one), nothing more on host lanes (the launcher
 * printed its line). */
PT_UNUSED static const char *dt_launch_error(void)
{
#if defined(__CUDACC__)
    return cudaGetErrorString(cudaGetLastError());
#else
    return "see the line above";
#endif
}

/* Launch a kernel and check that it ran (GSHMEM_LAUNCH returns 0).  A
 * failed launch stops the test at once: after it the device state is
 * unknown (on a GPU the context is lost), so every later check would only
 * fail or hang in the next barrier; the global exit ends the peers too. */
#define DT_LAUNCH(kernel, blocks, threads, args)                                               \
    do {                                                                                       \
        int dt_rc_ = GSHMEM_LAUNCH(kernel, (blocks), (threads), args);                         \
        if (dt_rc_ != 0) {                                                                     \
            fprintf(stderr,                                                                    \
                    "FAIL PE %d: GSHMEM_LAUNCH: %s on %u x %u lanes (%s:%d): expected 0, "     \
                    "got %d (%s); stopping the test\n",                                        \
                    pt_me, #kernel, (unsigned)(blocks), (unsigned)(threads), __FILE__,         \
                    __LINE__, dt_rc_, dt_launch_error());                                      \
            shmem_global_exit(1);                                                              \
        }                                                                                      \
    } while (0)

/* Is env var `name` set to a true value (1, yes, true, on)? */
PT_UNUSED static int dt_env_true(const char *name)
{
    const char *v = getenv(name);

    return v && (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
                 !strcasecmp(v, "on") || !strcasecmp(v, "y"));
}

/* Do other PEs go through the proxy (GSHMEM_DISABLE_P2P=1)? */
PT_UNUSED static int dt_proxy_mode(void)
{
    return dt_env_true("GSHMEM_DISABLE_P2P");
}

/* Add the device checks' failures to the host's, then pt_finish(). */
PT_UNUSED static int dt_finish(void)
{
    uint64_t n = 0;

    shmem_barrier_all();
    dt_from_dev(&n, dt_fails, sizeof n);
    if (n > PT_MAX_LINES)
        fprintf(stderr, "FAIL PE %d: %llu device checks failed (the first %d printed)\n", pt_me,
                (unsigned long long)n, PT_MAX_LINES);
    pt_fails += (int)(n > 1000000 ? 1000000 : n);
    gshmem_free(dt_fails);
    return pt_finish();
}

#endif /* DEV_TEST_H */
