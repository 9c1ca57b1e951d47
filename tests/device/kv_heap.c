/*
 * tests/device/kv_heap.c - libgshmem_kv with its layouts on the device heap
 * (gshmem_malloc): the path between PEs for GPU memory.  Each PE registers
 * a pool of 2 layers x K,V x 16 blocks there, then
 *   write  blocks 1-3 and 7-8 to the right neighbour's 4-6, 10 and 0, with
 *          a signal (an add on a host-heap word) behind the data: 3 runs
 *          per region, 12 operations;
 *   read   a slice (bytes 16 to 115) of blocks 12 and 13 of layer 1's V
 *          region of the left neighbour into its blocks 9 and 11;
 * and checks every byte of its pool (copied back from the device) and the
 * signal.  On a GPU (the kit builds it with nvcc as dev_kv_heap) the
 * layout is device memory: register names it from the engine's anchor on
 * the device heap, writes its probes through host RMA, and transfers go
 * through the runtime's copies; a signal word on the device heap is
 * refused there (a host atomic on GPU memory).  On host lanes the device
 * heap is the host heap, so the same calls take the host path.
 */
#include "dev_test.h"

#include <gshmem_kv.h>

#define NL 2
#define RPL 2
#define NB 16
#define BB 512
#define REGION (NB * BB + 64) /* a gap after each region: no run crosses one */
#define POOL (NL * RPL * REGION)

static size_t off_of(int l, int r, int b, size_t k)
{
    return (size_t)(l * RPL + r) * REGION + (size_t)b * BB + k;
}

static void wait_ok(gshmem_kv_t *kv, gshmem_kv_req_t req, const char *what, uint64_t ops)
{
    gshmem_kv_req_stats_t st;

    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ("gshmem_kv_req_stats", 0, gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK_EQ_F(what, ops, (uint64_t)st.ops, "operations posted");
    PT_CHECK_EQ("gshmem_kv_req_free", 0, gshmem_kv_req_free(kv, req));
}

int main(void)
{
    static const int64_t w_src[] = {1, 2, 3, 7, 8}, w_dst[] = {4, 5, 6, 10, 0};
    static const int64_t r_dst[] = {9, 11}, r_src[] = {12, 13};
    unsigned char *pool, *got, *exp;
    void *base[NL * RPL];
    uint64_t *sig;
    gshmem_kv_t *kv = NULL;
    gshmem_kv_layout_t lay;
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req;
    int id = -1, right, left, rc;

    dt_start();
    right = (dt_me + 1) % dt_npes;
    left = (dt_me + dt_npes - 1) % dt_npes;
    pool = (unsigned char *)dt_malloc(POOL);
    sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    exp = (unsigned char *)malloc(POOL);
    if (sig == NULL || exp == NULL) {
        fprintf(stderr, "FAIL PE %d: out of memory\n", dt_me);
        shmem_global_exit(1);
    }
    dt_fill_pat(pool, POOL, dt_me, 0);
    for (int i = 0; i < NL * RPL; i++)
        base[i] = pool + (size_t)i * REGION;
    memset(&lay, 0, sizeof lay); /* memset, not = {0}: the kit builds this as C++ too */
    lay.n_layers = NL, lay.regions_per_layer = RPL, lay.n_blocks = NB;
    lay.block_bytes = BB, lay.region_base = base;
    PT_CHECK_EQ("gshmem_kv_create", 0, gshmem_kv_create(NULL, &kv));
    PT_CHECK_EQ("gshmem_kv_layout_register", 0, gshmem_kv_layout_register(kv, &lay, &id));
    shmem_barrier_all();

    /* The write, signalled; this PE's pool then holds the left one's. */
    memset(&x, 0, sizeof x);
    x.layout = id, x.pe = right, x.n_layers = NL, x.n = 5;
    x.local_blocks = w_src, x.remote_blocks = w_dst;
    x.signal.addr = sig, x.signal.value = 1, x.signal.op = GSHMEM_KV_SIGNAL_ADD;
    PT_CHECK_EQ("gshmem_kv_write", 0, gshmem_kv_write(kv, &x, &req));
    wait_ok(kv, req, "gshmem_kv_write (device heap)", 3 * RPL * NL);
    shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();

    /* The read of a slice. */
    memset(&x, 0, sizeof x);
    x.layout = id, x.pe = left, x.layer_first = 1, x.n_layers = 1, x.region_mask = 0x2;
    x.offset = 16, x.length = 100, x.n = 2, x.local_blocks = r_dst, x.remote_blocks = r_src;
    PT_CHECK_EQ("gshmem_kv_read", 0, gshmem_kv_read(kv, &x, &req));
    wait_ok(kv, req, "gshmem_kv_read (device heap)", 2);

    /* What the pool should hold: this PE's pattern, the left neighbour's
     * written blocks, then its read slices. */
    for (size_t o = 0; o < POOL; o++)
        exp[o] = dt_pat(dt_me, o);
    for (int l = 0; l < NL; l++)
        for (int r = 0; r < RPL; r++)
            for (int i = 0; i < 5; i++)
                for (size_t k = 0; k < BB; k++)
                    exp[off_of(l, r, (int)w_dst[i], k)] =
                        dt_pat(left, off_of(l, r, (int)w_src[i], k));
    for (int i = 0; i < 2; i++) /* blocks 12 and 13: no write reached them */
        for (size_t k = 16; k < 116; k++)
            exp[off_of(1, 1, (int)r_dst[i], k)] = dt_pat(left, off_of(1, 1, (int)r_src[i], k));
    got = (unsigned char *)dt_copy_back(pool, POOL);
    {
        size_t bad = 0, first = 0;

        for (size_t o = 0; o < POOL; o++)
            if (got[o] != exp[o] && bad++ == 0)
                first = o;
        PT_CHECK_EQ_F("the pool after the write and the read", (size_t)0, bad,
                      "wrong bytes (first at offset %zu: %u, not %u)", first,
                      bad ? got[first] : 0, bad ? exp[first] : 0);
    }
    PT_CHECK_EQ_F("the write's signal", (uint64_t)1, *sig, "signal word");

#if defined(__CUDACC__)
    /* A signal word on the device heap: refused (a host atomic there). */
    memset(&x, 0, sizeof x);
    x.layout = id, x.pe = right, x.n_layers = 1, x.n = 1, x.local_blocks = w_src;
    x.signal.addr = (uint64_t *)dt_fails, x.signal.value = 1;
    rc = gshmem_kv_write(kv, &x, &req);
    PT_CHECK_EQ("gshmem_kv_write with a signal on the device heap", GSHMEM_KV_ERR_INVALID, rc);
    PT_CHECK("gshmem_kv_write", strstr(gshmem_kv_error(), "is on the device heap") != NULL,
             "a line that names the device heap");
#else
    rc = 0;
    (void)rc;
#endif
    shmem_barrier_all();
    PT_CHECK_EQ("gshmem_kv_layout_deregister", 0, gshmem_kv_layout_deregister(kv, id));
    PT_CHECK_EQ("gshmem_kv_destroy", 0, gshmem_kv_destroy(kv));
    free(got), free(exp);
    shmem_free(sig);
    gshmem_free(pool);
    return dt_finish();
}
