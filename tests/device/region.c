/*
 * tests/device/region.c - NVSHMEM 3.8's RMA regions (gsd/region.h).
 *
 * Device code, every block on its own: no region is active before the
 * start; start_block with BATCH_RMA gives every thread the same nonzero
 * handle, distinct between blocks; is_active is 1 for BATCH_RMA and for
 * NONE; a second start, a stop with another handle and unknown hints are
 * GSHMEMX_ERROR_INVALID_VALUE; inside the region every lane puts (nbi) and
 * gets (nbi) to and from the right PE; stop_block, then is_active is 0; a
 * region with no hints is active for NONE only.  After a quiet and a
 * barrier the host checks the puts' bytes and the gets' values.
 * Host code: a thread's own region (start, is_active, a second start, nbi
 * puts in it, stop, a second stop, a NULL handle); a host thread's region
 * is not a lane's.
 */
#include "dev_test.h"

#define BATCH GSHMEMX_REGION_HINT_BATCH_RMA

typedef struct rg_args {
    uint64_t *fails;
    uint64_t *handles; /* [blocks] (local) */
    int *src, *dst;    /* [lanes]: src this PE's (set by the host), dst the left PE's puts */
    int *got;          /* [lanes]: nbi gets of the right PE's src */
    int me, right;
} rg_args_t;

DT_HD int val(int pe, unsigned lane)
{
    return pe * 1000 + (int)lane + 1;
}

GSHMEM_KERNEL(rg_kernel, rg_args_t, a)
{
    const char *r = "device regions";
    gshmemx_region_attrs_t batch = GSHMEMX_REGION_ATTRS_INITIALIZER, none = batch, bad = batch;
    gshmemx_region_handle_t h = 0, h2 = 0, hn = 0;
    unsigned l = dt_lane(), b = gshmemx_block_id();
    int act = -1;

    batch.hints = BATCH;
    bad.hints = 1u << 7;
    DT_CHECK(a.fails, r, "is_active before the start: rc", l, 0,
             gshmemx_region_is_active(BATCH, &act));
    DT_CHECK(a.fails, r, "is_active before the start", l, 0, act);
    DT_CHECK(a.fails, r, "start_block (batch)", l, 0, gshmemx_region_start_block(&h, &batch));
    DT_CHECK_TRUE(a.fails, r, "handle is nonzero", l, h != 0);
    if (gshmemx_thread_id() == 0)
        a.handles[b] = h;
    gshmemx_region_is_active(BATCH, &act);
    DT_CHECK(a.fails, r, "is_active(BATCH_RMA) inside", l, 1, act);
    gshmemx_region_is_active(GSHMEMX_REGION_HINT_NONE, &act);
    DT_CHECK(a.fails, r, "is_active(NONE) inside", l, 1, act);
    DT_CHECK(a.fails, r, "is_active(unknown hints)", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_is_active(1u << 7, &act));
    DT_CHECK(a.fails, r, "is_active(NULL)", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_is_active(BATCH, NULL));
    DT_CHECK(a.fails, r, "a second start_block", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_start_block(&h2, &batch));

    gshmem_int_put_nbi(&a.dst[l], &a.src[l], 1, a.right);
    gshmem_int_get_nbi(&a.got[l], &a.src[l], 1, a.right);

    DT_CHECK(a.fails, r, "stop_block(another handle)", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_stop_block(h + 1000));
    DT_CHECK(a.fails, r, "stop_block", l, 0, gshmemx_region_stop_block(h));
    gshmemx_region_is_active(GSHMEMX_REGION_HINT_NONE, &act);
    DT_CHECK(a.fails, r, "is_active after the stop", l, 0, act);
    DT_CHECK(a.fails, r, "stop_block again", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_stop_block(h));

    DT_CHECK(a.fails, r, "start_block (unknown hints)", l, GSHMEMX_ERROR_INVALID_VALUE,
             gshmemx_region_start_block(&hn, &bad));
    DT_CHECK(a.fails, r, "start_block (no hints)", l, 0,
             gshmemx_region_start_block(&hn, &none));
    DT_CHECK_TRUE(a.fails, r, "a new handle", l, hn != 0 && hn != h);
    gshmemx_region_is_active(BATCH, &act);
    DT_CHECK(a.fails, r, "is_active(BATCH_RMA) in a region without it", l, 0, act);
    gshmemx_region_is_active(GSHMEMX_REGION_HINT_NONE, &act);
    DT_CHECK(a.fails, r, "is_active(NONE) in a region without hints", l, 1, act);
    DT_CHECK(a.fails, r, "stop_block (no hints)", l, 0, gshmemx_region_stop_block(hn));
    gshmem_quiet();
}

