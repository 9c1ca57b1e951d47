/*
 * kv_bad.c - every bad input to gshmem_kv is one line and an error status,
 * never a crash, a hang or a request reported done: each case checks the
 * status and a phrase of gshmem_kv_error()'s line, and after the bad calls
 * a good transfer still moves its bytes.
 *
 *   handles   a NULL and a made-up engine handle, a destroyed engine
 *             (double destroy), request handles 0, made up, freed
 *   layouts   an unregistered layout id, a layout refused on one PE
 *             (every PE's register fails, none hangs), a private layout
 *             as the remote side, layouts whose hashes differ (the line
 *             names both), deregister with a request in progress
 *   ranges    a PE, a block (here and at the peer), a layer range, a
 *             region mask, a slice past the block, no blocks
 *   signals   an address that is not symmetric, one misaligned, a bad op
 *   requests  cancel of a finished request, free of one in progress, a
 *             negative timeout; a canceled request ends canceled; a full
 *             table of requests, a slot reused under a new handle
 *   config    a progress thread without SHMEM_THREAD_MULTIPLE, a config
 *             refused on one PE only, a directory size that differs by PE
 *             (every PE's create fails, none waits)
 * At 1, 2 and 4 PEs (the mismatch needs 2), and at 2 over UCX.
 * Exit status: 0 pass, 1 fail.
 */
#include "kv_test.h"

#include <gshmem.h>
#include <stdio.h>

static int me, npes;
/* Static data: symmetric memory, but not on the heap (its base differs
 * between processes where the program is position independent). */
static unsigned char static_pool[2 * 2 * 8 * 64];

static gshmem_kv_xfer_t xfer_of(int layout, int pe, const int64_t *ids, size_t n)
{
    gshmem_kv_xfer_t x;

    memset(&x, 0, sizeof x);
    x.layout = layout, x.pe = pe, x.n_layers = 2, x.n = n, x.local_blocks = ids;
    return x;
}

static void bad_handles(void)
{
    gshmem_kv_t *kv = NULL;
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;
    long junk[16] = {0};
    int64_t id0 = 0;

    x = xfer_of(0, 0, &id0, 1);
    EXPECT_ERR(gshmem_kv_read(NULL, &x, &req), GSHMEM_KV_ERR_HANDLE, "not a live engine");
    EXPECT_ERR(gshmem_kv_write((gshmem_kv_t *)junk, &x, &req), GSHMEM_KV_ERR_HANDLE,
               "not a live engine");
    EXPECT_ERR(gshmem_kv_test((gshmem_kv_t *)0x1234, 1), GSHMEM_KV_ERR_HANDLE,
               "not a live engine");
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_destroy(kv));
    EXPECT_ERR(gshmem_kv_destroy(kv), GSHMEM_KV_ERR_HANDLE, "not a live engine");
    EXPECT_ERR(gshmem_kv_poll(kv, NULL, 0, NULL), GSHMEM_KV_ERR_HANDLE, "not a live engine");
    EXPECT_ERR(gshmem_kv_create(NULL, NULL), GSHMEM_KV_ERR_INVALID, "out is NULL");
}

static void bad_config(void)
{
    gshmem_kv_config_t cfg = {0};
    gshmem_kv_t *kv = NULL;

    cfg.progress_thread = 1; /* this program asked for SHMEM_THREAD_SINGLE */
    EXPECT_ERR(gshmem_kv_create(&cfg, &kv), GSHMEM_KV_ERR_INVALID,
               "needs SHMEM_THREAD_MULTIPLE");
    cfg.progress_thread = 0, cfg.max_layouts = 100;
    EXPECT_ERR(gshmem_kv_create(&cfg, &kv), GSHMEM_KV_ERR_INVALID, "max_layouts 100");
    PT_CHECK_PTR("gshmem_kv_create", NULL, kv);
    /* Refused on the last PE only: every PE's create fails, none waits. */
    cfg.max_layouts = me == npes - 1 ? 100 : 0;
    if (me == npes - 1)
        EXPECT_ERR(gshmem_kv_create(&cfg, &kv), GSHMEM_KV_ERR_INVALID, "max_layouts 100");
    else
        EXPECT_ERR(gshmem_kv_create(&cfg, &kv), GSHMEM_KV_ERR_INVALID, "refused its config");
    /* A directory of another size on PE 0. */
    cfg.max_layouts = 0, cfg.max_regions = me == 0 && npes > 1 ? 512 : 0;
    if (npes > 1)
        EXPECT_ERR(gshmem_kv_create(&cfg, &kv), GSHMEM_KV_ERR_INVALID,
                   "must be the same on every PE");
    PT_CHECK_PTR("gshmem_kv_create", NULL, kv);
}

