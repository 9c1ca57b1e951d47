/*
 * kv_xfer.c - gshmem_kv moves exactly the bytes it is asked to, and every
 * other byte stays: each scenario fills every PE's pools with a pattern of
 * its own, transfers, then checks every byte of the destination pool
 * against the pattern the transfer should have left.
 *
 *   write   push to the next PE, all layers and regions, block lists with
 *           runs (coalesced: the operations posted are counted), an ADD
 *           signal the target waits for before it checks (the signal
 *           follows the data)
 *   read    pull from the next PE, a SET signal at the source ("read"),
 *           which the source waits for
 *   slice   pull a byte slice of each block of two layers, V only, from a
 *           layout whose blocks have gaps between them (no coalescing)
 *   private pull into and push from a malloc'd layout (registered with the
 *           runtime), the peer's on the heap: pairs of PEs (2 PEs or more)
 *   queue   eight writes in flight, harvested by gshmem_kv_poll: each
 *           handle once, status 0; their statistics
 *   many    a Llama-shaped request scaled down: 32 layers x K,V x 126 of
 *           256 blocks (runs of adjacent blocks and scattered ones, in a
 *           shuffled order) in one read: 8064 blocks, every byte checked,
 *           the operations posted counted
 *   cancel  12 writes canceled right after their post: a cancel that
 *           returns 0 ends its request canceled, one refused (the engine's
 *           thread ended it first) leaves it done; the bytes land either way
 *   threads three threads read one block at a time from the next PE on
 *           one engine, each with an ADD signal, and wait for them; the
 *           next PE counts the signals
 * Each scenario runs on an engine without and one with a progress thread
 * (shmem_init_thread(SHMEM_THREAD_MULTIPLE)).  At 1, 2 and 4 PEs, by
 * load/store and over UCX (-net twins).  Exit status: 0 pass, 1 fail.
 */
#include "kv_test.h"

#include <pthread.h>

#define NL 3
#define RPL 2
#define NB 24
#define BYTES 96

static int me, npes, next, prev;
static uint64_t *sig; /* symmetric [4] */

/* Runs: (2,3,4)->(5,6,7), 9->0, (11,12)->(14,15), 20->23, 21->22. */
static const int64_t ids_a[] = {2, 3, 4, 9, 11, 12, 20, 21};
static const int64_t ids_b[] = {5, 6, 7, 0, 14, 15, 23, 22};
#define NIDS (sizeof ids_a / sizeof ids_a[0])

static gshmem_kv_xfer_t xfer_of(int layout, int pe, const int64_t *local, const int64_t *remote,
                                size_t n)
{
    gshmem_kv_xfer_t x;

    memset(&x, 0, sizeof x);
    x.layout = layout, x.pe = pe;
    x.layer_first = 0, x.n_layers = NL;
    x.n = n, x.local_blocks = local, x.remote_blocks = remote;
    return x;
}

static void check_stats(const char *what, gshmem_kv_t *kv, gshmem_kv_req_t req, uint64_t ops,
                        uint64_t bytes, uint64_t blocks)
{
    gshmem_kv_req_stats_t s;

    KT_OK(gshmem_kv_req_stats(kv, req, &s));
    PT_CHECK_EQ_F(what, ops, s.ops, "operations posted");
    PT_CHECK_EQ_F(what, bytes, s.bytes, "bytes");
    PT_CHECK_EQ_F(what, blocks, s.blocks, "blocks");
}

static void scenario_write(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    gshmem_kv_xfer_t x = xfer_of(id, next, ids_a, ids_b, NIDS);
    gshmem_kv_req_t req = 0;

    kt_fill(p, me, 1);
    memcpy(exp, p->mem, p->size);
    sig[0] = 0;
    shmem_barrier_all();
    x.signal.addr = &sig[0], x.signal.value = 5, x.signal.op = GSHMEM_KV_SIGNAL_ADD;
    KT_OK(gshmem_kv_write(kv, &x, &req));
    /* The data is here once the signal is: check before any wait here. */
    shmem_uint64_wait_until(&sig[0], SHMEM_CMP_EQ, 5);
    kt_apply(p, exp, p, prev, 1, &x, ids_b, ids_a);
    kt_check_pool("gshmem_kv_write (+signal)", p, exp);
    KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    check_stats("gshmem_kv_write", kv, req, kt_runs(&x, RPL, 1),
                (uint64_t)NIDS * NL * RPL * BYTES, (uint64_t)NIDS * NL * RPL);
    KT_OK(gshmem_kv_req_free(kv, req));
    shmem_barrier_all();
    free(exp);
}

