/*
 * kv_fio.c - the KV storage tier (gshmem_kv.h, "Storage tier") timed the
 * way fio times a disk, so that perftest/kv_fio.sh can set it beside
 * `fio --ioengine=io_uring --direct=1` on the same file.  One PE: the tier
 * is local to each PE.
 *
 *   fio patterns  (-m read|write|randread|randwrite, or all four): one pass
 *                 over the whole file (-s bytes) in blocks of -b bytes, each
 *                 block one read or write of one slot, the file opened
 *                 O_DIRECT with an io_uring queue of -q entries.  A request
 *                 carries -k blocks (default: the queue depth), and -W
 *                 requests (2) are in flight: the file's I/O thread streams
 *                 queued requests into its ring, so the engine keeps -q
 *                 I/Os in flight across requests, as fio's iodepth does.
 *                 read/write take the slots in order, randread/randwrite in
 *                 a fixed shuffle (each slot once per pass, as fio's random
 *                 map does).  The blocks of a request lie a page apart in
 *                 memory: nothing coalesces, every I/O is -b bytes as
 *                 fio's are (checked: ops == blocks).  Reported per pattern
 *                 and size: MB/s (10^6 bytes) and IOPS of the median pass.
 *   llama         (-m llama): Llama-3-8B's cache offloaded and reloaded:
 *                 32 layers x K,V x 126 blocks of 32 KiB (8064 pieces, 252
 *                 MiB), each block a slot of 64 pieces; one store of every
 *                 block, the memory clobbered, one load; every byte
 *                 checked.  Against the loop a user would write: one pwrite
 *                 (pread) per piece at the same offsets, O_DIRECT on the
 *                 same file.  Reported: seconds and GB/s (10^9 bytes) of the
 *                 median store and load of each side; the sides alternate
 *                 which goes first each round.
 *
 * Options: -f file (required; on a disk file system: O_DIRECT), -m as
 * above (all), -b block bytes (0: 4K 16K 64K 256K 1M; suffixes K, M, G),
 * -q queue depth (32), -k blocks per request (the queue depth), -W
 * requests in flight (2), -s file
 * bytes (1G), -n timed passes or rounds (5), -w warm-up passes (1).  A file
 * smaller than -s, or sparse, is first written out whole (as fio lays out
 * its file), so reads never hit holes, which cost no disk I/O.
 *
 * One JSON line per figure: bench.h's fields, plus "qd" and the figures:
 *   kv_fio_<pattern>        "MBps", "iops"            ("bytes": the block)
 *   kv_fio_llama_offload    "seconds", "gbps", "ops"  (impl "pwrite" for
 *   kv_fio_llama_reload                                the plain loop)
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <shmem.h>

#include "bench.h"
#include "gshmem_kv.h"

#define PAGE 4096
#define LL_LAYERS 32
#define LL_REGIONS 2 /* K and V */
#define LL_BLOCKS 126
#define LL_BYTES 32768

static const char *path;
static long qd = 32, per_req = 0, rounds = 5, warmup = 1, window = 2;
static uint64_t file_bytes = 1ull << 30;
static gshmem_kv_t *kv;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

/* "64M" -> 67108864; 0 for what is not a size. */
static uint64_t parse_size(const char *s)
{
    char *end;
    uint64_t v = strtoull(s, &end, 0);

    switch (*end) {
    case 'k':
    case 'K': v <<= 10, end++; break;
    case 'm':
    case 'M': v <<= 20, end++; break;
    case 'g':
    case 'G': v <<= 30, end++; break;
    }
    return *end ? 0 : v;
}

/* bench.h's fields, "qd", then the caller's figures (a JSON fragment). */
static void report(const char *bench, const char *impl, uint64_t bytes, const char *figures)
{
    fputs("{\"bench\":\"", stdout);
    bench_json_str(bench);
    fputs("\",\"impl\":\"", stdout);
    bench_json_str(impl);
    printf("\",\"npes\":1,\"bytes\":%llu,\"iters\":%ld,\"qd\":%ld,%s}\n", (unsigned long long)bytes,
           rounds, qd, figures);
    fflush(stdout);
}

