/*
 * kv_store_bad.c - every bad input to the block store, and every damaged
 * file under it, is one line and an error status, never a crash, a torn
 * block returned as good, or a key reported held that is not: each case
 * checks the status and a phrase of gshmem_kv_error()'s line.
 *
 *   open     no store without _CREATE, _CREATE without _WRITE, a new
 *            store without a capacity, unknown flags; another entry size
 *            or capacity than the store's; a second writer, and a reader
 *            beside a writer, in this process and in another (a child)
 *   calls    a made-up handle, a closed one (twice), NULL keys, a
 *            remote_blocks list, a signal, more keys than the capacity,
 *            pieces bigger than an entry, a block out of range, a key not
 *            held, put and evict on a read-only store
 *   damage   a record changed on disk (dropped at the reopen, with a
 *            line); an entry's bytes changed (its get ends
 *            GSHMEM_KV_ERR_CORRUPT, the key is no longer held); the
 *            index header changed; an index that is no store; the data
 *            file cut short
 *   disk     a store bigger than the disk (a 1 MiB tmpfs, as root): the
 *            open fails with "No space left", and no half store is left;
 *            the file system remounted read-only: a store and a tier file
 *            opened for writing fail with "Read-only file system", a
 *            store opened read-only still opens
 * A good put and get still work after.  One PE.
 */
#include "kv_store_test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>

#define L 2
#define R 2
#define BS 4096
#define CAP 4

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;
static char base[256];

static const char *dir_of(const char *name)
{
    static char p[2][512];
    static int k;

    k ^= 1;
    snprintf(p[k], sizeof p[k], "%s/%s", base, name);
    return p[k];
}

static gshmem_kv_store_t *opened(const char *name, unsigned flags)
{
    gshmem_kv_store_opts_t o = {flags, L * R * BS, CAP, 0};
    gshmem_kv_store_t *st = NULL;

    KT_OK(gshmem_kv_store_open(kv, dir_of(name), &o, &st));
    return st;
}

/* Flips byte off of file name in store dir. */
static void flip(const char *store, const char *file, off_t off)
{
    char p[600];
    unsigned char b;
    int fd;

    snprintf(p, sizeof p, "%s/%s", dir_of(store), file);
    if ((fd = open(p, O_RDWR)) < 0 || pread(fd, &b, 1, off) != 1) {
        PT_CHECK("flip", 0, "the store's file opens");
        if (fd >= 0)
            close(fd);
        return;
    }
    b ^= 0x5a;
    if (pwrite(fd, &b, 1, off) != 1)
        PT_CHECK("flip", 0, "a byte written");
    close(fd);
}

static void bad_open(void)
{
    gshmem_kv_store_opts_t o = {0, L * R * BS, CAP, 0};
    gshmem_kv_store_t *st = NULL, *st2 = NULL;
    pid_t pid;
    int status = -1;

    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("none"), &o, &st), GSHMEM_KV_ERR_NOT_FOUND,
               "GSHMEM_KV_STORE_CREATE makes one");
    o.flags = GSHMEM_KV_STORE_CREATE;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("x"), &o, &st), GSHMEM_KV_ERR_INVALID,
               "needs GSHMEM_KV_STORE_WRITE");
    o.flags = 64;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("x"), &o, &st), GSHMEM_KV_ERR_INVALID,
               "unknown bits");
    o.flags = GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE, o.capacity = 0;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("x"), &o, &st), GSHMEM_KV_ERR_INVALID,
               "needs entry_bytes and capacity");
    EXPECT_ERR(gshmem_kv_store_open(kv, NULL, &o, &st), GSHMEM_KV_ERR_INVALID, "dir is NULL");

    if ((st = opened("a", GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE)) == NULL)
        return;
    /* The lock refuses these before anything is read. */
    o.flags = GSHMEM_KV_STORE_WRITE, o.capacity = 0;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("a"), &o, &st2), GSHMEM_KV_ERR_BUSY,
               "a block store has one writer");
    o.flags = 0;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("a"), &o, &st2), GSHMEM_KV_ERR_BUSY,
               "is open for writing");
    /* Another process: a child of this one, with nothing shared but the
     * directory (its own open file, its own lock). */
    fflush(NULL);
    if ((pid = fork()) == 0) {
        gshmem_kv_store_t *c = NULL;

        o.flags = GSHMEM_KV_STORE_WRITE;
        _exit(gshmem_kv_store_open(kv, dir_of("a"), &o, &c) == GSHMEM_KV_ERR_BUSY ? 0 : 1);
    }
    if (pid > 0)
        waitpid(pid, &status, 0);
    PT_CHECK("a second writer in another process",
             WIFEXITED(status) && WEXITSTATUS(status) == 0, "refused with GSHMEM_KV_ERR_BUSY");
    KT_OK(gshmem_kv_store_close(kv, st));
    /* Closed: the lock is gone with it; the header is read. */
    o.flags = GSHMEM_KV_STORE_WRITE, o.capacity = CAP, o.entry_bytes = 2 * BS;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("a"), &o, &st2), GSHMEM_KV_ERR_MISMATCH,
               "holds entries of 16384 bytes; opened with entry_bytes 8192");
    o.entry_bytes = 0, o.capacity = 5;
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("a"), &o, &st2), GSHMEM_KV_ERR_MISMATCH,
               "holds 4 entries; opened with capacity 5");
    o.capacity = 0;
    KT_OK(gshmem_kv_store_open(kv, dir_of("a"), &o, &st2));
    if (st2)
        KT_OK(gshmem_kv_store_close(kv, st2));
}

