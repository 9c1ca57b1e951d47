/*
 * kv_file_bad.c - every bad input to the storage tier is one line and an
 * error status, never a crash or data reported stored that is not: each
 * case checks the status and a phrase of gshmem_kv_error()'s line.
 *
 *   open      a missing file without _CREATE, _CREATE without _WRITE,
 *             slot_bytes 0, unknown flags, a queue depth past 4096,
 *             GSHMEM_KV_FILE_ENGINE not auto or posix
 *   handles   a made-up file handle, a closed one
 *   transfer  a slot past the end of the file (too small for it, here
 *             and as a load), pieces that do not fit in a slot, a signal,
 *             a store to a file opened read-only
 *   I/O       a file cut short behind the library's back: the load's
 *             request ends GSHMEM_KV_ERR_IO with a line, its stats count
 *             only the bytes read (with each engine)
 *   O_DIRECT  a misaligned buffer, file offset and length, each refused
 *             before any I/O with a line naming the value (under
 *             /var/tmp; skipped with a line where O_DIRECT is refused)
 * Then a good store and load still work.  One PE.
 * Exit status: 0 pass, 1 fail.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include "kv_file_test.h"

#include <errno.h>
#include <fcntl.h>

static gshmem_kv_t *kv;
static char dir[256];

static const char *path_of(const char *name)
{
    static char p[512];

    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static gshmem_kv_xfer_t xfer_of(int layout, const int64_t *ids, const int64_t *slots, size_t n)
{
    gshmem_kv_xfer_t x;

    memset(&x, 0, sizeof x);
    x.layout = layout, x.n_layers = 2, x.n = n, x.local_blocks = ids, x.remote_blocks = slots;
    return x;
}

static void bad_open(void)
{
    gshmem_kv_file_opts_t o = {0, 4096, 0, 0};
    gshmem_kv_file_t *f = NULL;

    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("missing"), &o, &f), GSHMEM_KV_ERR_NOT_FOUND,
               "No such file");
    o.flags = GSHMEM_KV_FILE_CREATE;
    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("x"), &o, &f), GSHMEM_KV_ERR_INVALID,
               "needs GSHMEM_KV_FILE_WRITE");
    o.flags = GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, o.slot_bytes = 0;
    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("x"), &o, &f), GSHMEM_KV_ERR_INVALID,
               "slot_bytes is 0");
    o.slot_bytes = 4096, o.flags = 0x80;
    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("x"), &o, &f), GSHMEM_KV_ERR_INVALID,
               "unknown bits 0x80");
    o.flags = GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, o.queue_depth = 5000;
    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("x"), &o, &f), GSHMEM_KV_ERR_RANGE,
               "queue_depth 5000");
    o.queue_depth = 0;
    setenv("GSHMEM_KV_FILE_ENGINE", "spdk", 1);
    EXPECT_ERR(gshmem_kv_file_open(kv, path_of("x"), &o, &f), GSHMEM_KV_ERR_INVALID,
               "GSHMEM_KV_FILE_ENGINE is \"spdk\"");
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    EXPECT_ERR(gshmem_kv_file_open(kv, NULL, &o, &f), GSHMEM_KV_ERR_INVALID, "path is NULL");
    PT_CHECK_PTR("gshmem_kv_file_open refused", (gshmem_kv_file_t *)NULL, f);
}

static void bad_transfer(kf_pool_t *p, int lid)
{
    static const int64_t ids[] = {0, 1}, far[] = {0, 4}, slots[] = {0, 1};
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, 4 * 4096,
                               4 * 4 * 4096, 0};
    gshmem_kv_file_t *f = NULL, *ro = NULL, *small = NULL;
    gshmem_kv_req_t req = 0;
    gshmem_kv_xfer_t x = xfer_of(lid, ids, far, 2);
    long junk[8] = {0};

    KT_OK(gshmem_kv_file_open(kv, path_of("four"), &o, &f));
    /* Slot 4 of a file of 4 slots: too small, store and load alike. */
    EXPECT_ERR(gshmem_kv_file_store(kv, f, &x, &req), GSHMEM_KV_ERR_RANGE,
               "too small for it, it holds slots 0 to 3");
    EXPECT_ERR(gshmem_kv_file_load(kv, f, &x, &req), GSHMEM_KV_ERR_RANGE, "too small");
    PT_CHECK_EQ("no request made", (gshmem_kv_req_t)0, req);
    /* 2 layers x 2 regions x 4096 bytes in a slot of 8192. */
    o.slot_bytes = 8192;
    KT_OK(gshmem_kv_file_open(kv, path_of("small"), &o, &small));
    x = xfer_of(lid, ids, slots, 2);
    EXPECT_ERR(gshmem_kv_file_store(kv, small, &x, &req), GSHMEM_KV_ERR_RANGE,
               "do not fit in a slot of 8192 bytes");
    x.signal.addr = (uint64_t *)junk;
    EXPECT_ERR(gshmem_kv_file_store(kv, f, &x, &req), GSHMEM_KV_ERR_INVALID,
               "no peer to signal");
    x.signal.addr = NULL;
    /* Read-only. */
    o.flags = 0, o.slot_bytes = 4 * 4096;
    KT_OK(gshmem_kv_file_open(kv, path_of("four"), &o, &ro));
    EXPECT_ERR(gshmem_kv_file_store(kv, ro, &x, &req), GSHMEM_KV_ERR_INVALID, "read-only");
    PT_CHECK_EQ("no request made", (gshmem_kv_req_t)0, req);
    /* Handles. */
    EXPECT_ERR(gshmem_kv_file_store(kv, (gshmem_kv_file_t *)junk, &x, &req),
               GSHMEM_KV_ERR_HANDLE, "not an open file");
    KT_OK(gshmem_kv_file_close(kv, small));
    EXPECT_ERR(gshmem_kv_file_load(kv, small, &x, &req), GSHMEM_KV_ERR_HANDLE,
               "not an open file");
    EXPECT_ERR(gshmem_kv_file_close(kv, small), GSHMEM_KV_ERR_HANDLE, "not an open file");
    PT_CHECK_PTR("gshmem_kv_file_engine of a closed file", (const char *)NULL,
                 gshmem_kv_file_engine(kv, small));
    /* After all that, a good round trip. */
    memset(p->mem, 0x5a, p->size);
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    PT_CHECK_EQ("good store", 0, kf_wait_free(kv, req));
    memset(p->mem, 0, p->size);
    KT_OK(gshmem_kv_file_load(kv, ro, &x, &req));
    PT_CHECK_EQ("good load", 0, kf_wait_free(kv, req));
    PT_CHECK_EQ("good load's bytes", 0x5a, *kf_at(p, 1, 1, 1, 4095));
    KT_OK(gshmem_kv_file_close(kv, ro));
    KT_OK(gshmem_kv_file_close(kv, f));
}

