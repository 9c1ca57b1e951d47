/*
 * kv_store.c - the block store keeps what it should: put, contains (the
 * prefix length and the flags), get back into other blocks with every
 * byte checked, a put of a held key kept as it is, LRU eviction (a get
 * makes an entry recent), a slice of a layer range, evict, and a reopen
 * (read-only and read-write) that finds every entry and the put order as
 * the LRU order.  With each I/O engine, buffered and O_DIRECT, and with
 * GSHMEM_KV_STORE_SYNC.  One PE (the store is local).
 */
#include "kv_store_test.h"

#define L 2
#define R 2
#define NB 32
#define BS 4096
#define CAP 8

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;

static int64_t held(gshmem_kv_store_t *st, uint64_t key)
{
    gshmem_kv_key_t k = ks_key(key);

    return gshmem_kv_store_contains(kv, st, &k, 1, NULL);
}

static gshmem_kv_store_t *open_store(const char *dir, unsigned flags)
{
    gshmem_kv_store_opts_t o = {flags, L * R * BS, CAP, 0};
    gshmem_kv_store_t *st = NULL;

    KT_OK(gshmem_kv_store_open(kv, dir, &o, &st));
    return st;
}

/* Keys first..first+n-1 from blocks b0.. (filled from the keys first). */
static int put_range(gshmem_kv_store_t *st, uint64_t first, int n, int64_t b0)
{
    gshmem_kv_key_t keys[CAP];
    int64_t blocks[CAP];
    gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, (size_t)n);

    for (int i = 0; i < n; i++) {
        keys[i] = ks_key(first + (uint64_t)i);
        blocks[i] = b0 + i;
        ks_fill(&pool, blocks[i], first + (uint64_t)i);
    }
    return ks_io(kv, st, 0, keys, &x);
}

/* Keys first.. into blocks b0.. (zeroed first), each checked. */
static void get_check(const char *what, gshmem_kv_store_t *st, uint64_t first, int n,
                      int64_t b0)
{
    gshmem_kv_key_t keys[CAP];
    int64_t blocks[CAP];
    gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, (size_t)n);

    for (int i = 0; i < n; i++) {
        keys[i] = ks_key(first + (uint64_t)i);
        blocks[i] = b0 + i;
        for (int l = 0; l < L; l++)
            for (int r = 0; r < R; r++)
                memset(kf_at(&pool, l, r, blocks[i], 0), 0, BS);
    }
    PT_CHECK_EQ(what, 0, ks_io(kv, st, 1, keys, &x));
    for (int i = 0; i < n; i++)
        PT_CHECK_EQ_F(what, (size_t)0, ks_diff(&pool, blocks[i], first + (uint64_t)i),
                      "bytes of key %llu that differ", (unsigned long long)(first + i));
}