static void bad_calls(void)
{
    gshmem_kv_key_t keys[CAP + 1];
    int64_t blocks[CAP + 1];
    gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, 1);
    gshmem_kv_store_t *st = opened("b", GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE), *ro;
    gshmem_kv_req_t req = 0;
    uint64_t word = 0;

    if (st == NULL)
        return;
    for (int i = 0; i <= CAP; i++)
        keys[i] = ks_key((uint64_t)i), blocks[i] = i;
    EXPECT_ERR(gshmem_kv_store_put(kv, (gshmem_kv_store_t *)&word, keys, &x, &req),
               GSHMEM_KV_ERR_HANDLE, "is not an open block store");
    EXPECT_ERR(gshmem_kv_store_put(kv, st, NULL, &x, &req), GSHMEM_KV_ERR_INVALID,
               "keys is NULL");
    EXPECT_ERR(gshmem_kv_store_contains(kv, st, NULL, 2, NULL), GSHMEM_KV_ERR_INVALID,
               "keys is NULL");
    x.remote_blocks = blocks;
    EXPECT_ERR(gshmem_kv_store_put(kv, st, keys, &x, &req), GSHMEM_KV_ERR_INVALID,
               "the store chooses its slots");
    x.remote_blocks = NULL;
    x.signal.addr = &word;
    EXPECT_ERR(gshmem_kv_store_put(kv, st, keys, &x, &req), GSHMEM_KV_ERR_INVALID, "a signal");
    x.signal.addr = NULL;
    x.n = CAP + 1;
    EXPECT_ERR(gshmem_kv_store_put(kv, st, keys, &x, &req), GSHMEM_KV_ERR_RANGE,
               "5 keys in one put, the store holds 4 entries");
    x.n = 1;
    blocks[0] = 99;
    EXPECT_ERR(gshmem_kv_store_put(kv, st, keys, &x, &req), GSHMEM_KV_ERR_RANGE,
               "local_blocks[0] is 99");
    blocks[0] = 0;
    EXPECT_ERR(gshmem_kv_store_get(kv, st, keys, &x, &req), GSHMEM_KV_ERR_NOT_FOUND,
               "is not in");
    PT_CHECK_EQ("nothing held after refused puts", (int64_t)0,
                gshmem_kv_store_contains(kv, st, keys, CAP, NULL));
    KT_OK(gshmem_kv_store_close(kv, st));
    EXPECT_ERR(gshmem_kv_store_close(kv, st), GSHMEM_KV_ERR_HANDLE,
               "is not an open block store");

    /* Pieces bigger than an entry: a store of 1-block entries. */
    {
        gshmem_kv_store_opts_t o = {GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE, BS, CAP, 0};

        KT_OK(gshmem_kv_store_open(kv, dir_of("small"), &o, &st));
        if (st) {
            EXPECT_ERR(gshmem_kv_store_put(kv, st, keys, &x, &req), GSHMEM_KV_ERR_RANGE,
                       "do not fit in an entry of 4096 bytes");
            KT_OK(gshmem_kv_store_close(kv, st));
        }
    }
    if ((ro = opened("b", 0)) != NULL) {
        EXPECT_ERR(gshmem_kv_store_put(kv, ro, keys, &x, &req), GSHMEM_KV_ERR_INVALID,
                   "opened read-only");
        EXPECT_ERR(gshmem_kv_store_evict(kv, ro, keys, 1), GSHMEM_KV_ERR_INVALID,
                   "opened read-only");
        KT_OK(gshmem_kv_store_close(kv, ro));
    }
}

