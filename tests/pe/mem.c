/*
 * tests/pe/mem.c - symmetric heap management: shmem_malloc, shmem_calloc
 * (zeroed even where the memory was used before), shmem_align (alignment),
 * shmem_realloc (contents kept, growing and shrinking), shmem_free (NULL is
 * a no-op), shmem_malloc_with_hints and the deprecated shmalloc, shfree,
 * shrealloc and shmemalign.  Every block is symmetric: it lies at the same
 * offset of the heap on every PE (gshmem's allocator is deterministic),
 * shmem_addr_accessible says every PE reaches it, shmem_ptr finds it at
 * that offset of each mapped peer's heap, and RMA from the other PEs lands
 * in it; and it does not overlap the others.  The heap's own address may
 * differ from PE to PE (it asks for one, but ASLR or a sanitizer's shadow
 * memory may hold that range), so offsets are measured from another
 * symmetric block, the first one allocated.  A request larger than the heap
 * (SHMEM_SYMMETRIC_SIZE, set to 64M here unless the caller set it) returns
 * NULL on every PE, and the heap stays usable afterwards.
 */
#include "pe_test.h"
#include <stdint.h>

#define HEAP_SIZE "64M"
#define HEAP_BYTES (64UL << 20)

static int me, npes, left, right;
/* The first block: the others' distances from it are their heap offsets
 * (up to a constant), the same on every PE.  It also carries PE 0's
 * distance of the block being checked. */
static int64_t *anchor;

/* p's distance from the anchor; INT64_MIN for NULL (a failed allocation
 * must fail on every PE alike). */
static int64_t distance(const void *p)
{
    return p ? (int64_t)((intptr_t)p - (intptr_t)anchor) : INT64_MIN;
}

/* Collective: the block must be symmetric (see the top of the file). */
static void check_symmetric(const char *routine, const void *p, const char *what)
{
    int64_t d;
    int pe;

    if (me == 0)
        *anchor = distance(p);
    shmem_barrier_all();
    d = shmem_int64_g(anchor, 0);
    PT_CHECK_EQ_F(routine, d, distance(p),
                  "heap offset of %s, from the first block "
                  "(expected: PE 0's)",
                  what);
    for (pe = 0; p != NULL && pe < npes; pe++) {
        const char *peer = shmem_ptr(p, pe), *peer_anchor = shmem_ptr(anchor, pe);

        PT_CHECK_EQ_F(routine, 1, shmem_addr_accessible(p, pe),
                      "shmem_addr_accessible(%s, PE %d)", what, pe);
        if (pe == me)
            PT_CHECK_EQ_F(routine, (uintptr_t)p, (uintptr_t)peer,
                          "shmem_ptr(%s, this PE) (expected: the block itself)", what);
        if (peer != NULL && peer_anchor != NULL)
            PT_CHECK_EQ_F(routine, distance(p), (int64_t)(peer - peer_anchor),
                          "offset of %s from the first block in PE %d's heap, through "
                          "shmem_ptr",
                          what, pe);
    }
    shmem_barrier_all();
}

static unsigned char fill_byte(int pe, int block)
{
    return (unsigned char)(0x11 * (block + 1) + pe);
}

/* Collective: each PE writes fill_byte(me, block) over its right neighbour's
 * copy of the block with a put, then checks its own copy holds the left
 * neighbour's byte everywhere.  Starts with a barrier: the neighbour may
 * still be reading what the block held. */
static void check_remote_fill(const char *routine, unsigned char *p, size_t n, int block)
{
    unsigned char *buf = malloc(n);
    size_t i;

    if (buf == NULL || p == NULL) { /* a failure already reported */
        free(buf);
        return;
    }
    memset(buf, fill_byte(me, block), n);
    shmem_barrier_all();
    shmem_putmem(p, buf, n, right);
    shmem_barrier_all();
    for (i = 0; i < n; i++)
        if (p[i] != fill_byte(left, block)) {
            PT_CHECK_EQ_F(routine, fill_byte(left, block), p[i],
                          "byte %zu of a %zu-byte block put by PE %d (first wrong one)", i, n,
                          left);
            break;
        }
    shmem_barrier_all();
    free(buf);
}

