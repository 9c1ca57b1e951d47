/*
 * kv_store_async.c - the block store's puts and gets end on its I/O
 * thread, after the calls return, and what is in flight is protected:
 *   - a get posted behind an 8 MiB put pins its entry: a put that needs
 *     every entry's slot is refused (GSHMEM_KV_ERR_BUSY, one line, nothing
 *     taken) rather than evicting the entry being read; the get's bytes
 *     come back whole (without the pin the put goes through and the get
 *     reads another key's bytes: checked);
 *   - once the get has ended the same put goes through, evicting LRU
 *     entries, and every key it put is held after its wait;
 *   - a key put twice back to back is stored once;
 *   - close, and destroy, with a put in flight wait for it: the key is
 *     held after a reopen.
 * With each I/O engine.  One PE.
 */
#include "kv_store_test.h"

#define NB 40
#define BS (1u << 20) /* 1 MiB entries: a put of 8 is 8 MiB of I/O */
#define CAP 16

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;

static gshmem_kv_store_t *open_store(const char *dir, unsigned flags)
{
    gshmem_kv_store_opts_t o = {flags, BS, CAP, 0};
    gshmem_kv_store_t *st = NULL;

    KT_OK(gshmem_kv_store_open(kv, dir, &o, &st));
    return st;
}

/* Blocks b0.. filled from keys first.. (before posting: a fill of many
 * MiB would give the thread time to end what the test needs in flight). */
static void fill(uint64_t first, int n, int64_t b0)
{
    for (int i = 0; i < n; i++)
        ks_fill(&pool, b0 + i, first + (uint64_t)i);
}

/* Keys first.. of blocks b0..: the request, or 0. */
static gshmem_kv_req_t post(gshmem_kv_store_t *st, int is_get, uint64_t first, int n,
                            int64_t b0)
{
    gshmem_kv_key_t keys[CAP];
    int64_t blocks[CAP];
    gshmem_kv_xfer_t x = ks_xfer(lid, 1, blocks, (size_t)n);
    gshmem_kv_req_t req = 0;
    int rc;

    for (int i = 0; i < n; i++)
        keys[i] = ks_key(first + (uint64_t)i), blocks[i] = b0 + i;
    rc = is_get ? gshmem_kv_store_get(kv, st, keys, &x, &req)
                : gshmem_kv_store_put(kv, st, keys, &x, &req);
    return rc == 0 ? req : 0;
}

static int64_t held(gshmem_kv_store_t *st, uint64_t first, int n)
{
    gshmem_kv_key_t keys[CAP];

    for (int i = 0; i < n; i++)
        keys[i] = ks_key(first + (uint64_t)i);
    return gshmem_kv_store_contains(kv, st, keys, (size_t)n, NULL);
}

static void run(const char *engine, const char *base)
{
    char dir[300], what[96];
    gshmem_kv_req_t a, b, c;
    gshmem_kv_store_stats_t s;
    gshmem_kv_store_t *st;

    snprintf(dir, sizeof dir, "%s/%s", base, engine);
    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    st = open_store(dir, GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE);
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    if (st == NULL)
        return;
    snprintf(what, sizeof what, "%s: a get in flight pins its entry", engine);
    fill(0, 8, 0);
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, post(st, 0, 0, 8, 0)));
    fill(100, 8, 8);
    fill(200, CAP, 16);
    memset(kf_at(&pool, 0, 0, 36, 0), 0, BS);
    a = post(st, 0, 100, 8, 8); /* 8 MiB: the thread is busy with it */
    b = post(st, 1, 0, 1, 36);  /* key 0, queued behind a: pinned */
    PT_CHECK(what, a && b, "the put and the get posted");
    /* Eight new keys: the free slots went to a, the eight entries are the
     * only candidates, and key 0's is pinned by b. */
    c = post(st, 0, 200, 8, 16);
    PT_CHECK_EQ_F(what, (gshmem_kv_req_t)0, c, "a put needing the pinned slot refused");
    PT_CHECK(what, strstr(gshmem_kv_error(), "no get is reading") != NULL, "the line says why");
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, a));
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, b));
    PT_CHECK_EQ_F(what, (size_t)0, ks_diff(&pool, 36, 0), "bytes of key 0 that differ");
    PT_CHECK_EQ(what, (int64_t)8, held(st, 100, 8));

    snprintf(what, sizeof what, "%s: the same put once nothing is read", engine);
    c = post(st, 0, 200, CAP, 16);
    PT_CHECK(what, c != 0, "posted");
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, c));
    PT_CHECK_EQ(what, (int64_t)CAP, held(st, 200, CAP));
    KT_OK(gshmem_kv_store_stats(kv, st, &s));
    PT_CHECK_EQ(what, (int64_t)CAP, s.entries);

    snprintf(what, sizeof what, "%s: a key put twice back to back", engine);
    fill(300, 1, 0);
    fill(300, 1, 1);
    a = post(st, 0, 300, 1, 0);
    b = post(st, 0, 300, 1, 1);
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, a));
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, b));
    memset(kf_at(&pool, 0, 0, 2, 0), 0, BS);
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, post(st, 1, 300, 1, 2)));
    PT_CHECK_EQ_F(what, (size_t)0, ks_diff(&pool, 2, 300), "bytes of key 300 that differ");

    snprintf(what, sizeof what, "%s: close with a put in flight", engine);
    fill(400, 8, 0);
    a = post(st, 0, 400, 8, 0);
    PT_CHECK_EQ(what, 0, gshmem_kv_store_close(kv, st));
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, a));
    if ((st = open_store(dir, GSHMEM_KV_STORE_WRITE)) != NULL) {
        PT_CHECK_EQ(what, (int64_t)8, held(st, 400, 8));
        KT_OK(gshmem_kv_store_close(kv, st));
    }
}

int main(void)
{
    char base[256], cmd[300];
    gshmem_kv_store_t *st;

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the block store is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", base, sizeof base) == NULL)
        return pt_skip("no directory under /var/tmp");
    kf_pool_init(&pool, 1, 1, NB, BS, 0);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    run("auto", base);
    run("posix", base);
    /* Destroy with a put in flight: it ends, then the engine goes. */
    snprintf(cmd, sizeof cmd, "%s/last", base);
    if ((st = open_store(cmd, GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE)) != NULL)
        PT_CHECK("destroy with a put in flight", post(st, 0, 500, 8, 0) != 0, "posted");
    PT_CHECK_EQ("destroy with a put in flight", 0, gshmem_kv_destroy(kv));
    kf_tmpdir_done(base);
    free(pool.mem);
    return pt_finish();
}