/* The whole story on a fresh store in dir. */
static void story(const char *tag, const char *dir, unsigned flags)
{
    gshmem_kv_key_t probe[7];
    unsigned char present[7];
    gshmem_kv_store_stats_t s;
    gshmem_kv_store_t *st = open_store(dir,
                                       flags | GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE);
    char what[96];

    if (st == NULL)
        return;
    snprintf(what, sizeof what, "%s: put and contains", tag);
    PT_CHECK_EQ(what, 0, put_range(st, 100, 5, 0));
    for (int i = 0; i < 5; i++)
        probe[i] = ks_key(100 + (uint64_t)i);
    probe[5] = ks_key(999), probe[6] = ks_key(101);
    PT_CHECK_EQ_F(what, (int64_t)5, gshmem_kv_store_contains(kv, st, probe, 7, present),
                  "the prefix held");
    PT_CHECK(what, present[0] && present[4] && !present[5] && present[6],
             "flags 1 1 1 1 1 0 1");

    snprintf(what, sizeof what, "%s: get into other blocks", tag);
    get_check(what, st, 100, 5, 10);

    snprintf(what, sizeof what, "%s: a put of held keys", tag);
    PT_CHECK_EQ(what, 0, put_range(st, 100, 2, 20));
    KT_OK(gshmem_kv_store_stats(kv, st, &s));
    PT_CHECK_EQ(what, (int64_t)5, s.entries);

    /* LRU, most recent first: the get of 100..104 leaves 104 103 102 101
     * 100, the put of held 100 and 101 makes it 101 100 104 103 102, a get
     * of 100 makes it 100 101 104 103 102.  Four new keys in a store of 8
     * with 5 held evict one: 102. */
    snprintf(what, sizeof what, "%s: LRU eviction", tag);
    get_check(what, st, 100, 1, 10);
    PT_CHECK_EQ(what, 0, put_range(st, 200, 4, 0));
    PT_CHECK_EQ_F(what, (int64_t)0, held(st, 102), "key 102 (the least recently used)");
    PT_CHECK_EQ_F(what, (int64_t)1, held(st, 100), "key 100 (got just before)");
    PT_CHECK_EQ_F(what, (int64_t)1, held(st, 101), "key 101 (put again)");
    KT_OK(gshmem_kv_store_stats(kv, st, &s));
    PT_CHECK_EQ(what, (int64_t)8, s.entries);
    PT_CHECK_EQ(what, (uint64_t)1, s.evictions);
    get_check(what, st, 200, 4, 12);

    /* A slice of one layer's V: put (evicting the LRU entry, 103, after
     * the get of 200..203), get back, nothing else touched. */
    snprintf(what, sizeof what, "%s: a slice", tag);
    {
        gshmem_kv_key_t k = ks_key(300);
        int64_t b = 24, b2 = 25;
        gshmem_kv_xfer_t x = ks_xfer(lid, 1, &b, 1);
        unsigned char *dst = kf_at(&pool, 1, 1, b2, 0);

        x.layer_first = 1, x.region_mask = 2, x.offset = 1024, x.length = 2048;
        ks_fill(&pool, b, 300);
        memset(kf_at(&pool, 0, 0, b2, 0), 0, BS);
        memset(dst, 0, BS);
        PT_CHECK_EQ(what, 0, ks_io(kv, st, 0, &k, &x));
        x.local_blocks = &b2;
        PT_CHECK_EQ(what, 0, ks_io(kv, st, 1, &k, &x));
        PT_CHECK(what,
                 !memcmp(dst + 1024, kf_at(&pool, 1, 1, b, 1024), 2048) && dst[1023] == 0 &&
                     dst[3072] == 0 && *kf_at(&pool, 0, 0, b2, 1500) == 0,
                 "bytes 1024..3071 of layer 1's region 1, nothing else");
        x.length = 1024; /* another shape */
        PT_CHECK_EQ(what, GSHMEM_KV_ERR_MISMATCH, ks_io(kv, st, 1, &k, &x));
        PT_CHECK(what, strstr(gshmem_kv_error(), "was put as layers 1..1") != NULL,
                 "the line names the shape it was put with");
    }
    PT_CHECK_EQ_F(what, (int64_t)0, held(st, 103), "key 103 (the least recently used)");
    snprintf(what, sizeof what, "%s: evict", tag);
    probe[0] = ks_key(104), probe[1] = ks_key(999);
    PT_CHECK_EQ(what, (int64_t)1, gshmem_kv_store_evict(kv, st, probe, 2));
    PT_CHECK_EQ(what, (int64_t)0, gshmem_kv_store_evict(kv, st, probe, 1));
    PT_CHECK_EQ(what, (int64_t)0, held(st, 104));
    KT_OK(gshmem_kv_store_close(kv, st));

    /* Held now, in put order: 100 101 200 201 202 203 300. */
    snprintf(what, sizeof what, "%s: reopened read-only", tag);
    if ((st = open_store(dir, flags & GSHMEM_KV_STORE_DIRECT)) != NULL) {
        KT_OK(gshmem_kv_store_stats(kv, st, &s));
        PT_CHECK_EQ(what, (int64_t)7, s.entries);
        get_check(what, st, 200, 4, 0);
        get_check(what, st, 100, 2, 4);
        PT_CHECK_EQ(what, GSHMEM_KV_ERR_INVALID, put_range(st, 400, 1, 6));
        PT_CHECK_EQ(what, GSHMEM_KV_ERR_INVALID, gshmem_kv_store_evict(kv, st, probe, 1));
        KT_OK(gshmem_kv_store_close(kv, st));
    }
    snprintf(what, sizeof what, "%s: reopened, LRU from the put order", tag);
    if ((st = open_store(dir, flags | GSHMEM_KV_STORE_WRITE)) != NULL) {
        PT_CHECK_EQ(what, 0, put_range(st, 500, 2, 6));
        PT_CHECK_EQ_F(what, (int64_t)0, held(st, 100), "key 100 (put first)");
        PT_CHECK_EQ_F(what, (int64_t)1, held(st, 101), "key 101 (put second)");
        get_check(what, st, 500, 2, 8);
        KT_OK(gshmem_kv_store_close(kv, st));
    }
}

int main(void)
{
    static const struct {
        const char *tag, *engine;
        unsigned flags;
    } runs[] = {
        {"auto", "auto", 0},
        {"posix", "posix", 0},
        {"auto O_DIRECT", "auto", GSHMEM_KV_STORE_DIRECT},
        {"posix O_DIRECT sync", "posix", GSHMEM_KV_STORE_DIRECT | GSHMEM_KV_STORE_SYNC},
    };
    char base[256], dir[300];

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the block store is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", base, sizeof base) == NULL)
        return pt_skip("no directory under /var/tmp");
    kf_pool_init(&pool, L, R, NB, BS, 0);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(dir, sizeof dir, "%s/s%zu", base, i);
        setenv("GSHMEM_KV_FILE_ENGINE", runs[i].engine, 1);
        story(runs[i].tag, dir, runs[i].flags);
        unsetenv("GSHMEM_KV_FILE_ENGINE");
    }
    KT_OK(gshmem_kv_layout_deregister(kv, lid));
    KT_OK(gshmem_kv_destroy(kv));
    kf_tmpdir_done(base);
    free(pool.mem);
    return pt_finish();
}
