/*
 * kv_file_fixed.c - the io_uring engine's registered buffers
 * (libs/kv/kv_uring_fix.c) on one open file, every byte checked:
 *   - 40 rounds of: register two layouts of 32 regions (4 layers of 8),
 *     store from them, clobber, load back, deregister.  One layout has a page between its
 *     regions (each I/O inside one registered buffer: READ_FIXED and
 *     WRITE_FIXED); the other's regions touch, so a slot's pieces merge
 *     into one I/O across every region, which no one buffer holds (plain
 *     I/O, the bytes as right).
 *   - each layout's registration is said under SHMEM_INFO, and none is
 *     refused: 80 layouts of 32 regions are 2560 buffers in a table of
 *     1024, so deregister must give each one's slots back.
 * With the posix engine nothing is registered and the bytes are the same.
 * One PE (the tier is local to a PE).
 */
#include "kv_file_test.h"

#include <fcntl.h>

#define ROUNDS 40
#define NL 4    /* layers */
#define NR 32   /* regions: 4 layers of 8 */
#define NB 4    /* blocks */
#define BB 4096 /* block bytes */

static gshmem_kv_t *kv;
static char dir[256];

/* Regions of NB blocks, gap bytes apart (0: touching). */
static unsigned char *make(gshmem_kv_layout_t *l, void **base, size_t gap)
{
    size_t region = NB * BB + gap;
    unsigned char *mem = NULL;

    if (posix_memalign((void **)&mem, KF_PAGE, NR * region) != 0)
        return NULL;
    for (int i = 0; i < NR; i++)
        base[i] = mem + (size_t)i * region;
    memset(l, 0, sizeof *l);
    l->n_layers = NL, l->regions_per_layer = NR / NL, l->n_blocks = NB, l->block_bytes = BB;
    l->region_base = base;
    return mem;
}

/* Store every block of a fresh layout, clobber it, load it back. */
static void round_trip(const char *engine, gshmem_kv_file_t *f, int round, size_t gap)
{
    gshmem_kv_layout_t l;
    void *base[NR];
    unsigned char *mem = make(&l, base, gap);
    int64_t ids[NB] = {0, 1, 2, 3}, slots[NB] = {3, 0, 2, 1};
    gshmem_kv_xfer_t x;
    gshmem_kv_req_t req = 0;
    char what[128];
    size_t bad = 0;
    int id = -1;

    snprintf(what, sizeof what, "%s: round %d, regions %zu bytes apart", engine, round, gap);
    PT_CHECK(what, mem != NULL, "memory for the layout");
    if (mem == NULL)
        return;
    for (int r = 0; r < NR; r++)
        for (size_t k = 0; k < NB * BB; k++)
            ((unsigned char *)base[r])[k] = (unsigned char)(r * 7 + k * 13 + round);
    KT_OK(gshmem_kv_layout_register(kv, &l, &id));
    memset(&x, 0, sizeof x);
    x.layout = id, x.n_layers = NL, x.n = NB, x.local_blocks = ids, x.remote_blocks = slots;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, req));
    for (int r = 0; r < NR; r++)
        memset(base[r], 0x5a, NB * BB);
    KT_OK(gshmem_kv_file_load(kv, f, &x, &req));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, req));
    for (int r = 0; r < NR; r++)
        for (size_t k = 0; k < NB * BB; k++)
            bad += ((unsigned char *)base[r])[k] != (unsigned char)(r * 7 + k * 13 + round);
    PT_CHECK_EQ_F(what, (size_t)0, bad, "wrong bytes after the load");
    KT_OK(gshmem_kv_layout_deregister(kv, id));
    free(mem);
}

/* Lines of path holding needle. */
static int count(const char *path, const char *needle)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    int n = 0;

    while (fp && fgets(line, sizeof line, fp))
        n += strstr(line, needle) != NULL;
    if (fp)
        fclose(fp);
    return n;
}

static void run(const char *engine, int want_registered)
{
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE, NR * BB,
                               NB * (uint64_t)NR * BB, 0};
    gshmem_kv_file_t *f = NULL;
    char p[400], log[400];
    int saved, fd, got, plain;

    snprintf(p, sizeof p, "%s/fixed-%s", dir, engine);
    snprintf(log, sizeof log, "%s/stderr-%s", dir, engine);
    setenv("GSHMEM_KV_FILE_ENGINE", engine, 1);
    KT_OK(gshmem_kv_file_open(kv, p, &o, &f));
    unsetenv("GSHMEM_KV_FILE_ENGINE");
    if (f == NULL)
        return;
    /* The rounds' SHMEM_INFO lines go to a file, read back below. */
    fflush(stderr);
    saved = dup(2);
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    PT_CHECK(engine, saved >= 0 && fd >= 0, "stderr to a file");
    if (saved < 0 || fd < 0)
        return;
    dup2(fd, 2), close(fd);
    setenv("SHMEM_INFO", "1", 1);
    for (int i = 0; i < ROUNDS; i++) {
        round_trip(engine, f, i, KF_PAGE);
        round_trip(engine, f, i, 0);
    }
    unsetenv("SHMEM_INFO");
    fflush(stderr);
    dup2(saved, 2), close(saved);
    got = count(log, "bytes registered with"), plain = count(log, "is not all registered");
    if (want_registered && got == 0 && plain == 2 * ROUNDS && count(log, "memory") == plain) {
        /* A user whose RLIMIT_MEMLOCK holds no layout (no CAP_IPC_LOCK):
         * every one goes plain from the first, the bytes as right. */
        printf("kv_file_fixed: %s: this user cannot pin a layout (RLIMIT_MEMLOCK): all plain\n",
               engine);
        got = 2 * ROUNDS, plain = 0;
    }
    /* All or none: a layout refused after others were given (their slots
     * never given back) fails here. */
    PT_CHECK_EQ_F(engine, want_registered ? 2 * ROUNDS : 0, got,
                  "layouts said registered under SHMEM_INFO (%.80s)", log);
    PT_CHECK_EQ_F(engine, 0, plain, "layouts said left plain (%.80s)", log);
    KT_OK(gshmem_kv_file_close(kv, f));
    unlink(p);
    if (getenv("KEEP_LOG") == NULL)
        unlink(log);
}

int main(void)
{
    shmem_init();
    pt_setup();
    if (pt_npes != 1)
        return pt_skip("the storage tier is local to each PE: one PE is enough");
    if (kf_tmpdir("/var/tmp", dir, sizeof dir) == NULL)
        return pt_skip("no directory under /var/tmp");
    KT_OK(gshmem_kv_create(NULL, &kv));
    run("auto", 1);
    run("posix", 0);
    KT_OK(gshmem_kv_destroy(kv));
    rmdir(dir);
    return pt_finish();
}