/* Layout 0 symmetric everywhere; the pool is 2 layers x 2 regions x 8
 * blocks of 64 bytes. */
static void bad_transfers(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    int peer = (me + 1) % npes;
    int64_t ids[2] = {1, 2}, big[2] = {1, 8}, neg[1] = {-1};
    uint64_t local_word = 0, *sig = (uint64_t *)shmem_calloc(2, sizeof(uint64_t));
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;

    x = xfer_of(id + 5, peer, ids, 2);
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_NOT_FOUND, "is not registered");
    x = xfer_of(-1, peer, ids, 2);
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_NOT_FOUND, "layout id -1");
    x = xfer_of(id, npes, ids, 2);
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "out of range");
    x = xfer_of(id, peer, big, 2);
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "local_blocks[1] is 8");
    x = xfer_of(id, peer, neg, 1);
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "local_blocks[0] is -1");
    x = xfer_of(id, peer, ids, 2), x.remote_blocks = big;
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "remote_blocks[1] is 8");
    x = xfer_of(id, peer, ids, 2), x.layer_first = 1;
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "layers 1 to 2");
    x = xfer_of(id, peer, ids, 2), x.n_layers = 0;
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_INVALID, "n_layers 0");
    x = xfer_of(id, peer, ids, 2), x.region_mask = 4;
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "region_mask 0x4");
    x = xfer_of(id, peer, ids, 2), x.offset = 32, x.length = 33;
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "past the block of 64 bytes");
    x = xfer_of(id, peer, ids, 2), x.offset = 64;
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_RANGE, "past the block");
    x = xfer_of(id, peer, ids, 0);
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_INVALID, "no blocks");
    x = xfer_of(id, peer, NULL, 2);
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_INVALID, "local_blocks is NULL");
    x = xfer_of(id, peer, ids, 2), x.signal.addr = &local_word;
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_NOT_FOUND, "not symmetric");
    x.signal.addr = (uint64_t *)((char *)sig + 4);
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_INVALID, "not 8-byte aligned");
    x.signal.addr = sig, x.signal.op = 7;
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_INVALID, "signal op 7");
    EXPECT_ERR(gshmem_kv_read(kv, NULL, &req), GSHMEM_KV_ERR_INVALID, "xfer is NULL");
    PT_CHECK_EQ_F("bad transfers", (gshmem_kv_req_t)0, req, "the request handle left alone");
    /* Nothing moved: every PE's pool still holds its own pattern. */
    shmem_barrier_all();
    {
        unsigned char *exp = malloc(p->size);

        for (size_t o = 0; o < p->size; o++)
            exp[o] = kt_pat(me, 7, o);
        kt_check_pool("bad transfers", p, exp);
        free(exp);
    }
    shmem_barrier_all();
    shmem_free(sig);
}