/* The file holds -s bytes of data blocks (no holes): a hole reads back
 * without touching the disk and would flatter every read. */
static void lay_out(uint64_t bytes)
{
    struct stat st;
    void *buf;
    int fd = open(path, O_RDWR | O_CREAT | O_DIRECT, 0644);

    BENCH_CHECK(fd >= 0, "cannot open %s O_DIRECT: %s", path, strerror(errno));
    BENCH_CHECK(fstat(fd, &st) == 0, "fstat of %s: %s", path, strerror(errno));
    if ((uint64_t)st.st_size >= bytes && (uint64_t)st.st_blocks * 512 >= bytes) {
        close(fd);
        return;
    }
    BENCH_CHECK(posix_memalign(&buf, PAGE, 1 << 20) == 0, "posix_memalign");
    memset(buf, 0x5a, 1 << 20);
    for (uint64_t off = 0; off < bytes; off += 1 << 20) {
        size_t len = bytes - off < (1 << 20) ? (size_t)(bytes - off) : (size_t)1 << 20;

        BENCH_CHECK(pwrite(fd, buf, len, (off_t)off) == (ssize_t)len,
                    "laying out %s at %llu: %s (a size that is a multiple of 4 KiB?)", path,
                    (unsigned long long)off, strerror(errno));
    }
    free(buf);
    close(fd);
}

static gshmem_kv_file_t *file_open(size_t slot_bytes, uint64_t size)
{
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE | GSHMEM_KV_FILE_DIRECT,
                               slot_bytes, size, (int)qd};
    gshmem_kv_file_t *f = NULL;

    BENCH_CHECK(gshmem_kv_file_open(kv, path, &o, &f) == 0, "file_open: %s", gshmem_kv_error());
    return f;
}

/* One store or load of x through f, waited for; its statistics in *st. */
static void xfer(gshmem_kv_file_t *f, const gshmem_kv_xfer_t *x, int is_read,
                 gshmem_kv_req_stats_t *st)
{
    gshmem_kv_req_t req = 0;
    int rc = is_read ? gshmem_kv_file_load(kv, f, x, &req) : gshmem_kv_file_store(kv, f, x, &req);

    BENCH_CHECK(rc == 0, "%s: %s", is_read ? "load" : "store", gshmem_kv_error());
    BENCH_CHECK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT) == 0, "wait: %s",
                gshmem_kv_error());
    if (st)
        gshmem_kv_req_stats(kv, req, st);
    gshmem_kv_req_free(kv, req);
}

