/*
 * kv_store_crash.c - the two halves of kv-store-crash.sh.
 *
 *   kv_store_crash write DIR FIRST   puts keys FIRST, FIRST+1, ... in calls
 *       of 1 to 4 keys (blocks filled from their keys) into the store in
 *       DIR (made if missing: 48 entries of 2 x 2 x 64 KiB, O_DIRECT where
 *       the file system allows it), forever, printing "done K" after each
 *       call whose request ended well (K: its last key).  The script kills
 *       it with SIGKILL.
 *   kv_store_crash check DIR FIRST DONE   reopens the store and checks what
 *       it holds of keys FIRST .. DONE + 8 (what was asked before the kill):
 *       every key held comes back with its own bytes (nothing torn), and
 *       the newest keys that ended well are held: all of DONE - 40 .. DONE
 *       (puts that ended before the kill but after its last "done" line
 *       may have evicted up to 4 older keys; 48 - 4 - 4 covers them).
 *       Prints the keys held and exits 0, or 1 with a line per fault.
 * One PE, run without a launcher.
 */
#include "kv_store_test.h"

#define L 2
#define R 2
#define BS (64 * 1024)
#define CAP 48
#define NB 8

static gshmem_kv_t *kv;
static kf_pool_t pool;
static int lid;

static gshmem_kv_store_t *open_dir(const char *dir, unsigned flags)
{
    /* Queue depth 2: a put's pieces go in several submissions, so that a
     * kill can land between two of them (and between two pwrites with
     * the posix engine, which the script picks every other round). */
    gshmem_kv_store_opts_t o = {flags | GSHMEM_KV_STORE_DIRECT, L * R * BS, CAP, 2};
    gshmem_kv_store_t *st = NULL;

    if (gshmem_kv_store_open(kv, dir, &o, &st) == GSHMEM_KV_ERR_INVALID &&
        strstr(gshmem_kv_error(), "O_DIRECT")) {
        o.flags &= ~GSHMEM_KV_STORE_DIRECT;
        gshmem_kv_store_open(kv, dir, &o, &st);
    }
    return st;
}

static int writer(const char *dir, uint64_t key)
{
    gshmem_kv_store_t *st = open_dir(dir, GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE);

    if (st == NULL)
        return 1;
    for (unsigned n = 1;; n = n % 4 + 1) {
        gshmem_kv_key_t keys[4];
        int64_t blocks[4];
        gshmem_kv_xfer_t x = ks_xfer(lid, L, blocks, n);

        for (unsigned i = 0; i < n; i++) {
            keys[i] = ks_key(key + i);
            blocks[i] = (int64_t)((key + i) % NB);
            ks_fill(&pool, blocks[i], key + i);
        }
        if (ks_io(kv, st, 0, keys, &x) != 0)
            return 1;
        key += n;
        printf("done %llu\n", (unsigned long long)(key - 1));
        fflush(stdout);
    }
}

static int checker(const char *dir, uint64_t first, uint64_t done)
{
    gshmem_kv_store_t *st = open_dir(dir, GSHMEM_KV_STORE_WRITE);
    uint64_t n_held = 0, low = done >= first + 40 ? done - 40 : first;
    int faults = 0;

    if (st == NULL)
        return 1;
    for (uint64_t k = first; k <= done + 8; k++) {
        gshmem_kv_key_t key = ks_key(k);
        int64_t b = 0;
        gshmem_kv_xfer_t x = ks_xfer(lid, L, &b, 1);
        int64_t in = gshmem_kv_store_contains(kv, st, &key, 1, NULL);
        int rc;

        if (in != 1) {
            if (k >= low && k <= done) {
                printf("kv_store_crash: FAIL: key %llu ended well before the kill and is not "
                       "held\n",
                       (unsigned long long)k);
                faults++;
            }
            continue;
        }
        n_held++;
        memset(pool.mem, 0, pool.size);
        if ((rc = ks_io(kv, st, 1, &key, &x)) != 0) {
            printf("kv_store_crash: FAIL: key %llu is held, its get ended %d: %s\n",
                   (unsigned long long)k, rc, gshmem_kv_error());
            faults++;
        } else if (ks_diff(&pool, 0, k) != 0) {
            printf("kv_store_crash: FAIL: key %llu came back with %zu wrong bytes\n",
                   (unsigned long long)k, ks_diff(&pool, 0, k));
            faults++;
        }
    }
    printf("kv_store_crash: keys %llu..%llu asked, %llu ended well, %llu held and checked\n",
           (unsigned long long)first, (unsigned long long)done + 8,
           (unsigned long long)(done - first + 1), (unsigned long long)n_held);
    gshmem_kv_store_close(kv, st);
    return faults ? 1 : 0;
}

int main(int argc, char **argv)
{
    int rc;

    if (argc < 4 || (strcmp(argv[1], "write") && strcmp(argv[1], "check")) ||
        (!strcmp(argv[1], "check") && argc < 5)) {
        fprintf(stderr, "usage: kv_store_crash write DIR FIRST | check DIR FIRST DONE\n");
        return 2;
    }
    shmem_init();
    kf_pool_init(&pool, L, R, NB, BS, 0);
    if (gshmem_kv_create(NULL, &kv) != 0 ||
        gshmem_kv_layout_register(kv, &pool.layout, &lid) != 0)
        return 1;
    if (!strcmp(argv[1], "write"))
        rc = writer(argv[2], strtoull(argv[3], NULL, 10));
    else
        rc = checker(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
    gshmem_kv_layout_deregister(kv, lid);
    gshmem_kv_destroy(kv);
    shmem_finalize();
    return rc;
}