static void bad_requests(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    int peer = (me + 1) % npes;
    int64_t ids[2] = {1, 2}, other[2] = {4, 5};
    gshmem_kv_xfer_t x = xfer_of(id, peer, ids, 2);
    gshmem_kv_req_t req = 0, req2 = 0;
    gshmem_kv_req_stats_t st;
    unsigned char *exp = malloc(p->size);

    x.remote_blocks = other;
    EXPECT_ERR(gshmem_kv_test(kv, 0), GSHMEM_KV_ERR_HANDLE, "is not a request of this engine");
    EXPECT_ERR(gshmem_kv_wait(kv, 0x500000003ull, 0), GSHMEM_KV_ERR_HANDLE,
               "not a live request");
    EXPECT_ERR(gshmem_kv_cancel(kv, ~0ull), GSHMEM_KV_ERR_HANDLE, "not a request");
    /* PE 0's request is in progress until PE 0 tests it (no progress
     * thread): it cannot be freed, and deregistering its layout is refused
     * on every PE. */
    if (me == 0) {
        KT_OK(gshmem_kv_write(kv, &x, &req));
        EXPECT_ERR(gshmem_kv_req_free(kv, req), GSHMEM_KV_ERR_STATE, "in progress");
        EXPECT_ERR(gshmem_kv_layout_deregister(kv, id), GSHMEM_KV_ERR_BUSY, "in progress");
    } else {
        EXPECT_ERR(gshmem_kv_layout_deregister(kv, id), GSHMEM_KV_ERR_INVALID, "PE 0 refused");
    }
    if (me == 0) {
        EXPECT_ERR(gshmem_kv_wait(kv, req, -5), GSHMEM_KV_ERR_INVALID, "timeout_ns -5");
        KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
        EXPECT_ERR(gshmem_kv_cancel(kv, req), GSHMEM_KV_ERR_STATE, "ended already");
        KT_OK(gshmem_kv_req_stats(kv, req, &st));
        PT_CHECK_EQ_F("gshmem_kv_req_stats", (uint64_t)2 * 64 * 2 * 2, st.bytes, "bytes");
        KT_OK(gshmem_kv_req_free(kv, req));
        EXPECT_ERR(gshmem_kv_req_stats(kv, req, &st), GSHMEM_KV_ERR_HANDLE,
                   "not a live request");
        EXPECT_ERR(gshmem_kv_req_free(kv, req), GSHMEM_KV_ERR_HANDLE, "not a live request");
    }
    /* Canceled before its end: it ends canceled, its bytes still land
     * (same source, same target: the check below covers both). */
    KT_OK(gshmem_kv_write(kv, &x, &req2));
    KT_OK(gshmem_kv_cancel(kv, req2));
    PT_CHECK_EQ_F("gshmem_kv_wait", GSHMEM_KV_ERR_CANCELED,
                  gshmem_kv_wait(kv, req2, GSHMEM_KV_WAIT_DEFAULT), "status after a cancel");
    EXPECT_ERR(gshmem_kv_cancel(kv, req2), GSHMEM_KV_ERR_STATE, "ended already");
    KT_OK(gshmem_kv_req_free(kv, req2));
    shmem_barrier_all();
    for (size_t o = 0; o < p->size; o++)
        exp[o] = kt_pat(me, 7, o);
    {
        int prev = (me + npes - 1) % npes;

        kt_apply(p, exp, p, prev, 7, &x, other, ids);
    }
    kt_check_pool("the write after the bad requests", p, exp);
    /* A read canceled before its end sends no signal: no PE's word moves
     * (its bytes may land: after the check above). */
    {
        uint64_t *word = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
        gshmem_kv_xfer_t rx = xfer_of(id, peer, other, 2);

        rx.signal.addr = word, rx.signal.value = 1, rx.signal.op = GSHMEM_KV_SIGNAL_ADD;
        KT_OK(gshmem_kv_read(kv, &rx, &req2));
        KT_OK(gshmem_kv_cancel(kv, req2));
        PT_CHECK_EQ_F("gshmem_kv_wait", GSHMEM_KV_ERR_CANCELED,
                      gshmem_kv_wait(kv, req2, GSHMEM_KV_WAIT_DEFAULT), "a canceled read");
        KT_OK(gshmem_kv_req_free(kv, req2));
        shmem_barrier_all();
        PT_CHECK_EQ_F("gshmem_kv_cancel", (uint64_t)0, *word, "signals from canceled reads");
        shmem_barrier_all();
        shmem_free(word);
    }
    shmem_barrier_all();
    free(exp);
}

/* An engine of 4 requests: a fifth is refused until one is freed; the
 * freed slot's next request has a new handle, and the old one is dead. */