static void scenario_read(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    gshmem_kv_xfer_t x = xfer_of(id, next, ids_a, ids_b, NIDS);
    gshmem_kv_req_t req = 0;
    int rc;

    kt_fill(p, me, 2);
    memcpy(exp, p->mem, p->size);
    sig[1] = 0;
    shmem_barrier_all();
    x.signal.addr = &sig[1], x.signal.value = 1000 + (uint64_t)me;
    x.signal.op = GSHMEM_KV_SIGNAL_SET;
    KT_OK(gshmem_kv_read(kv, &x, &req));
    while ((rc = gshmem_kv_test(kv, req)) == GSHMEM_KV_INPROGRESS)
        ;
    PT_CHECK_EQ_F("gshmem_kv_test", 0, rc, "status of the read");
    kt_apply(p, exp, p, next, 2, &x, ids_a, ids_b);
    kt_check_pool("gshmem_kv_read", p, exp);
    /* The PE before reads this one's blocks and says so. */
    shmem_uint64_wait_until(&sig[1], SHMEM_CMP_EQ, 1000 + (uint64_t)prev);
    check_stats("gshmem_kv_read", kv, req, kt_runs(&x, RPL, 1),
                (uint64_t)NIDS * NL * RPL * BYTES, (uint64_t)NIDS * NL * RPL);
    KT_OK(gshmem_kv_req_free(kv, req));
    shmem_barrier_all();
    free(exp);
}

/* Layout id gap: blocks BYTES + 32 apart; the slice is bytes [24, 64) of
 * layers 1 and 2, region 1 (V) only. */
static void scenario_slice(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    gshmem_kv_xfer_t x = xfer_of(id, next, ids_a, ids_b, NIDS);
    gshmem_kv_req_t req = 0;

    kt_fill(p, me, 3);
    memcpy(exp, p->mem, p->size);
    shmem_barrier_all();
    x.layer_first = 1, x.n_layers = 2, x.region_mask = 2u;
    x.offset = 24, x.length = 40;
    KT_OK(gshmem_kv_read(kv, &x, &req));
    KT_OK(gshmem_kv_wait(kv, req, 2000000000));
    kt_apply(p, exp, p, next, 3, &x, ids_a, ids_b);
    kt_check_pool("gshmem_kv_read (slice)", p, exp);
    check_stats("gshmem_kv_read (slice)", kv, req, (uint64_t)NIDS * 2, (uint64_t)NIDS * 2 * 40,
                (uint64_t)NIDS * 2);
    KT_OK(gshmem_kv_req_free(kv, req));
    shmem_barrier_all();
    free(exp);
}

/* Layout id: even PEs' pools are private, odd PEs' on the heap.  An even
 * PE reads the odd one's blocks into its own, then writes others back. */
static void scenario_private(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    int peer = me ^ 1;
    gshmem_kv_xfer_t x = xfer_of(id, peer, ids_a, ids_b, NIDS);
    gshmem_kv_req_t req = 0;

    kt_fill(p, me, 4);
    memcpy(exp, p->mem, p->size);
    shmem_barrier_all();
    if (me % 2 == 0) {
        KT_OK(gshmem_kv_read(kv, &x, &req));
        KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
        KT_OK(gshmem_kv_req_free(kv, req));
        kt_apply(p, exp, p, peer, 4, &x, ids_a, ids_b);
        kt_check_pool("gshmem_kv_read (into private memory)", p, exp);
        /* Back: this PE's blocks ids_b into the peer's ids_a. */
        x.local_blocks = ids_b, x.remote_blocks = ids_a;
        x.signal.addr = &sig[2], x.signal.value = 1, x.signal.op = GSHMEM_KV_SIGNAL_ADD;
        KT_OK(gshmem_kv_write(kv, &x, &req));
        KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
        KT_OK(gshmem_kv_req_free(kv, req));
    } else {
        shmem_uint64_wait_until(&sig[2], SHMEM_CMP_EQ, 1);
        sig[2] = 0;
        /* The even PE's blocks ids_b (its own pattern) into this PE's ids_a. */
        kt_apply(p, exp, p, peer, 4, &x, ids_a, ids_b);
        kt_check_pool("gshmem_kv_write (from private memory)", p, exp);
    }
    shmem_barrier_all();
    free(exp);
}