/* Three keys put to store name, closed. */
static void three(const char *name)
{
    gshmem_kv_key_t keys[3] = {ks_key(10), ks_key(11), ks_key(12)};
    int64_t blocks[3] = {0, 1, 2};
    gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, 3);
    gshmem_kv_store_t *st = opened(name, GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE);

    if (st == NULL)
        return;
    for (int i = 0; i < 3; i++)
        ks_fill(&pool, i, 10 + (uint64_t)i);
    PT_CHECK_EQ("three puts", 0, ks_io(kv, st, 0, keys, &x));
    KT_OK(gshmem_kv_store_close(kv, st));
}

static void damage(void)
{
    gshmem_kv_key_t keys[3] = {ks_key(10), ks_key(11), ks_key(12)};
    int64_t blocks[3] = {4, 5, 6};
    gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, 1);
    gshmem_kv_store_stats_t s;
    gshmem_kv_store_t *st;
    gshmem_kv_store_opts_t o = {GSHMEM_KV_STORE_WRITE, 0, 0, 0};
    char p[600];

    /* A record changed: slot 1's key (records start at 4096, 64 bytes each). */
    three("rec");
    flip("rec", "index", 4096 + 64 + 20);
    if ((st = opened("rec", GSHMEM_KV_STORE_WRITE)) != NULL) {
        KT_OK(gshmem_kv_store_stats(kv, st, &s));
        PT_CHECK_EQ("a damaged record", (int64_t)2, s.entries);
        PT_CHECK_EQ("a damaged record", (uint64_t)1, s.dropped);
        PT_CHECK_EQ("a damaged record", (int64_t)0,
                    gshmem_kv_store_contains(kv, st, &keys[1], 1, NULL));
        x.local_blocks = &blocks[2];
        PT_CHECK_EQ("a damaged record: the others", 0, ks_io(kv, st, 1, &keys[2], &x));
        PT_CHECK_EQ("a damaged record: the others", (size_t)0, ks_diff(&pool, 6, 12));
        KT_OK(gshmem_kv_store_close(kv, st));
    }
    /* An entry's bytes changed: slot 0, past its first page. */
    three("data");
    flip("data", "data", 5000);
    if ((st = opened("data", GSHMEM_KV_STORE_WRITE)) != NULL) {
        gshmem_kv_req_t req = 0;

        x.local_blocks = &blocks[0];
        KT_OK(gshmem_kv_store_get(kv, st, keys, &x, &req));
        PT_CHECK_EQ("damaged bytes", GSHMEM_KV_ERR_CORRUPT,
                    gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
        PT_CHECK("damaged bytes", strstr(gshmem_kv_error(), "fails its checksum") != NULL,
                 "a line: fails its checksum");
        gshmem_kv_req_free(kv, req);
        PT_CHECK_EQ("damaged bytes: no longer held", (int64_t)0,
                    gshmem_kv_store_contains(kv, st, keys, 1, NULL));
        PT_CHECK_EQ("damaged bytes: the others", (int64_t)2,
                    gshmem_kv_store_contains(kv, st, &keys[1], 2, NULL));
        KT_OK(gshmem_kv_store_close(kv, st));
    }
    /* Dropped for good: not held after a reopen either. */
    if ((st = opened("data", 0)) != NULL) {
        PT_CHECK_EQ("damaged bytes, reopened", (int64_t)0,
                    gshmem_kv_store_contains(kv, st, keys, 1, NULL));
        KT_OK(gshmem_kv_store_close(kv, st));
    }
    /* The header changed. */
    three("hdr");
    flip("hdr", "index", 20);
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("hdr"), &o, &st), GSHMEM_KV_ERR_CORRUPT,
               "fails its checksum (damaged)");
    /* An index that is no store. */
    flip("hdr", "index", 0);
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("hdr"), &o, &st), GSHMEM_KV_ERR_INVALID,
               "is not the index of a block store");
    /* The data file cut short. */
    three("short");
    snprintf(p, sizeof p, "%s/data", dir_of("short"));
    if (truncate(p, BS) != 0)
        PT_CHECK("truncate", 0, "the data file cut");
    EXPECT_ERR(gshmem_kv_store_open(kv, dir_of("short"), &o, &st), GSHMEM_KV_ERR_CORRUPT,
               "(truncated?)");
}