static void full_table(kt_pool_t *p)
{
    gshmem_kv_config_t cfg = {0};
    gshmem_kv_t *kv = NULL;
    gshmem_kv_req_t req[5] = {0};
    int64_t ids[1] = {1}, other[1] = {6};
    int id = -1;
    gshmem_kv_xfer_t x = xfer_of(0, (me + 1) % npes, ids, 1);

    cfg.max_requests = 4;
    KT_OK(gshmem_kv_create(&cfg, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &p->layout, &id));
    x.layout = id, x.remote_blocks = other;
    for (int i = 0; i < 4; i++)
        KT_OK(gshmem_kv_write(kv, &x, &req[i]));
    EXPECT_ERR(gshmem_kv_write(kv, &x, &req[4]), GSHMEM_KV_ERR_BUSY, "all 4 requests");
    KT_OK(gshmem_kv_wait(kv, req[2], GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, req[2]));
    KT_OK(gshmem_kv_write(kv, &x, &req[4]));
    PT_CHECK("gshmem_kv_write", req[4] != req[2], "a new handle for a reused slot");
    EXPECT_ERR(gshmem_kv_test(kv, req[2]), GSHMEM_KV_ERR_HANDLE, "not a live request");
    /* Destroy completes and frees what is left. */
    KT_OK(gshmem_kv_destroy(kv));
}

