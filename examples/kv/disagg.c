/*
 * examples/kv/disagg.c - disaggregated prefill and decode with libgshmem_kv:
 * two jobs, started by separate launcher commands, that share only a
 * folder and a secret.  examples/kv/run.sh runs the whole story.
 *
 *   disagg prefill DIR   (a job of P PEs) each PE listens for decode
 *                        processes (gshmem_kv_listen; its address in
 *                        DIR/addr.<pe>), then "prefills" its requests one
 *                        by one: request q belongs to PE q % P, which fills
 *                        the request's blocks of its paged cache (scattered
 *                        block ids, every layer, K and V) and announces it
 *                        (DIR/ready.<q>).  It stays up until DIR/all-done.
 *   disagg decode DIR    (a job of D PEs) each PE connects to every prefill
 *                        PE, then takes requests q with q % D == its PE, in
 *                        order: waits for ready.<q>, pulls the request's
 *                        blocks into blocks of its own cache (one
 *                        gshmem_kv_read: every layer, K and V), checks
 *                        every byte, and marks it done (DIR/done.<q>).  A
 *                        request already done (by an earlier decode job
 *                        that was killed) is skipped.  PE 0 prints the
 *                        median microseconds per request and the GB/s, and
 *                        creates DIR/all-done when every request is done.
 *
 * The shape is a small Llama-like cache: LAYERS layers of K and V, blocks
 * of BLOCK_TOKENS tokens x KV_HEADS heads x HEAD_DIM bf16.  Options:
 * -r requests (default 32), -b blocks per request (default 16), -k kill:
 * decode PE 1 kills itself (SIGKILL) after that many requests, so that a
 * later decode job must finish the rest.  The secret comes from
 * $GSHMEM_KV_SECRET.  Exit 0 when every byte was right.
 */
#include <gshmem_kv.h>
#include <shmem.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LAYERS 8
#define REGIONS 2 /* K and V */
#define BLOCK_TOKENS 16
#define KV_HEADS 8
#define HEAD_DIM 64
#define BLOCK_BYTES (BLOCK_TOKENS * KV_HEADS * HEAD_DIM * 2) /* 16 KiB */
#define WAIT_S 120

static int me, npes, n_req = 32, per_req = 16, kill_after = -1;
static const char *dir;

static void die(const char *what)
{
    fprintf(stderr, "disagg: PE %d: %s: %s\n", me, what, gshmem_kv_error());
    shmem_global_exit(1);
}

static uint64_t now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static const char *path(const char *what, int n)
{
    static char buf[4096];

    snprintf(buf, sizeof buf, "%s/%s.%d", dir, what, n);
    return buf;
}

static int exists(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0;
}

static void touch(const char *p, const char *text)
{
    char tmp[4200];
    FILE *f;

    snprintf(tmp, sizeof tmp, "%s.tmp%d", p, getpid());
    if (!(f = fopen(tmp, "w")) || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, p) != 0) {
        fprintf(stderr, "disagg: PE %d: cannot write %s\n", me, p);
        shmem_global_exit(1);
    }
}

static void await(const char *p)
{
    for (int i = 0; !exists(p); i++) {
        if (i == WAIT_S * 200) {
            fprintf(stderr, "disagg: PE %d: %s did not appear in %d s\n", me, p, WAIT_S);
            shmem_global_exit(1);
        }
        usleep(5000);
    }
}

/* The byte at offset o of block i of request q, layer l, region r. */
static unsigned char pat(int q, int l, int r, int i, size_t o)
{
    uint32_t x = (uint32_t)q * 2654435761u ^ (uint32_t)(l * REGIONS + r) * 40503u ^
                 (uint32_t)i * 977u ^ (uint32_t)(o >> 2) * 69069u;

    return (unsigned char)(x >> 11 ^ o);
}

/* A cache of n blocks per region: one buffer, region k at k * n blocks. */
typedef struct cache {
    unsigned char *mem;
    int64_t n;
    void *base[LAYERS * REGIONS];
    int id;
} cache_t;