static void host_regions(void)
{
    const char *r = "host regions";
    gshmemx_region_attrs_t batch = GSHMEMX_REGION_ATTRS_INITIALIZER;
    gshmemx_region_handle_t h = 0, h2 = 0;
    int act = -1;

    batch.hints = BATCH;
    PT_CHECK_EQ(r, 0, gshmemx_region_is_active(BATCH, &act));
    PT_CHECK_EQ(r, 0, act);
    PT_CHECK_EQ(r, GSHMEMX_ERROR_INVALID_VALUE, gshmemx_region_start(NULL, &batch));
    PT_CHECK_EQ(r, 0, gshmemx_region_start(&h, &batch));
    PT_CHECK(r, h != 0, "a nonzero handle");
    gshmemx_region_is_active(BATCH, &act);
    PT_CHECK_EQ(r, 1, act);
    PT_CHECK_EQ(r, GSHMEMX_ERROR_INVALID_VALUE, gshmemx_region_start(&h2, NULL));
    PT_CHECK_EQ(r, GSHMEMX_ERROR_INVALID_VALUE, gshmemx_region_stop(h + 1));
    PT_CHECK_EQ(r, 0, gshmemx_region_stop(h));
    gshmemx_region_is_active(GSHMEMX_REGION_HINT_NONE, &act);
    PT_CHECK_EQ(r, 0, act);
    PT_CHECK_EQ(r, GSHMEMX_ERROR_INVALID_VALUE, gshmemx_region_stop(h));
    PT_CHECK_EQ(r, 0, gshmemx_region_start(&h2, NULL));
    PT_CHECK(r, h2 != 0 && h2 != h, "a new handle");
    gshmemx_region_is_active(GSHMEMX_REGION_HINT_NONE, &act);
    PT_CHECK_EQ(r, 1, act);
    PT_CHECK_EQ(r, 0, gshmemx_region_stop(h2));
}

int main(void)
{
    unsigned threads, lanes, i;
    uint64_t hs[DT_BLOCKS];
    int *src, *dst, *got;
    rg_args_t a;

    dt_start();
    threads = dt_threads();
    lanes = DT_BLOCKS * threads;
    a.fails = dt_fails;
    a.me = dt_me;
    a.right = (dt_me + 1) % dt_npes;
    a.handles = (uint64_t *)dt_malloc(DT_BLOCKS * sizeof(uint64_t));
    a.src = (int *)dt_malloc(lanes * sizeof(int));
    a.dst = (int *)dt_malloc(lanes * sizeof(int));
    a.got = (int *)dt_malloc(lanes * sizeof(int));
    dt_fill(a.dst, 0, lanes * sizeof(int));
    dt_fill(a.got, 0, lanes * sizeof(int));
    src = (int *)malloc(lanes * sizeof(int));
    for (i = 0; i < lanes; i++)
        src[i] = val(dt_me, i);
    dt_to_dev(a.src, src, lanes * sizeof(int));
    free(src);
    host_regions();
    shmem_barrier_all();
    DT_LAUNCH(rg_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();
    dt_from_dev(hs, a.handles, sizeof(hs));
    PT_CHECK("gshmemx_region_start_block", hs[0] != hs[1],
             "distinct handles in the two blocks");
    dst = (int *)dt_copy_back(a.dst, lanes * sizeof(int));
    got = (int *)dt_copy_back(a.got, lanes * sizeof(int));
    for (i = 0; i < lanes; i++) {
        PT_CHECK_EQ_F("gshmem_int_put_nbi in a region", val((dt_me + dt_npes - 1) % dt_npes, i),
                      dst[i], "lane %u", i);
        PT_CHECK_EQ_F("gshmem_int_get_nbi in a region", val(a.right, i), got[i], "lane %u", i);
    }
    free(got);
    free(dst);
    host_regions(); /* the host thread's region is its own, after the kernel's too */
    shmem_barrier_all();
    gshmem_free(a.got);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    gshmem_free(a.handles);
    return dt_finish();
}