/* The file is cut to one slot after the open: the load of slot 3 meets
 * the end of the file; its request ends ERR_IO, never OK. */
static void cut_short(int lid, const char *engine)
{
    static const int64_t ids[] = {0, 1}, slots[] = {0, 3};
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, 4 * 4096,
                               4 * 4 * 4096, 0};
    gshmem_kv_xfer_t x = xfer_of(lid, ids, slots, 2);
    gshmem_kv_file_t *f = NULL;
    gshmem_kv_req_stats_t st;
    gshmem_kv_req_t req = 0;
    char what[64];
    int rc;

    snprintf(what, sizeof what, "cut short (%s)", engine);
    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    KT_OK(gshmem_kv_file_open(kv, path_of("cut"), &o, &f));
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    PT_CHECK(what, truncate(path_of("cut"), 4 * 4096) == 0, "truncate to one slot");
    KT_OK(gshmem_kv_file_load(kv, f, &x, &req));
    rc = gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT);
    PT_CHECK_EQ_F(what, GSHMEM_KV_ERR_IO, rc, "the request's status");
    /* The file's thread printed the line; wait made it this thread's. */
    PT_CHECK(what, strstr(gshmem_kv_error(), "end of file") != NULL, "a line: end of file");
    KT_OK(gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK_EQ_F(what, (uint64_t)4 * 4096, st.bytes, "stats.bytes: slot 0 only");
    KT_OK(gshmem_kv_req_free(kv, req));
    KT_OK(gshmem_kv_file_close(kv, f));
    unlink(path_of("cut"));
}