static void test_malloc(void)
{
    static const size_t size[] = {1, 7, 64, 4096, 100000, 1 << 20};
    unsigned char *p[6];
    size_t i, j;

    for (i = 0; i < 6; i++) {
        p[i] = shmem_malloc(size[i]);
        PT_CHECK_EQ_F("shmem_malloc", 1, p[i] != NULL, "a block of %zu bytes", size[i]);
        check_symmetric("shmem_malloc", p[i], "a new block");
    }
    for (i = 0; i < 6; i++)
        check_remote_fill("shmem_malloc", p[i], size[i], (int)i);
    /* no block was overwritten by the puts into the others */
    for (i = 0; i < 6; i++)
        for (j = 0; p[i] && j < size[i]; j++)
            if (p[i][j] != fill_byte(left, (int)i)) {
                PT_CHECK_EQ_F("shmem_malloc", fill_byte(left, (int)i), p[i][j],
                              "byte %zu of block %zu after filling the others (overlap)", j, i);
                break;
            }
    /* free in a different order, then allocate again: same on every PE */
    for (i = 0; i < 6; i += 2)
        shmem_free(p[i]);
    p[0] = shmem_malloc(3000);
    check_symmetric("shmem_malloc", p[0], "a block allocated after frees");
    check_remote_fill("shmem_malloc", p[0], 3000, 7);
    shmem_free(p[0]);
    for (i = 1; i < 6; i += 2)
        shmem_free(p[i]);
    shmem_free(NULL); /* no action */
    p[0] = shmem_malloc(0);
    shmem_free(p[0]); /* whatever malloc(0) returned can be freed */
}

static void test_calloc(void)
{
    size_t n = 256 * 1024, i;
    unsigned char *dirty = shmem_malloc(n), *z;
    long *zl;

    if (dirty != NULL)
        memset(dirty, 0xAB, n);
    shmem_barrier_all();
    shmem_free(dirty); /* calloc may get this memory back: it must clear it */
    z = shmem_calloc(n, 1);
    PT_CHECK("shmem_calloc", z != NULL, "a block");
    check_symmetric("shmem_calloc", z, "a calloc block");
    for (i = 0; z && i < n; i++)
        if (z[i] != 0) {
            PT_CHECK_EQ_F("shmem_calloc", 0, z[i], "byte %zu (first nonzero one)", i);
            break;
        }
    zl = shmem_calloc(1000, sizeof(long));
    for (i = 0; zl && i < 1000; i++)
        if (zl[i] != 0) {
            PT_CHECK_EQ_F("shmem_calloc", 0, zl[i], "element %zu of 1000 longs", i);
            break;
        }
    check_remote_fill("shmem_calloc", z, n, 3);
    shmem_free(zl);
    shmem_free(z);
    /* a zero count or size gives a null pointer */
    PT_CHECK_PTR("shmem_calloc", NULL, shmem_calloc(0, 8));
    PT_CHECK_PTR("shmem_calloc", NULL, shmem_calloc(8, 0));
}

static void test_align(void)
{
    static const size_t align[] = {8, 64, 256, 4096, 65536, 1 << 20};
    size_t i;

    for (i = 0; i < 6; i++) {
        unsigned char *pad = shmem_malloc(24); /* move the heap off any boundary */
        unsigned char *p = shmem_align(align[i], 1000);

        PT_CHECK_EQ_F("shmem_align", 1, p != NULL, "a block aligned to %zu", align[i]);
        PT_CHECK_EQ_F("shmem_align", 0, (uintptr_t)p % align[i],
                      "address modulo the alignment %zu", align[i]);
        check_symmetric("shmem_align", p, "an aligned block");
        check_remote_fill("shmem_align", p, 1000, (int)i);
        shmem_free(p);
        shmem_free(pad);
    }
}

static void test_realloc(void)
{
    unsigned char *p = shmem_malloc(100), *blocker, *q;
    size_t i;

    PT_CHECK("shmem_malloc", p != NULL, "a block");
    if (p == NULL)
        return;
    for (i = 0; i < 100; i++)
        p[i] = (unsigned char)(i + me);
    blocker = shmem_malloc(64); /* so that growing p cannot happen in place */
    shmem_barrier_all();
    q = shmem_realloc(p, 200000);
    PT_CHECK("shmem_realloc", q != NULL, "a grown block");
    check_symmetric("shmem_realloc", q, "a grown block");
    for (i = 0; q && i < 100; i++)
        PT_CHECK_EQ_F("shmem_realloc", (unsigned char)(i + me), q[i],
                      "byte %zu kept by growing 100 -> 200000 bytes", i);
    check_remote_fill("shmem_realloc", q, 200000, 4);
    p = shmem_realloc(q, 50);
    PT_CHECK("shmem_realloc", p != NULL, "a shrunk block");
    check_symmetric("shmem_realloc", p, "a shrunk block");
    for (i = 0; p && i < 50; i++)
        PT_CHECK_EQ_F("shmem_realloc", fill_byte(left, 4), p[i],
                      "byte %zu kept by shrinking to 50 bytes", i);
    q = shmem_realloc(NULL, 300); /* as shmem_malloc */
    PT_CHECK("shmem_realloc", q != NULL, "a block from a NULL pointer");
    check_symmetric("shmem_realloc", q, "realloc(NULL, 300)");
    check_remote_fill("shmem_realloc", q, 300, 5);
    shmem_free(q);
    /* size 0 frees the block: its space can be allocated again */
    shmem_realloc(p, 0);
    shmem_free(blocker);
    p = shmem_malloc(200000);
    PT_CHECK("shmem_malloc", p != NULL, "a block after realloc(p, 0)");
    check_remote_fill("shmem_malloc", p, 200000, 10);
    shmem_free(p);
}