static void cache_make(gshmem_kv_t *kv, cache_t *c, int64_t n)
{
    gshmem_kv_layout_t lay = {.n_layers = LAYERS,
                              .regions_per_layer = REGIONS,
                              .n_blocks = n,
                              .block_bytes = BLOCK_BYTES,
                              .region_base = c->base};

    c->n = n;
    c->mem = aligned_alloc(4096, (size_t)LAYERS * REGIONS * (size_t)n * BLOCK_BYTES);
    if (!c->mem) {
        fprintf(stderr, "disagg: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    for (int k = 0; k < LAYERS * REGIONS; k++)
        c->base[k] = c->mem + (size_t)k * (size_t)n * BLOCK_BYTES;
    if (gshmem_kv_layout_register(kv, &lay, &c->id) != 0) /* collective */
        die("gshmem_kv_layout_register");
}

static unsigned char *block(const cache_t *c, int l, int r, int64_t b)
{
    return (unsigned char *)c->base[l * REGIONS + r] + (size_t)b * BLOCK_BYTES;
}

/* The blocks per region of each prefill PE's cache, for n_prefill PEs:
 * room for its requests, and not a multiple of 7 (the stride below). */
static int64_t prefill_blocks(int n_prefill)
{
    int64_t n = (int64_t)((n_req + n_prefill - 1) / n_prefill) * per_req;

    while (n % 7 == 0)
        n += per_req;
    return n;
}

/* Request q's block i on its prefill PE (q % n_prefill), of n: scattered
 * over the cache (stride 7, a permutation since 7 does not divide n), as
 * a paged allocator leaves them. */
static int64_t prefill_block(int q, int i, int n_prefill, int64_t n)
{
    int64_t slot = (int64_t)(q / n_prefill) * per_req + i;

    return (slot * 7 + 3) % n;
}

static int prefill(gshmem_kv_t *kv, const char *secret)
{
    cache_t c;
    char where[300], count[32];
    int64_t n = prefill_blocks(npes);

    cache_make(kv, &c, n);
    if (gshmem_kv_listen(kv, ":0", secret, where, sizeof where) != 0)
        die("gshmem_kv_listen");
    touch(path("addr", me), where);
    shmem_barrier_all(); /* every address is out before the count says so */
    snprintf(count, sizeof count, "%d", npes);
    if (me == 0)
        touch(path("prefill-pes", 0), count);
    printf("prefill PE %d: listening at %s, %lld blocks of %d bytes per region\n", me, where,
           (long long)n, BLOCK_BYTES);
    fflush(stdout);
    for (int q = me; q < n_req; q += npes) {
        for (int i = 0; i < per_req; i++)
            for (int l = 0; l < LAYERS; l++)
                for (int r = 0; r < REGIONS; r++) {
                    unsigned char *b = block(&c, l, r, prefill_block(q, i, npes, n));

                    for (size_t o = 0; o < BLOCK_BYTES; o++)
                        b[o] = pat(q, l, r, i, o);
                }
        touch(path("ready", q), "ready");
    }
    await(path("all-done", 0));
    shmem_barrier_all();
    free(c.mem);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static int decode(gshmem_kv_t *kv, const char *secret)
{
    int n_prefill = 0, *peer, done = 0, bad = 0, kept = 0;
    int64_t *local, *remote, n_prefill_blocks;
    uint64_t *us, bytes = 0, busy_ns = 0, t_connect;
    cache_t c;

    FILE *f;

    await(path("prefill-pes", 0));
    if (!(f = fopen(path("prefill-pes", 0), "r")) || fscanf(f, "%d", &n_prefill) != 1 ||
        n_prefill < 1) {
        fprintf(stderr, "disagg: PE %d: cannot read %s\n", me, path("prefill-pes", 0));
        shmem_global_exit(1);
    }
    fclose(f);
    n_prefill_blocks = prefill_blocks(n_prefill);
    cache_make(kv, &c, 2 * per_req);
    peer = calloc((size_t)n_prefill, sizeof *peer);
    local = calloc((size_t)per_req, sizeof *local),
    remote = calloc((size_t)per_req, sizeof *remote);
    us = calloc((size_t)n_req, sizeof *us);
    t_connect = now_ns();
    for (int p = 0; p < n_prefill; p++) {
        char where[300] = {0};

        f = fopen(path("addr", p), "r");
        if (!f || !fgets(where, sizeof where, f)) {
            fprintf(stderr, "disagg: PE %d: cannot read %s\n", me, path("addr", p));
            shmem_global_exit(1);
        }
        fclose(f);
        if (gshmem_kv_connect(kv, where, secret, 0, &peer[p]) != 0)
            die("gshmem_kv_connect");
    }
    t_connect = now_ns() - t_connect;
    for (int q = me; q < n_req; q += npes) {
        const int pp = q % n_prefill, half = (q / npes) % 2; /* two halves of the cache */
        gshmem_kv_xfer_t x = {.layout = c.id,
                              .pe = peer[pp],
                              .layer_first = 0,
                              .n_layers = LAYERS,
                              .n = (size_t)per_req,
                              .local_blocks = local,
                              .remote_blocks = remote};
        gshmem_kv_req_t req;
        uint64_t t0;

        if (exists(path("done", q)))
            continue; /* an earlier decode job finished it */
        if (kill_after >= 0 && me == 1 && kept == kill_after) {
            printf("decode PE %d: killed after %d requests (as a crash would)\n", me, kept);
            fflush(stdout);
            raise(SIGKILL);
        }
        await(path("ready", q));
        for (int i = 0; i < per_req; i++) {
            local[i] = half * per_req + (per_req - 1 - i); /* reversed: no runs here */
            remote[i] = prefill_block(q, i, n_prefill, n_prefill_blocks);
        }
        t0 = now_ns();
        if (gshmem_kv_read(kv, &x, &req) != 0 ||
            gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT) != 0)
            die("gshmem_kv_read of a request");
        us[done] = (now_ns() - t0) / 1000u;
        busy_ns += now_ns() - t0;
        gshmem_kv_req_free(kv, req);
        for (int i = 0; i < per_req; i++)
            for (int l = 0; l < LAYERS; l++)
                for (int r = 0; r < REGIONS; r++) {
                    const unsigned char *b = block(&c, l, r, local[i]);

                    for (size_t o = 0; o < BLOCK_BYTES; o++)
                        bad += b[o] != pat(q, l, r, i, o);
                }
        bytes += (uint64_t)per_req * LAYERS * REGIONS * BLOCK_BYTES;
        touch(path("done", q), "done");
        done++, kept++;
    }
    qsort(us, (size_t)done, sizeof *us, cmp_u64);
    printf("decode PE %d: %d requests pulled from %d prefill PEs (%d blocks x %d layers x K,V of "
           "%d bytes each, %.1f MiB a request): median %llu us, %.2f GB/s; connect %.1f ms; %s\n",
           me, done, n_prefill, per_req, LAYERS, BLOCK_BYTES,
           per_req * LAYERS * REGIONS * BLOCK_BYTES / 1048576.0,
           (unsigned long long)(done ? us[done / 2] : 0), busy_ns ? bytes / (double)busy_ns : 0.0,
           t_connect / 1e6, bad ? "WRONG BYTES" : "verified");
    shmem_barrier_all();
    if (me == 0) {
        int all = 1;

        for (int q = 0; q < n_req; q++)
            all &= exists(path("done", q));
        if (all)
            touch(path("all-done", 0), "done");
        printf("decode: %s\n", all ? "every request done" : "requests left");
    }
    free(peer), free(local), free(remote), free(us), free(c.mem);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *secret = getenv("GSHMEM_KV_SECRET");
    gshmem_kv_t *kv;
    int opt, rc;

    while ((opt = getopt(argc, argv, "r:b:k:")) != -1) {
        if (opt == 'r')
            n_req = atoi(optarg);
        else if (opt == 'b')
            per_req = atoi(optarg);
        else if (opt == 'k')
            kill_after = atoi(optarg);
        else
            return 2;
    }
    if (argc - optind != 2 || (strcmp(argv[optind], "prefill") && strcmp(argv[optind], "decode")) ||
        n_req < 1 || per_req < 1 || !secret) {
        fprintf(stderr, "usage: GSHMEM_KV_SECRET=... disagg [-r requests] [-b blocks] [-k n] "
                        "prefill|decode DIR\n");
        return 2;
    }
    dir = argv[optind + 1];
    shmem_init();
    me = shmem_my_pe(), npes = shmem_n_pes();
    if (gshmem_kv_create(NULL, &kv) != 0)
        die("gshmem_kv_create");
    rc = strcmp(argv[optind], "prefill") == 0 ? prefill(kv, secret) : decode(kv, secret);
    gshmem_kv_destroy(kv);
    shmem_finalize();
    return rc;
}
