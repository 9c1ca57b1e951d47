/*
 * kv_file.c - the storage tier moves every byte it should and only those:
 * a layout of 2 layers x K/V with random bytes, scattered blocks stored to
 * scattered slots, memory clobbered, the slots loaded into other blocks,
 * every byte of the pool compared (the loaded blocks hold the stored ones,
 * every other byte the clobber).  Then: a layer and region subset with a
 * slice; the file's bytes read with pread against the documented format
 * (slot k at k * slot_bytes, pieces layer by layer, region by region);
 * the file closed and opened again read-only, loaded from (the bytes are
 * in the file, not in a cache of the library); coalescing (consecutive
 * blocks at consecutive one-piece slots are one I/O, scattered ones one
 * each, over an io_uring queue shorter than the runs), and the requests
 * through test, poll and req_stats as any
 * request.  Each with the engine that auto picks (io_uring where the
 * kernel allows it, said in a line when not), with pread/pwrite forced
 * (GSHMEM_KV_FILE_ENGINE=posix), and both again with O_DIRECT on a file
 * under /var/tmp (skipped, with a line, where that file system refuses
 * O_DIRECT).  One PE: the tier is local to each PE.
 * Exit status: 0 pass, 1 fail.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include "kv_file_test.h"

#include <errno.h>
#include <fcntl.h>

#define NL 2
#define RPL 2
#define NB 16
#define BB 4096
#define NS 32

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;
static unsigned char *saved; /* the pool as stored */
static char dir[256];

static void fill_random(unsigned seed)
{
    srand(seed);
    for (size_t o = 0; o < pool.size; o++)
        pool.mem[o] = (unsigned char)rand();
    memcpy(saved, pool.mem, pool.size);
}

/* What the pool must hold after the load: the clobber, but for the
 * slice of each loaded block (dst[i] of layers, regions) that came from
 * src[i] as stored. */
static void expect(unsigned char *exp, const gshmem_kv_xfer_t *x, const int64_t *src,
                   const int64_t *dst, size_t len)
{
    uint32_t mask = x->region_mask ? x->region_mask : (1u << RPL) - 1;

    memset(exp, 0xee, pool.size);
    for (size_t i = 0; i < x->n; i++)
        for (int l = x->layer_first; l < x->layer_first + x->n_layers; l++)
            for (int r = 0; r < RPL; r++)
                if (mask >> r & 1)
                    memcpy(exp + (kf_at(&pool, l, r, dst[i], x->offset) - pool.mem),
                           saved + (kf_at(&pool, l, r, src[i], x->offset) - pool.mem), len);
}

static void check_pool(const char *what, const unsigned char *exp)
{
    size_t bad = 0, first = 0;

    for (size_t o = 0; o < pool.size; o++)
        if (pool.mem[o] != exp[o] && bad++ == 0)
            first = o;
    PT_CHECK_EQ_F(what, (size_t)0, bad, "wrong bytes in the pool (first at offset %zu)", first);
}

/* depth: the io_uring queue (0: the default). */
static gshmem_kv_file_t *open_file(const char *name, unsigned flags, size_t slot, int64_t n,
                                   int depth)
{
    gshmem_kv_file_opts_t o = {flags, slot, (uint64_t)slot * (uint64_t)n, depth};
    gshmem_kv_file_t *f = NULL;
    char path[512];
    int rc;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    rc = gshmem_kv_file_open(kv, path, &o, &f);
    PT_CHECK_EQ_F("gshmem_kv_file_open", 0, rc, "status (%s) for %s", gshmem_kv_status_str(rc),
                  path);
    return rc == 0 ? f : NULL;
}