/* Eight writes of one block each in flight, then the queue. */
static void scenario_queue(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    static int64_t one[8], other[8];
    gshmem_kv_req_t req[8];
    gshmem_kv_completion_t done[3];
    int seen[8] = {0};
    size_t got = 0, n;

    kt_fill(p, me, 5);
    memcpy(exp, p->mem, p->size);
    shmem_barrier_all();
    for (int i = 0; i < 8; i++) {
        gshmem_kv_xfer_t x;

        one[i] = 3 * i, other[i] = 3 * i + 1;
        x = xfer_of(id, next, &one[i], &other[i], 1);
        KT_OK(gshmem_kv_write(kv, &x, &req[i]));
    }
    for (int spins = 0; got < 8 && spins < 1000000; spins++) {
        KT_OK(gshmem_kv_poll(kv, done, 3, &n));
        for (size_t k = 0; k < n; k++, got++) {
            int i = 0;

            while (i < 8 && req[i] != done[k].req)
                i++;
            PT_CHECK_EQ_F("gshmem_kv_poll", 1, i < 8, "a handle that was posted (0x%llx)",
                          (unsigned long long)done[k].req);
            PT_CHECK_EQ_F("gshmem_kv_poll", 0, done[k].status, "status of request %d", i);
            if (i < 8)
                seen[i]++;
        }
    }
    for (int i = 0; i < 8; i++) {
        PT_CHECK_EQ_F("gshmem_kv_poll", 1, seen[i], "times request %d came out", i);
        check_stats("gshmem_kv_write (queued)", kv, req[i], NL * RPL, NL * RPL * BYTES,
                    NL * RPL);
        KT_OK(gshmem_kv_req_free(kv, req[i]));
    }
    KT_OK(gshmem_kv_poll(kv, done, 3, &n));
    PT_CHECK_EQ_F("gshmem_kv_poll", (size_t)0, n, "entries left once all are harvested");
    shmem_barrier_all();
    {
        gshmem_kv_xfer_t x = xfer_of(id, next, one, other, 8);

        kt_apply(p, exp, p, prev, 5, &x, other, one);
    }
    kt_check_pool("gshmem_kv_write (8 in flight)", p, exp);
    shmem_barrier_all();
    free(exp);
}

/* 126 of 256 blocks.  Local 0..39 (adjacent) from remote 212.. in four
 * runs of ten (a gap of one between runs); local odd 41..211 from remote
 * even 40..210, shuffled.  No id is both read and written (one PE reads
 * itself at 1 PE). */
#define MANY_L 32
#define MANY_NB 256
#define MANY_N 126
#define MANY_BYTES 256

static void scenario_many(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    int64_t local[MANY_N], remote[MANY_N];
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;
    uint32_t seed = 12345;

    for (int i = 0; i < 40; i++)
        local[i] = i, remote[i] = 212 + 11 * (i / 10) + i % 10;
    for (int i = 40; i < MANY_N; i++)
        local[i] = 41 + 2 * (i - 40), remote[i] = 40 + 2 * (i - 40);
    for (int i = MANY_N - 1; i > 40; i--) { /* shuffle the scattered remote ids */
        int j;
        int64_t t;

        seed = seed * 1103515245u + 12345u;
        j = 40 + (int)((seed >> 16) % (uint32_t)(i - 40 + 1));
        t = remote[i], remote[i] = remote[j], remote[j] = t;
    }
    memset(&x, 0, sizeof x);
    x.layout = id, x.pe = next, x.n_layers = MANY_L, x.n = MANY_N;
    x.local_blocks = local, x.remote_blocks = remote;
    kt_fill(p, me, 8);
    memcpy(exp, p->mem, p->size);
    shmem_barrier_all();
    KT_OK(gshmem_kv_read(kv, &x, &req));
    KT_OK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    kt_apply(p, exp, p, next, 8, &x, local, remote);
    kt_check_pool("gshmem_kv_read (8064 blocks)", p, exp);
    check_stats("gshmem_kv_read (8064 blocks)", kv, req, kt_runs(&x, RPL, 1),
                (uint64_t)MANY_L * RPL * MANY_N * MANY_BYTES, (uint64_t)MANY_L * RPL * MANY_N);
    KT_OK(gshmem_kv_req_free(kv, req));
    shmem_barrier_all();
    free(exp);
}