/* One fio pattern at one block size. */
static void pattern(const char *name, size_t bs)
{
    int is_read = strstr(name, "read") != NULL, random = strncmp(name, "rand", 4) == 0;
    int64_t n = (int64_t)(file_bytes / bs), *slots, *ids;
    size_t stride = bs + PAGE; /* a page between blocks: no two adjacent */
    unsigned char *mem;
    void *base[1];
    gshmem_kv_layout_t lay = {0};
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_stats_t st = {0};
    gshmem_kv_file_t *f;
    double *s = malloc((size_t)rounds * sizeof *s), sec;
    char figures[128], bench[64];
    int id;

    BENCH_CHECK(n >= 1 && bs % PAGE == 0, "%zu-byte blocks in a file of %llu bytes", bs,
                (unsigned long long)file_bytes);
    slots = malloc((size_t)n * sizeof *slots);
    ids = malloc((size_t)per_req * sizeof *ids);
    BENCH_CHECK(s && slots && ids &&
                    posix_memalign((void **)&mem, PAGE, (size_t)per_req * stride) == 0,
                "out of memory");
    memset(mem, 0xa5, (size_t)per_req * stride);
    for (int64_t i = 0; i < n; i++)
        slots[i] = i;
    if (random) { /* a fixed shuffle: every run takes the same order */
        srand(7);
        for (int64_t i = n - 1; i > 0; i--) {
            int64_t j = (int64_t)(((uint64_t)rand() << 31 | (uint64_t)rand()) % (uint64_t)(i + 1)),
                    t = slots[i];

            slots[i] = slots[j], slots[j] = t;
        }
    }
    for (long i = 0; i < per_req; i++)
        ids[i] = i;
    base[0] = mem;
    lay.n_layers = 1, lay.regions_per_layer = 1, lay.n_blocks = per_req;
    lay.block_bytes = bs, lay.block_stride = stride, lay.region_base = base;
    BENCH_CHECK(gshmem_kv_layout_register(kv, &lay, &id) == 0, "layout_register: %s",
                gshmem_kv_error());
    f = file_open(bs, 0);
    x.layout = id, x.n_layers = 1, x.local_blocks = ids;
    for (long r = -warmup; r < rounds; r++) {
        int64_t t0 = bench_now_ns();
        gshmem_kv_req_t inflight[64];
        long head = 0, tail = 0;

        /* Up to -W requests in flight: the file's I/O thread streams the
         * queued ones into its ring, so the engine's queue does not drain
         * at each request's end, as fio's never does. */
        for (int64_t i = 0; i < n || head < tail;) {
            if (i < n && tail - head < window) {
                gshmem_kv_req_t req = 0;

                x.n = (size_t)(n - i < per_req ? n - i : per_req);
                x.remote_blocks = slots + i;
                BENCH_CHECK((is_read ? gshmem_kv_file_load(kv, f, &x, &req)
                                     : gshmem_kv_file_store(kv, f, &x, &req)) == 0,
                            "%s: %s", is_read ? "load" : "store", gshmem_kv_error());
                inflight[tail++ % 64] = req;
                i += (int64_t)x.n;
                continue;
            }
            gshmem_kv_req_t req = inflight[head++ % 64];

            BENCH_CHECK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT) == 0, "wait: %s",
                        gshmem_kv_error());
            if (head == 1) {
                gshmem_kv_req_stats(kv, req, &st);
                BENCH_CHECK(st.ops == st.blocks, "%llu I/Os for %llu blocks: runs coalesced",
                            (unsigned long long)st.ops, (unsigned long long)st.blocks);
            }
            gshmem_kv_req_free(kv, req);
        }
        if (r >= 0)
            s[r] = (double)(bench_now_ns() - t0) / 1e9;
    }
    sec = median(s, rounds);
    snprintf(bench, sizeof bench, "kv_fio_%s", name);
    snprintf(figures, sizeof figures, "\"MBps\":%.1f,\"iops\":%.0f",
             (double)n * (double)bs / sec / 1e6, (double)n / sec);
    report(bench, bench_impl(), bs, figures);
    BENCH_CHECK(gshmem_kv_file_close(kv, f) == 0, "file_close: %s", gshmem_kv_error());
    BENCH_CHECK(gshmem_kv_layout_deregister(kv, id) == 0, "deregister: %s", gshmem_kv_error());
    free(mem), free(slots), free(ids), free(s);
}

/* The word w of piece (region q, block b): different in every word of
 * the cache, so that a piece in the wrong place or missing shows. */
static uint64_t word(int q, int64_t b, size_t w)
{
    return ((uint64_t)q << 48 | (uint64_t)b << 32 | w) * 0x9e3779b97f4a7c15ull;
}

static void ll_fill(unsigned char *const *reg)
{
    for (int q = 0; q < LL_LAYERS * LL_REGIONS; q++)
        for (int64_t b = 0; b < LL_BLOCKS; b++) {
            uint64_t *p = (uint64_t *)(reg[q] + (size_t)b * LL_BYTES);

            for (size_t w = 0; w < LL_BYTES / 8; w++)
                p[w] = word(q, b, w);
        }
}

static void ll_check(unsigned char *const *reg, const char *what)
{
    for (int q = 0; q < LL_LAYERS * LL_REGIONS; q++)
        for (int64_t b = 0; b < LL_BLOCKS; b++) {
            const uint64_t *p = (const uint64_t *)(reg[q] + (size_t)b * LL_BYTES);

            for (size_t w = 0; w < LL_BYTES / 8; w++)
                BENCH_CHECK(p[w] == word(q, b, w), "%s: layer %d %s block %lld word %zu wrong",
                            what, q / LL_REGIONS, q % LL_REGIONS ? "V" : "K", (long long)b, w);
        }
}