/* Register refused on one PE: every PE's call fails, none hangs. */
static void bad_layouts(gshmem_kv_t *kv, kt_pool_t *p)
{
    gshmem_kv_layout_t l = p->layout;
    kt_pool_t q;
    int id = -1, peer = (me + 1) % npes;
    int64_t ids[1] = {0};
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;
    char want[160];

    if (me == npes - 1)
        l.n_layers = 0;
    if (me == npes - 1)
        EXPECT_ERR(gshmem_kv_layout_register(kv, &l, &id), GSHMEM_KV_ERR_INVALID, "n_layers 0");
    else
        EXPECT_ERR(gshmem_kv_layout_register(kv, &l, &id), GSHMEM_KV_ERR_INVALID,
                   "refused its layout");
    PT_CHECK_EQ_F("gshmem_kv_layout_register", -1, id, "id after a refusal");
    EXPECT_ERR(gshmem_kv_layout_register(kv, NULL, &id), GSHMEM_KV_ERR_INVALID,
               "layout is NULL");
    l = p->layout, l.block_stride = 8;
    EXPECT_ERR(gshmem_kv_layout_register(kv, &l, &id), GSHMEM_KV_ERR_INVALID,
               "block_stride 8 is less than block_bytes 64");
    EXPECT_ERR(gshmem_kv_layout_deregister(kv, 6), GSHMEM_KV_ERR_NOT_FOUND,
               "is not registered");
    {
        void *holes[4] = {p->base[0], NULL, p->base[2], p->base[3]};

        l = p->layout, l.region_base = holes;
        EXPECT_ERR(gshmem_kv_layout_register(kv, &l, &id), GSHMEM_KV_ERR_INVALID,
                   "region_base[1] (layer 0, region 1) is NULL");
    }
    /* Private memory the program registered itself: the library's own
     * registration of it is refused, and so is the layout (on every PE). */
    kt_pool_init(&q, 2, 2, 8, 64, 0, 0);
    PT_CHECK_EQ_F("gshmemx_buffer_register", 0, gshmemx_buffer_register(q.mem, q.size),
                  "status");
    EXPECT_ERR(gshmem_kv_layout_register(kv, &q.layout, &id), GSHMEM_KV_ERR_INVALID,
               "cannot register");
    PT_CHECK_EQ_F("gshmemx_buffer_unregister", 0, gshmemx_buffer_unregister(q.mem), "status");
    kt_pool_fini(&q);

    /* Private memory on every PE: it cannot be the remote side. */
    kt_pool_init(&q, 2, 2, 8, 64, 0, 0);
    KT_OK(gshmem_kv_layout_register(kv, &q.layout, &id));
    x = xfer_of(id, peer, ids, 1);
    EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_NOT_FOUND,
               "not on the symmetric heap");
    KT_OK(gshmem_kv_layout_deregister(kv, id));
    kt_pool_fini(&q);

    /* A layout in static data: its offset from the heap names other bytes
     * on a peer whose static data lies elsewhere.  Register must not
     * change it (the probes are put back); a read from the next PE is
     * refused with the line, or, where every PE's static data is at the
     * same distance from its heap, moves the right bytes. */
    {
        void *sb[4];
        gshmem_kv_layout_t sl = p->layout;
        int64_t from[1] = {3};
        int rc;

        for (int i = 0; i < 4; i++)
            sb[i] = static_pool + i * 8 * 64;
        for (size_t o = 0; o < sizeof static_pool; o++)
            static_pool[o] = kt_pat(me, 9, o);
        sl.region_base = sb;
        KT_OK(gshmem_kv_layout_register(kv, &sl, &id));
        for (size_t o = 0; o < sizeof static_pool; o++)
            if (static_pool[o] != kt_pat(me, 9, o)) {
                PT_CHECK_EQ_F("gshmem_kv_layout_register", kt_pat(me, 9, o), static_pool[o],
                              "static_pool[%zu] after register (a probe left behind?)", o);
                break;
            }
        shmem_barrier_all();
        x = xfer_of(id, peer, ids, 1), x.remote_blocks = from;
        rc = gshmem_kv_read(kv, &x, &req);
        if (rc == 0) {
            KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
            KT_OK(gshmem_kv_req_free(kv, req));
            for (int r = 0; r < 4; r++)
                for (size_t k = 0; k < 64; k++)
                    PT_CHECK_EQ_F("gshmem_kv_read (static data)",
                                  kt_pat(peer, 9, (size_t)r * 512 + 3 * 64 + k),
                                  static_pool[(size_t)r * 512 + k], "region %d byte %zu", r, k);
        } else {
            PT_CHECK_EQ_F("gshmem_kv_read (static data)", GSHMEM_KV_ERR_NOT_FOUND, rc,
                          "status");
            PT_CHECK("gshmem_kv_read (static data)",
                     strstr(gshmem_kv_error(), "not on the heap") != NULL ||
                         strstr(gshmem_kv_error(), "not on the symmetric heap") != NULL,
                     "not on the heap (or, without symmetric static data, the symmetric heap)");
        }
        shmem_barrier_all();
        KT_OK(gshmem_kv_layout_deregister(kv, id));
        req = 0;
    }

    /* Block bytes that differ by PE: the hashes differ and the line names
     * both. */
    if ((me ^ 1) >= npes) /* the partner of another parity (none at 1 PE) */
        peer = me;
    else
        peer = me ^ 1;
    kt_pool_init(&q, 2, 2, 8, 64, 0, 1); /* 8 x 64 bytes: room for 32-byte blocks too */
    q.layout.block_bytes = me % 2 ? 32 : 64;
    KT_OK(gshmem_kv_layout_register(kv, &q.layout, &id));
    x = xfer_of(id, peer, ids, 1);
    {
        gshmem_kv_layout_t mine = q.layout, theirs = q.layout;

        theirs.block_bytes = me % 2 ? 64 : 32;
        snprintf(want, sizeof want, "has hash 0x%016llx, this PE's has 0x%016llx",
                 (unsigned long long)gshmem_kv_layout_hash(&theirs),
                 (unsigned long long)gshmem_kv_layout_hash(&mine));
    }
    if (peer != me)
        EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_MISMATCH, want);
    KT_OK(gshmem_kv_layout_deregister(kv, id));
    kt_pool_fini(&q);
}

int main(void)
{
    gshmem_kv_t *kv = NULL;
    kt_pool_t p;
    int id = -1;

    PT_START();
    me = shmem_my_pe(), npes = shmem_n_pes();
    bad_handles();
    bad_config();
    KT_OK(gshmem_kv_create(NULL, &kv));
    kt_pool_init(&p, 2, 2, 8, 64, 0, 1);
    kt_fill(&p, me, 7);
    KT_OK(gshmem_kv_layout_register(kv, &p.layout, &id));
    shmem_barrier_all();
    bad_transfers(kv, &p, id);
    bad_requests(kv, &p, id);
    bad_layouts(kv, &p);
    KT_OK(gshmem_kv_destroy(kv));
    full_table(&p);
    EXPECT_ERR(gshmem_kv_destroy(kv), GSHMEM_KV_ERR_HANDLE, "not a live engine");
    kt_pool_fini(&p);
    return pt_finish();
}