/* Blocks 12..23 of the next PE from this PE's 0..11 (reversed), twelve
 * one-block writes, each canceled right after its post. */
#define NC (NB / 2)

static void scenario_cancel(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    int64_t src[NC], dst[NC];
    gshmem_kv_req_t req[NC];
    int rc[NC];

    kt_fill(p, me, 9);
    memcpy(exp, p->mem, p->size);
    shmem_barrier_all();
    for (int b = 0; b < NC; b++) {
        gshmem_kv_xfer_t x;

        src[b] = NC - 1 - b, dst[b] = NC + b;
        x = xfer_of(id, next, &src[b], &dst[b], 1);
        KT_OK(gshmem_kv_write(kv, &x, &req[b]));
        rc[b] = gshmem_kv_cancel(kv, req[b]);
    }
    for (int b = 0; b < NC; b++) {
        int st = gshmem_kv_wait(kv, req[b], GSHMEM_KV_WAIT_DEFAULT);

        PT_CHECK_EQ_F("gshmem_kv_cancel", 1, rc[b] == 0 || rc[b] == GSHMEM_KV_ERR_STATE,
                      "cancel of request %d returned %d", b, rc[b]);
        PT_CHECK_EQ_F("gshmem_kv_wait", rc[b] == 0 ? GSHMEM_KV_ERR_CANCELED : 0, st,
                      "request %d after a cancel that returned %d", b, rc[b]);
        KT_OK(gshmem_kv_req_free(kv, req[b]));
    }
    shmem_barrier_all();
    {
        gshmem_kv_xfer_t x = xfer_of(id, next, src, dst, NC);

        kt_apply(p, exp, p, prev, 9, &x, dst, src);
    }
    kt_check_pool("gshmem_kv_write (canceled)", p, exp);
    shmem_barrier_all();
    free(exp);
}

#define NT 3 /* threads */
#define NK 4 /* reads per thread */

typedef struct reader {
    gshmem_kv_t *kv;
    int id, t;
    int64_t local[NK], remote[NK];
    int fails;
} reader_t;

static void *reader_main(void *arg)
{
    reader_t *r = (reader_t *)arg;

    for (int k = 0; k < NK; k++) {
        gshmem_kv_xfer_t x = xfer_of(r->id, next, &r->local[k], &r->remote[k], 1);
        gshmem_kv_req_t req = 0;

        x.signal.addr = &sig[3], x.signal.value = 1, x.signal.op = GSHMEM_KV_SIGNAL_ADD;
        r->fails += gshmem_kv_read(r->kv, &x, &req) != 0;
        r->fails += gshmem_kv_wait(r->kv, req, GSHMEM_KV_WAIT_DEFAULT) != 0;
        r->fails += gshmem_kv_req_free(r->kv, req) != 0;
    }
    return NULL;
}

/* Blocks 0..11 here from the next PE's 12..23, one per request, three
 * threads at once. */