/* The loop without the library: a piece at a time, at the offsets the
 * tier uses (slot b, then layer by layer, K before V). */
static double ll_plain(int fd, unsigned char *const *reg, int is_read)
{
    int64_t t0 = bench_now_ns();

    for (int64_t b = 0; b < LL_BLOCKS; b++)
        for (int q = 0; q < LL_LAYERS * LL_REGIONS; q++) {
            unsigned char *m = reg[q] + (size_t)b * LL_BYTES;
            off_t off = (off_t)((b * LL_LAYERS * LL_REGIONS + q) * (int64_t)LL_BYTES);
            ssize_t k = is_read ? pread(fd, m, LL_BYTES, off) : pwrite(fd, m, LL_BYTES, off);

            BENCH_CHECK(k == LL_BYTES, "%s at %lld: %s", is_read ? "pread" : "pwrite",
                        (long long)off, k < 0 ? strerror(errno) : "short");
        }
    return (double)(bench_now_ns() - t0) / 1e9;
}

static void llama(void)
{
    const size_t region = (size_t)LL_BLOCKS * LL_BYTES + PAGE; /* a page apart, as kv_file_test */
    const size_t slot = (size_t)LL_LAYERS * LL_REGIONS * LL_BYTES;
    const double bytes = (double)LL_BLOCKS * (double)slot;
    double *t[2][2]; /* [ours, plain][store, load] */
    unsigned char *mem, *reg[LL_LAYERS * LL_REGIONS];
    int64_t ids[LL_BLOCKS];
    gshmem_kv_layout_t lay = {0};
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_stats_t st = {0};
    gshmem_kv_file_t *f;
    int id, fd;
    static const char *names[2] = {"kv_fio_llama_offload", "kv_fio_llama_reload"};

    BENCH_CHECK(posix_memalign((void **)&mem, PAGE, region * LL_LAYERS * LL_REGIONS) == 0,
                "out of memory for the cache");
    for (int q = 0; q < LL_LAYERS * LL_REGIONS; q++)
        reg[q] = mem + (size_t)q * region;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            BENCH_CHECK((t[i][j] = malloc((size_t)rounds * sizeof(double))) != NULL, "malloc");
    for (int64_t b = 0; b < LL_BLOCKS; b++)
        ids[b] = b;
    lay.n_layers = LL_LAYERS, lay.regions_per_layer = LL_REGIONS, lay.n_blocks = LL_BLOCKS;
    lay.block_bytes = LL_BYTES, lay.region_base = (void *const *)reg;
    BENCH_CHECK(gshmem_kv_layout_register(kv, &lay, &id) == 0, "layout_register: %s",
                gshmem_kv_error());
    f = file_open(slot, (uint64_t)bytes);
    fd = open(path, O_RDWR | O_DIRECT);
    BENCH_CHECK(fd >= 0, "open %s O_DIRECT: %s", path, strerror(errno));
    x.layout = id, x.n_layers = LL_LAYERS, x.n = LL_BLOCKS, x.local_blocks = ids;
    for (long r = -warmup; r < rounds; r++)
        for (int k = 0; k < 2; k++) {
            int side = (int)((r + k) & 1); /* who goes first turns each round */
            double s[2];

            ll_fill(reg);
            if (side == 0) {
                int64_t t0 = bench_now_ns();

                xfer(f, &x, 0, &st);
                s[0] = (double)(bench_now_ns() - t0) / 1e9;
            } else {
                s[0] = ll_plain(fd, reg, 0);
            }
            memset(mem, 0, region * LL_LAYERS * LL_REGIONS);
            if (side == 0) {
                int64_t t0 = bench_now_ns();

                xfer(f, &x, 1, NULL);
                s[1] = (double)(bench_now_ns() - t0) / 1e9;
            } else {
                s[1] = ll_plain(fd, reg, 1);
            }
            ll_check(reg, side == 0 ? "gshmem_kv_file_load" : "pread loop");
            if (r >= 0)
                t[side][0][r] = s[0], t[side][1][r] = s[1];
        }
    BENCH_CHECK(st.ops == (uint64_t)LL_BLOCKS * LL_LAYERS * LL_REGIONS,
                "the store took %llu I/Os, not one per piece", (unsigned long long)st.ops);
    for (int side = 0; side < 2; side++)
        for (int j = 0; j < 2; j++) {
            double sec = median(t[side][j], rounds);
            char figures[128];

            snprintf(figures, sizeof figures, "\"seconds\":%.4f,\"gbps\":%.3f,\"ops\":%d", sec,
                     bytes / sec / 1e9, LL_BLOCKS * LL_LAYERS * LL_REGIONS);
            report(names[j], side == 0 ? bench_impl() : "pwrite", (uint64_t)bytes, figures);
        }
    close(fd);
    BENCH_CHECK(gshmem_kv_file_close(kv, f) == 0, "file_close: %s", gshmem_kv_error());
    BENCH_CHECK(gshmem_kv_layout_deregister(kv, id) == 0, "deregister: %s", gshmem_kv_error());
    for (int i = 0; i < 2; i++)
        free(t[i][0]), free(t[i][1]);
    free(mem);
}

