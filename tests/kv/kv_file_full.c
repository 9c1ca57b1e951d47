/*
 * kv_file_full.c - a store to a full disk is one line and a failed
 * request, never data reported stored that is not.  The disk: a tmpfs of
 * 1 MiB mounted on a fresh directory (needs root and a kernel that lets
 * this process mount; skipped with the reason otherwise).  The file is
 * 4 MiB, sparse; a store of 2 MiB runs out of space: the request ends
 * GSHMEM_KV_ERR_IO, the line says so, the stats count less than asked.
 * With each engine (the second may find the disk full from the start:
 * the kernel lets go of a file registered with a ring a little after the
 * ring is gone, so the first file's space may still be taken).  One PE.
 * Exit status: 0 pass, 1 fail, 77 skip.
 */
#include "kv_file_test.h"

#include <errno.h>
#include <sys/mount.h>

#define SLOT (64 * 1024)

static void fill_up(gshmem_kv_t *kv, int lid, const char *path, const char *engine)
{
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, SLOT,
                               64 * (uint64_t)SLOT, 0};
    int64_t ids[32];
    gshmem_kv_xfer_t x;
    gshmem_kv_file_t *f = NULL;
    gshmem_kv_req_stats_t st;
    gshmem_kv_req_t req = 0;
    char what[64];
    int rc;

    for (int i = 0; i < 32; i++)
        ids[i] = i;
    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = 1, x.n = 32, x.local_blocks = ids;
    snprintf(what, sizeof what, "full disk (%s)", engine);
    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    KT_OK(gshmem_kv_file_open(kv, path, &o, &f));
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    if (f == NULL)
        return;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    rc = gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT);
    PT_CHECK_EQ_F(what, GSHMEM_KV_ERR_IO, rc, "the request's status");
    PT_CHECK(what, strstr(gshmem_kv_error(), "No space left on device") != NULL,
             "a line: No space left on device (wait makes the I/O thread's line this one's)");
    KT_OK(gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK(what, st.bytes < 32 * (uint64_t)SLOT, "stats.bytes below the 2 MiB asked");
    KT_OK(gshmem_kv_req_free(kv, req));
    KT_OK(gshmem_kv_file_close(kv, f));
    unlink(path);
}

int main(void)
{
    char dir[256], path[300];
    gshmem_kv_t *kv = NULL;
    kf_pool_t pool;
    int lid = -1;

    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the storage tier is local to each PE: one PE is enough");
    if (geteuid() != 0)
        return pt_skip("not root: cannot mount the small tmpfs that plays the full disk");
    if (kf_tmpdir("/tmp", dir, sizeof dir) == NULL)
        return pt_skip("no directory under /tmp");
    if (mount("tmpfs", dir, "tmpfs", 0, "size=1M") != 0) {
        char why[160];

        snprintf(why, sizeof why, "mount -t tmpfs -o size=1M refused here (%s)",
                 strerror(errno));
        rmdir(dir);
        return pt_skip(why);
    }
    snprintf(path, sizeof path, "%s/full", dir);
    kf_pool_init(&pool, 1, 1, 32, SLOT, 0);
    memset(pool.mem, 0x33, pool.size);
    KT_OK(gshmem_kv_create(NULL, &kv));
    KT_OK(gshmem_kv_layout_register(kv, &pool.layout, &lid));
    fill_up(kv, lid, path, "auto");
    fill_up(kv, lid, path, "posix");
    KT_OK(gshmem_kv_layout_deregister(kv, lid));
    KT_OK(gshmem_kv_destroy(kv));
    umount2(dir, MNT_DETACH);
    rmdir(dir);
    free(pool.mem);
    return pt_finish();
}