/* A store bigger than the disk: a 1 MiB tmpfs (root only; said and skipped
 * otherwise). */
static void full_disk(void)
{
    gshmem_kv_store_opts_t o = {GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE, 64 * 1024, 64,
                                0};
    gshmem_kv_store_t *st = NULL;
    char mnt[256], d[300];
    int ro = -1;

    if (geteuid() != 0 || kf_tmpdir("/tmp", mnt, sizeof mnt) == NULL) {
        printf("kv_store_bad: full disk: skipped (not root)\n");
        return;
    }
    if (mount("tmpfs", mnt, "tmpfs", 0, "size=1M") != 0) {
        printf("kv_store_bad: full disk: skipped (mount refused)\n");
        rmdir(mnt);
        return;
    }
    snprintf(d, sizeof d, "%s/st", mnt);
    EXPECT_ERR(gshmem_kv_store_open(kv, d, &o, &st), GSHMEM_KV_ERR_IO,
               "No space left on device");
    o.flags = GSHMEM_KV_STORE_WRITE;
    EXPECT_ERR(gshmem_kv_store_open(kv, d, &o, &st), GSHMEM_KV_ERR_INVALID,
               "no block store there");
    /* The same file system read-only: a store made before cannot be opened
     * for writing, and a storage-tier file cannot either (root writes
     * through a file's mode bits; a read-only mount stops it too). */
    o.flags = GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE, o.entry_bytes = 4096,
    o.capacity = 4;
    snprintf(d, sizeof d, "%s/small", mnt);
    KT_OK(gshmem_kv_store_open(kv, d, &o, &st));
    if (st)
        KT_OK(gshmem_kv_store_close(kv, st));
    /* The kernel lets go of a file registered with an io_uring ring a
     * little after the ring is gone: the remount is busy until then. */
    for (int i = 0;
         i < 200 &&
         (ro = mount("tmpfs", mnt, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=1M")) != 0 &&
         errno == EBUSY;
         i++)
        usleep(10000);
    if (ro == 0) {
        gshmem_kv_file_opts_t fo = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, 4096, 0, 0};
        gshmem_kv_file_t *f = NULL;
        char p[320];

        o.flags = GSHMEM_KV_STORE_WRITE;
        EXPECT_ERR(gshmem_kv_store_open(kv, d, &o, &st), GSHMEM_KV_ERR_IO,
                   "Read-only file system");
        o.flags = 0; /* read-only opens still work */
        KT_OK(gshmem_kv_store_open(kv, d, &o, &st));
        if (st)
            KT_OK(gshmem_kv_store_close(kv, st));
        snprintf(p, sizeof p, "%s/tier", mnt);
        EXPECT_ERR(gshmem_kv_file_open(kv, p, &fo, &f), GSHMEM_KV_ERR_IO,
                   "Read-only file system");
    } else {
        printf("kv_store_bad: read-only file system: skipped (remount refused: %s)\n",
               strerror(errno));
    }
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
}

int main(void)
{
    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the block store is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", base, sizeof base) == NULL)
        return pt_skip("no directory under /var/tmp");
    kf_pool_init(&pool, L, R, 8, BS, 0);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    bad_open();
    bad_calls();
    damage();
    full_disk();
    /* Still good after all that. */
    {
        gshmem_kv_key_t k = ks_key(77);
        int64_t b = 3, b2 = 7;
        gshmem_kv_xfer_t x = ks_xfer(lid, L, &b, 1);
        gshmem_kv_store_t *st = opened("good", GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE);

        ks_fill(&pool, 3, 77);
        if (st) {
            PT_CHECK_EQ("a good put after", 0, ks_io(kv, st, 0, &k, &x));
            x.local_blocks = &b2;
            PT_CHECK_EQ("a good get after", 0, ks_io(kv, st, 1, &k, &x));
            PT_CHECK_EQ("a good get after", (size_t)0, ks_diff(&pool, 7, 77));
            KT_OK(gshmem_kv_store_close(kv, st));
        }
    }
    KT_OK(gshmem_kv_layout_deregister(kv, lid));
    KT_OK(gshmem_kv_destroy(kv));
    kf_tmpdir_done(base);
    free(pool.mem);
    return pt_finish();
}
