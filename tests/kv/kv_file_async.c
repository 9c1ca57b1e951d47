/*
 * kv_file_async.c - storage-tier requests end on their file's I/O thread,
 * after store and load have returned, as network requests do:
 *   - a store of 32 MiB is still in progress when the call returns;
 *   - requests queue in post order: a store posted behind others and
 *     canceled at once ends GSHMEM_KV_ERR_CANCELED having moved nothing,
 *     the others end well and poll harvests every one;
 *   - close with requests in flight waits for them (the bytes are in the
 *     file when a load reads them back);
 *   - destroy with requests in flight completes them;
 *   - of loads carried out together, the one past the end of the file
 *     fails alone, with its own line.
 * With each engine.  One PE.
 */
#include "kv_file_test.h"

#define NB 16
#define BB (2u << 20) /* 2 MiB blocks: a store of all of them is 32 MiB */

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;
static char dir[256];

static gshmem_kv_file_t *open_file(const char *name, unsigned flags)
{
    gshmem_kv_file_opts_t o = {flags, BB, 4 * NB * (uint64_t)BB, 0};
    gshmem_kv_file_t *f = NULL;
    char p[400];

    snprintf(p, sizeof p, "%s/%s", dir, name);
    KT_OK(gshmem_kv_file_open(kv, p, &o, &f));
    return f;
}

static void run(const char *engine)
{
    int64_t ids[NB], slots[NB];
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req[10], last = 0;
    gshmem_kv_completion_t done[16];
    gshmem_kv_req_stats_t st;
    gshmem_kv_file_t *f;
    size_t got = 0, n;
    int ok = 0, canceled = 0;
    char what[96];

    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    f = open_file("queue", GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE);
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    if (f == NULL)
        return;
    for (int i = 0; i < NB; i++)
        ids[i] = i, slots[i] = NB + i;
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = 1, x.n = NB, x.local_blocks = ids, x.remote_blocks = slots;

    snprintf(what, sizeof what, "%s: a 32 MiB store returns before its I/O ends", engine);
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req[0]));
    PT_CHECK_EQ(what, GSHMEM_KV_INPROGRESS, gshmem_kv_test(kv, req[0]));

    snprintf(what, sizeof what, "%s: nine more queued, the last canceled", engine);
    x.n = 1;
    for (int i = 1; i < 10; i++) {
        x.local_blocks = &ids[i], x.remote_blocks = &slots[i - 1];
        KT_OK(gshmem_kv_file_store(kv, f, &x, &req[i]));
    }
    KT_OK(gshmem_kv_cancel(kv, req[9]));
    for (int spin = 0; got < 10 && spin < 100000; spin++) {
        KT_OK(gshmem_kv_poll(kv, done + got, 16 - got, &n));
        got += n;
        if (n == 0)
            usleep(1000);
    }
    PT_CHECK_EQ_F(what, (size_t)10, got, "completions polled");
    for (size_t i = 0; i < got; i++) {
        ok += done[i].status == 0;
        canceled += done[i].status == GSHMEM_KV_ERR_CANCELED && done[i].req == req[9];
    }
    PT_CHECK_EQ_F(what, 9, ok, "requests ended well");
    PT_CHECK_EQ_F(what, 1, canceled, "the canceled one");
    KT_OK(gshmem_kv_req_stats(kv, req[9], &st));
    PT_CHECK_EQ_F(what, (uint64_t)0, st.bytes, "bytes the canceled store moved");
    PT_CHECK(what, done[0].req == req[0], "the first posted is the first ended (post order)");
    for (int i = 0; i < 10; i++)
        KT_OK(gshmem_kv_req_free(kv, req[i]));

    snprintf(what, sizeof what, "%s: close waits for what is in flight", engine);
    for (int i = 0; i < NB; i++)
        memset(kf_at(&pool, 0, 0, i, 0), 0x40 + i, BB);
    x.n = NB, x.local_blocks = ids, x.remote_blocks = slots;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &last));
    PT_CHECK_EQ(what, 0, gshmem_kv_file_close(kv, f));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, last, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, last));
    memset(pool.mem, 0, pool.size);
    if ((f = open_file("queue", 0)) != NULL) {
        KT_OK(gshmem_kv_file_load(kv, f, &x, &last));
        PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, last, GSHMEM_KV_WAIT_DEFAULT));
        KT_OK(gshmem_kv_req_free(kv, last));
        for (int i = 0; i < NB; i++)
            PT_CHECK_EQ_F(what, 0x40 + i, *kf_at(&pool, 0, 0, i, BB - 1),
                          "the last byte of block %d, read back", i);
        KT_OK(gshmem_kv_file_close(kv, f));
    }
}