static void test_hints(void)
{
#if PT_SPEC >= 105
    static const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                                 SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
    int i;

    for (i = 0; i < 4; i++) {
        long *p = shmem_malloc_with_hints(16 * sizeof(long), hints[i]);

        PT_CHECK_EQ_F("shmem_malloc_with_hints", 1, p != NULL, "a block with hints %ld",
                      hints[i]);
        if (p == NULL)
            continue;
        check_symmetric("shmem_malloc_with_hints", p, "a block with hints");
        p[3] = 0;
        shmem_barrier_all();
        shmem_long_atomic_add(&p[3], me + 1, 0);
        shmem_barrier_all();
        if (me == 0)
            PT_CHECK_EQ_F("shmem_malloc_with_hints", (long)npes * (npes + 1) / 2, p[3],
                          "a word of a block with hints %ld after every PE added", hints[i]);
        shmem_barrier_all();
        shmem_free(p);
    }
#endif
}

static void test_legacy(void)
{
    unsigned char *p = shmalloc(512), *a, *q;
    size_t i;

    PT_CHECK("shmalloc", p != NULL, "a block");
    check_symmetric("shmalloc", p, "a shmalloc block");
    check_remote_fill("shmalloc", p, 512, 1);
    a = shmemalign(4096, 128);
    PT_CHECK("shmemalign", a != NULL, "a block");
    PT_CHECK_EQ("shmemalign", 0, (uintptr_t)a % 4096);
    check_symmetric("shmemalign", a, "a shmemalign block");
    q = shrealloc(p, 8192);
    PT_CHECK("shrealloc", q != NULL, "a grown block");
    check_symmetric("shrealloc", q, "a shrealloc block");
    for (i = 0; q && i < 512; i++)
        PT_CHECK_EQ_F("shrealloc", fill_byte(left, 1), q[i], "byte %zu kept", i);
    check_remote_fill("shrealloc", q, 8192, 2);
    shfree(q);
    shfree(a);
}

/* A request beyond the heap fails on every PE (NULL, no abort), and the
 * blocks allocated before are intact; the heap stays usable. */
static void test_exhaustion(void)
{
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    int ours = env != NULL && strcmp(env, HEAP_SIZE) == 0;
    unsigned char *keep = shmem_malloc(4096), *p;

    check_remote_fill("shmem_malloc", keep, 4096, 6);
    p = shmem_malloc((size_t)1 << 46);
    PT_CHECK_PTR("shmem_malloc", NULL, p);
    shmem_free(p);
    p = shmem_calloc(SIZE_MAX / 2, 4); /* count * size overflows */
    PT_CHECK_PTR("shmem_calloc", NULL, p);
    shmem_free(p);
    if (ours) {
        p = shmem_malloc(HEAP_BYTES + 4096);
        PT_CHECK_PTR("shmem_malloc", NULL, p);
        shmem_free(p);
        p = shmem_calloc(HEAP_BYTES / 8 + 1, 8);
        PT_CHECK_PTR("shmem_calloc", NULL, p);
        shmem_free(p);
        p = shmem_align(4096, HEAP_BYTES + 4096);
        PT_CHECK_PTR("shmem_align", NULL, p);
        shmem_free(p);
        p = shmem_malloc(16 << 20); /* a quarter of the heap still fits */
        PT_CHECK("shmem_malloc", p != NULL, "a 16 MiB block in a 64 MiB heap");
        check_symmetric("shmem_malloc", p, "a block after failed requests");
        check_remote_fill("shmem_malloc", p, 16 << 20, 8);
        shmem_free(p);
    }
    p = shmem_realloc(keep, (size_t)1 << 46);
    PT_CHECK_PTR("shmem_realloc", NULL, p);
    /* a failed realloc leaves the block alone */
    if (keep != NULL && keep[4095] != fill_byte(left, 6))
        PT_CHECK_EQ_F("shmem_realloc", fill_byte(left, 6), keep[4095],
                      "last byte of a block whose realloc failed");
    check_remote_fill("shmem_malloc", keep, 4096, 9);
    shmem_free(keep);
}

int main(void)
{
    setenv("SHMEM_SYMMETRIC_SIZE", HEAP_SIZE, 0);
    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    anchor = shmem_malloc(sizeof *anchor);
    PT_CHECK("shmem_malloc", anchor != NULL, "a word");
    if (anchor == NULL)
        return pt_finish();

    test_malloc();
    test_calloc();
    test_align();
    test_realloc();
    test_hints();
    test_legacy();
    test_exhaustion();

    shmem_free(anchor);
    return pt_finish();
}