/* O_DIRECT: each misaligned value refused before any I/O. */
static void bad_direct(int lid, int lid_shifted)
{
    static const int64_t ids[] = {0, 1}, slots[] = {0, 1};
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE |
                                   GSHMEM_KV_FILE_DIRECT,
                               4 * 4096, 4 * 4 * 4096, 0};
    gshmem_kv_xfer_t x = xfer_of(lid, ids, slots, 2);
    gshmem_kv_file_t *f = NULL;
    gshmem_kv_req_t req = 0;
    int fd = open(path_of("probe"), O_CREAT | O_RDWR | O_DIRECT, 0644);

    if (fd < 0) {
        printf("kv_file_bad: SKIP O_DIRECT part: %s refuses O_DIRECT (%s)\n", dir,
               strerror(errno));
        return;
    }
    close(fd);
    unlink(path_of("probe"));
    KT_OK(gshmem_kv_file_open(kv, path_of("direct"), &o, &f));
    x.length = 100; /* a length no alignment divides */
    EXPECT_ERR(gshmem_kv_file_store(kv, f, &x, &req), GSHMEM_KV_ERR_INVALID,
               "the length 100 of each piece is not a multiple");
    x.length = 0, x.layout = lid_shifted; /* regions 1 byte past a page */
    EXPECT_ERR(gshmem_kv_file_store(kv, f, &x, &req), GSHMEM_KV_ERR_INVALID,
               "(block 0) is not a multiple");
    KT_OK(gshmem_kv_file_close(kv, f));
    /* Slots of 4 pages and 1 byte: slot 1 starts at an odd offset. */
    o.slot_bytes = 4 * 4096 + 1, x.layout = lid;
    KT_OK(gshmem_kv_file_open(kv, path_of("direct"), &o, &f));
    EXPECT_ERR(gshmem_kv_file_load(kv, f, &x, &req), GSHMEM_KV_ERR_INVALID,
               "the file offset 16385 (slot 1) is not a multiple");
    PT_CHECK_EQ("no request made", (gshmem_kv_req_t)0, req);
    KT_OK(gshmem_kv_file_close(kv, f));
    unlink(path_of("direct"));
}

int main(void)
{
    kf_pool_t pool, shifted;
    int lid = -1, lid2 = -1;

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the storage tier is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", dir, sizeof dir) == NULL) {
        printf("kv_file_bad: FAIL: no directory under /var/tmp\n");
        return 1;
    }
    kf_pool_init(&pool, 2, 2, 8, 4096, 0);
    kf_pool_init(&shifted, 2, 2, 8, 4096, 1);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    KT_OK(gshmem_kv_layout_register(kv, &shifted.layout, &lid2));
    bad_open();
    bad_transfer(&pool, lid);
    cut_short(lid, "auto");
    cut_short(lid, "posix");
    bad_direct(lid, lid2);
    /* destroy closes what is left open. */
    KT_OK(gshmem_kv_destroy(kv));
    unlink(path_of("four"));
    unlink(path_of("small"));
    unlink(path_of("x"));
    rmdir(dir);
    free(pool.mem);
    free(shifted.mem);
    return pt_finish();
}