/* Loads queued behind another load go to the engine as one run; the one
 * that reads past the end of the file (cut short behind the library's
 * back) fails alone, with its own line, and the others end well. */
static void batch_failure(const char *engine)
{
    int64_t ids[NB], slots[NB], one[3] = {0, 1, 2}, at[3] = {0, 3, 1};
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t big = 0, ld[3];
    gshmem_kv_file_t *f;
    char what[96], p[400];

    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    f = open_file("cut", GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE);
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    if (f == NULL)
        return;
    snprintf(what, sizeof what, "%s: a failure inside a batch is its request's", engine);
    snprintf(p, sizeof p, "%s/cut", dir);
    for (int i = 0; i < NB; i++)
        ids[i] = i, slots[i] = i % 2; /* 32 MiB of reads of slots 0 and 1 */
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = 1, x.n = 4, x.local_blocks = ids, x.remote_blocks = ids;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &big));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, big, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, big));
    PT_CHECK(what, truncate(p, 2 * (off_t)BB) == 0, "the file cut to two slots");
    x.n = NB, x.remote_blocks = slots;
    KT_OK(gshmem_kv_file_load(kv, f, &x, &big));
    x.n = 1;
    for (int i = 0; i < 3; i++) {
        x.local_blocks = &one[i], x.remote_blocks = &at[i];
        KT_OK(gshmem_kv_file_load(kv, f, &x, &ld[i]));
    }
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, big, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, ld[0], GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ(what, GSHMEM_KV_ERR_IO, gshmem_kv_wait(kv, ld[1], GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK(what, strstr(gshmem_kv_error(), "offset 6291456") != NULL,
             "its own line: the read at slot 3's offset");
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, ld[2], GSHMEM_KV_WAIT_DEFAULT));
    for (int i = 0; i < 3; i++)
        KT_OK(gshmem_kv_req_free(kv, ld[i]));
    KT_OK(gshmem_kv_req_free(kv, big));
    KT_OK(gshmem_kv_file_close(kv, f));
    unlink(p);
}

int main(void)
{
    gshmem_kv_file_t *f;
    int64_t ids[NB];
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;
    char p[400];

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the storage tier is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", dir, sizeof dir) == NULL)
        return pt_skip("no directory under /var/tmp");
    kf_pool_init(&pool, 1, 1, NB, BB, 0);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    run("auto");
    run("posix");
    batch_failure("auto");
    batch_failure("posix");

    /* Destroy with a store in flight: it ends, then the engine goes. */
    if ((f = open_file("last", GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE)) != NULL) {
        for (int i = 0; i < NB; i++)
            ids[i] = i;
        memset(&x, 0, sizeof x);
        x.layout = lid, x.n_layers = 1, x.n = NB, x.local_blocks = ids;
        KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    }
    PT_CHECK_EQ("destroy with a store in flight", 0, gshmem_kv_destroy(kv));
    snprintf(p, sizeof p, "%s/queue", dir), unlink(p);
    snprintf(p, sizeof p, "%s/last", dir), unlink(p);
    rmdir(dir);
    free(pool.mem);
    return pt_finish();
}