int main(int argc, char **argv)
{
    static const char *const all[] = {"read", "write", "randread", "randwrite"};
    static const size_t sizes[] = {4096, 16384, 65536, 262144, 1048576};
    const char *mode = "all";
    size_t bs = 0;
    int c;

    shmem_init();
    while ((c = getopt(argc, argv, "f:m:b:q:k:s:n:w:W:")) != -1) {
        switch (c) {
        case 'f': path = optarg; break;
        case 'm': mode = optarg; break;
        case 'b': bs = (size_t)parse_size(optarg); break;
        case 'q': qd = atol(optarg); break;
        case 'k': per_req = atol(optarg); break;
        case 's': file_bytes = parse_size(optarg); break;
        case 'n': rounds = atol(optarg); break;
        case 'w': warmup = atol(optarg); break;
        case 'W': window = atol(optarg); break;
        default: BENCH_CHECK(0, "unknown option");
        }
    }
    if (per_req == 0)
        per_req = qd;
    BENCH_CHECK(path && qd >= 1 && qd <= 4096 && per_req >= 1 && rounds >= 1 && warmup >= 0 &&
                    window >= 1 && window <= 64 && file_bytes >= PAGE && file_bytes % PAGE == 0,
                "usage: kv_fio -f FILE [-m read|write|randread|randwrite|all|llama] [-b BYTES] "
                "[-q DEPTH] [-k BLOCKS] [-W REQUESTS] [-s FILE_BYTES] [-n ROUNDS] [-w WARMUP]");
    BENCH_CHECK(shmem_n_pes() == 1, "one PE: the storage tier is local to each PE");
    BENCH_CHECK(gshmem_kv_create(NULL, &kv) == 0, "create: %s", gshmem_kv_error());
    if (strcmp(mode, "llama") == 0) {
        llama();
    } else {
        int known = !strcmp(mode, "all");

        for (size_t j = 0; j < sizeof all / sizeof *all; j++)
            known |= !strcmp(mode, all[j]);
        BENCH_CHECK(known, "-m %s: read, write, randread, randwrite, all or llama", mode);
        lay_out(file_bytes);
        /* -b: that size only; else fio's usual ladder. */
        for (size_t i = 0; i < (bs ? 1 : sizeof sizes / sizeof *sizes); i++)
            for (size_t j = 0; j < sizeof all / sizeof *all; j++)
                if (!strcmp(mode, "all") || !strcmp(mode, all[j]))
                    pattern(all[j], bs ? bs : sizes[i]);
    }
    gshmem_kv_destroy(kv);
    shmem_finalize();
    return 0;
}