/* One store, a clobber, one load into other blocks: every byte checked. */
static void round_trip(const char *mode, gshmem_kv_file_t *f, gshmem_kv_xfer_t x,
                       const int64_t *src, const int64_t *dst, const int64_t *slots,
                       uint64_t want_ops)
{
    size_t len = x.length ? x.length : BB - x.offset;
    unsigned char *exp = (unsigned char *)malloc(pool.size);
    gshmem_kv_req_stats_t st;
    gshmem_kv_completion_t done[4];
    gshmem_kv_req_t req = 0;
    size_t n = 0;
    char what[160];

    snprintf(what, sizeof what,
             "%s: store of %zu blocks, layers %d+%d, mask 0x%x, slice %zu+%zu", mode, x.n,
             x.layer_first, x.n_layers, x.region_mask, x.offset, len);
    x.local_blocks = src, x.remote_blocks = slots;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    /* Ended by the file's thread: wait, test and poll see it as any
     * request (poll may have to be asked more than once). */
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ(what, 0, gshmem_kv_test(kv, req));
    KT_OK(gshmem_kv_poll(kv, done, 4, &n));
    PT_CHECK_EQ_F(what, (size_t)1, n, "completions polled");
    PT_CHECK(what, n == 1 && done[0].req == req && done[0].status == 0,
             "the completion of this request, status 0");
    KT_OK(gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK_EQ_F(what,
                  (uint64_t)x.n * x.n_layers *
                      __builtin_popcount(x.region_mask ? x.region_mask : (1u << RPL) - 1) * len,
                  st.bytes, "stats.bytes");
    if (want_ops)
        PT_CHECK_EQ_F(what, want_ops, st.ops, "stats.ops (runs after coalescing)");
    KT_OK(gshmem_kv_req_free(kv, req));

    memset(pool.mem, 0xee, pool.size);
    x.local_blocks = dst;
    snprintf(what, sizeof what, "%s: load of %zu blocks into other ids", mode, x.n);
    KT_OK(gshmem_kv_file_load(kv, f, &x, &req));
    PT_CHECK_EQ(what, 0, kf_wait_free(kv, req));
    expect(exp, &x, src, dst, len);
    check_pool(what, exp);
    free(exp);
}

/* The file's bytes, as the header documents them: slot k at k *
 * slot_bytes, layer by layer, region by region. */
static void check_format(const char *mode, const char *name, size_t slot, int64_t block,
                         int64_t slot_id)
{
    unsigned char *buf = (unsigned char *)malloc(slot);
    char path[512];
    int fd, j = 0;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    fd = open(path, O_RDONLY);
    PT_CHECK(mode,
             fd >= 0 && pread(fd, buf, slot, (off_t)(slot_id * (int64_t)slot)) == (ssize_t)slot,
             "pread of one slot of the file");
    for (int l = 0; l < NL; l++)
        for (int r = 0; r < RPL; r++, j++)
            PT_CHECK_EQ_F(mode, 0,
                          memcmp(buf + (size_t)j * BB,
                                 saved + (kf_at(&pool, l, r, block, 0) - pool.mem), BB),
                          "slot %lld piece %d (layer %d region %d) against block %lld",
                          (long long)slot_id, j, l, r, (long long)block);
    if (fd >= 0)
        close(fd);
    free(buf);
}

static void run(const char *mode, unsigned direct)
{
    static const int64_t src[] = {3, 4, 5, 9, 0, 12}, dst[] = {1, 2, 6, 8, 13, 15};
    static const int64_t slots[] = {10, 11, 12, 2, 7, 20};
    static const int64_t seq_src[] = {4, 5, 6, 7}, seq_dst[] = {8, 9, 10, 11};
    static const int64_t seq_slots[] = {0, 1, 2, 3}, scat_slots[] = {3, 1, 0, 2};
    const unsigned rw = GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE | direct;
    gshmem_kv_xfer_t x;
    gshmem_kv_file_t *f, *g;
    gshmem_kv_req_t req = 0;
    char what[128];

    if ((f = open_file("whole", rw, NL * RPL * BB, NS, 0)) == NULL)
        return;
    printf("kv_file: %s: engine %s\n", mode, gshmem_kv_file_engine(kv, f));
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = NL, x.n = 6;
    fill_random(1);
    /* 4 pieces per slot: no two blocks' pieces are adjacent in the file. */
    round_trip(mode, f, x, src, dst, slots, 6 * NL * RPL);
    check_format(mode, "whole", NL * RPL * BB, src[3], slots[3]);

    /* Layer 1's V only, a slice (page-sized pieces under O_DIRECT). */
    fill_random(2);
    x.layer_first = 1, x.n_layers = 1, x.region_mask = 2;
    x.offset = direct ? 0 : 1000, x.length = direct ? BB : 2000;
    round_trip(mode, f, x, src, dst, slots, 0);

    /* Closed and opened read-only: the bytes come from the file. */
    fill_random(3);
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = NL, x.n = 6, x.local_blocks = src, x.remote_blocks = slots;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    PT_CHECK_EQ("store before close", 0, kf_wait_free(kv, req));
    KT_OK(gshmem_kv_file_close(kv, f));
    if ((f = open_file("whole", direct, NL * RPL * BB, 0, 0)) != NULL) {
        unsigned char *exp = (unsigned char *)malloc(pool.size);

        memset(pool.mem, 0xee, pool.size);
        x.local_blocks = dst;
        KT_OK(gshmem_kv_file_load(kv, f, &x, &req));
        snprintf(what, sizeof what, "%s: load after reopening read-only", mode);
        PT_CHECK_EQ(what, 0, kf_wait_free(kv, req));
        expect(exp, &x, src, dst, BB);
        check_pool(what, exp);
        free(exp);
        KT_OK(gshmem_kv_file_close(kv, f));
    }

    /* One piece per slot: consecutive blocks at consecutive slots are one
     * I/O each way; the same blocks at scattered slots, one I/O each, more
     * than a queue of 3 holds (two submissions). */
    if ((g = open_file("one", rw, BB, 8, 3)) == NULL)
        return;
    fill_random(4);
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = 1, x.region_mask = 1, x.n = 4;
    snprintf(what, sizeof what, "%s coalesced", mode);
    round_trip(what, g, x, seq_src, seq_dst, seq_slots, 1);
    fill_random(5); /* the round trip left the clobber in the source blocks */
    snprintf(what, sizeof what, "%s scattered", mode);
    round_trip(what, g, x, seq_src, seq_dst, scat_slots, 4);
    KT_OK(gshmem_kv_file_close(kv, g));
}

int main(void)
{
    char base[256];
    int fd;

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the storage tier is local to each PE: one PE is enough");
    kf_pool_init(&pool, NL, RPL, NB, BB, 0);
    saved = (unsigned char *)malloc(pool.size);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    if (kf_tmpdir("/var/tmp", base, sizeof base) == NULL) {
        printf("kv_file: FAIL: no directory under /var/tmp\n");
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", base);

    unsetenv("GSHMEM_KV_FILE_ENGINE");
    run("auto", 0);
    setenv("GSHMEM_KV_FILE_ENGINE", "posix", 1);
    run("posix", 0);

    /* O_DIRECT where the file system takes it. */
    fd = open(strcat(strcpy(base, dir), "/probe"), O_CREAT | O_RDWR | O_DIRECT, 0644);
    if (fd < 0) {
        printf("kv_file: SKIP O_DIRECT part: %s refuses O_DIRECT (%s)\n", dir, strerror(errno));
    } else {
        close(fd);
        unsetenv("GSHMEM_KV_FILE_ENGINE");
        run("auto O_DIRECT", GSHMEM_KV_FILE_DIRECT);
        setenv("GSHMEM_KV_FILE_ENGINE", "posix", 1);
        run("posix O_DIRECT", GSHMEM_KV_FILE_DIRECT);
    }
    unsetenv("GSHMEM_KV_FILE_ENGINE");

    KT_OK(gshmem_kv_layout_deregister(kv, lid));
    KT_OK(gshmem_kv_destroy(kv));
    unlink(base);
    snprintf(base, sizeof base, "%s/whole", dir), unlink(base);
    snprintf(base, sizeof base, "%s/one", dir), unlink(base);
    rmdir(dir);
    free(saved);
    free(pool.mem);
    return pt_finish();
}