static void scenario_threads(gshmem_kv_t *kv, kt_pool_t *p, int id)
{
    unsigned char *exp = malloc(p->size);
    reader_t rd[NT];
    pthread_t th[NT];
    int64_t local[NT * NK], remote[NT * NK];
    gshmem_kv_completion_t done[NT * NK];
    size_t n = 0;

    kt_fill(p, me, 6);
    memcpy(exp, p->mem, p->size);
    sig[3] = 0;
    shmem_barrier_all();
    for (int t = 0; t < NT; t++) {
        rd[t].kv = kv, rd[t].id = id, rd[t].t = t, rd[t].fails = 0;
        for (int k = 0; k < NK; k++) {
            rd[t].local[k] = local[t * NK + k] = t * NK + k;
            rd[t].remote[k] = remote[t * NK + k] = NT * NK + t * NK + k;
        }
        pthread_create(&th[t], NULL, reader_main, &rd[t]);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        PT_CHECK_EQ_F("gshmem_kv_read (threads)", 0, rd[t].fails, "failed calls of thread %d",
                      t);
    }
    {
        gshmem_kv_xfer_t x = xfer_of(id, next, local, remote, NT * NK);

        kt_apply(p, exp, p, next, 6, &x, local, remote);
    }
    kt_check_pool("gshmem_kv_read (threads)", p, exp);
    shmem_uint64_wait_until(&sig[3], SHMEM_CMP_EQ, NT * NK);
    /* Freed by the threads: nothing is left in the queue. */
    KT_OK(gshmem_kv_poll(kv, done, NT * NK, &n));
    PT_CHECK_EQ_F("gshmem_kv_poll (threads)", (size_t)0, n, "entries left after the frees");
    shmem_barrier_all();
    free(exp);
}

static void run(int progress_thread)
{
    gshmem_kv_config_t cfg = {0};
    gshmem_kv_t *kv = NULL;
    kt_pool_t full, gap, priv, many;
    unsigned char *spare = NULL;
    int id_full = -1, id_gap = -1, id_priv = -1, id_many = -1;

    cfg.progress_thread = progress_thread;
    KT_OK(gshmem_kv_create(&cfg, &kv));
    if (kv == NULL)
        return;
    kt_pool_init(&full, NL, RPL, NB, BYTES, 0, 1);
    kt_pool_init(&gap, NL, RPL, NB, BYTES, BYTES + 32, 1);
    /* Collective shmem_malloc on every PE; the even ones then put the
     * layout in malloc'd memory instead (the heap's copy waits for the
     * collective free). */
    kt_pool_init(&priv, NL, RPL, NB, BYTES, 0, 1);
    if (me % 2 == 0) {
        spare = priv.mem;
        priv.mem = malloc(priv.size);
        for (int i = 0; i < NL * RPL; i++)
            priv.base[i] = priv.mem + (size_t)i * priv.region;
    }
    KT_OK(gshmem_kv_layout_register(kv, &full.layout, &id_full));
    KT_OK(gshmem_kv_layout_register(kv, &gap.layout, &id_gap));
    KT_OK(gshmem_kv_layout_register(kv, &priv.layout, &id_priv));
    kt_pool_init(&many, MANY_L, RPL, MANY_NB, MANY_BYTES, 0, 1);
    KT_OK(gshmem_kv_layout_register(kv, &many.layout, &id_many));

    scenario_write(kv, &full, id_full);
    scenario_read(kv, &full, id_full);
    scenario_slice(kv, &gap, id_gap);
    if (npes % 2 == 0)
        scenario_private(kv, &priv, id_priv);
    scenario_queue(kv, &full, id_full);
    scenario_cancel(kv, &full, id_full);
    scenario_threads(kv, &full, id_full);
    scenario_many(kv, &many, id_many);

    KT_OK(gshmem_kv_layout_deregister(kv, id_priv));
    KT_OK(gshmem_kv_layout_deregister(kv, id_gap));
    KT_OK(gshmem_kv_destroy(kv));
    kt_pool_fini(&full);
    kt_pool_fini(&gap);
    kt_pool_fini(&many);
    if (me % 2 == 0) {
        free(priv.mem);
        priv.mem = spare;
    }
    kt_pool_fini(&priv);
}

int main(void)
{
    int provided = 0;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pt_setup();
    me = shmem_my_pe(), npes = shmem_n_pes();
    next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    sig = (uint64_t *)shmem_calloc(4, sizeof(uint64_t));
    run(0);
    run(1);
    shmem_free(sig);
    return pt_finish();
}
