/*
 * tests/pe/order.c - memory ordering: shmem_fence, shmem_quiet,
 * shmem_pe_quiet and their ctx forms.  The pattern is "data, then flag":
 * each PE puts a block into its right neighbour, orders, then writes a
 * flag; the neighbour waits for the flag alone (no barrier) and must then
 * see the whole block.  An acknowledgement back keeps the rounds apart.
 * Also: two puts to one word separated by a fence land in order, an atomic
 * add fenced before a flag is visible once the flag is, and operations of
 * a word and of a 64 KiB block to one PE keep their order (UCX over TCP
 * sends the first as active messages and the second as RMA).
 */
#include "pe_test.h"

#define SZ (64 * 1024)
#define ROUNDS 8

static int me, npes, left, right;
static unsigned char *data; /* SZ bytes, written by the left neighbour */
static long *flag, *ack, *word;

static unsigned char pat(int pe, long round, long i)
{
    return (unsigned char)(i * 13 + pe * 7 + round * 31 + (i >> 8));
}

enum { V_FENCE, V_CTX_FENCE, V_QUIET, V_CTX_QUIET, V_PE_QUIET, V_CTX_PE_QUIET, NV };
static const char *const vname[NV] = {"shmem_fence",    "shmem_ctx_fence",
                                      "shmem_quiet",    "shmem_ctx_quiet",
                                      "shmem_pe_quiet", "shmem_ctx_pe_quiet"};

static void data_then_flag(int v, shmem_ctx_t ctx, unsigned char *src, long *base)
{
    long r, i;

    for (r = 1; r <= ROUNDS; r++) {
        long seq = *base + r;

        for (i = 0; i < SZ; i++)
            src[i] = pat(me, seq, i);
        if (r > 1) /* the right neighbour has read the last block */
            shmem_long_wait_until(ack, SHMEM_CMP_GE, seq - 1);
        switch (v) {
        case V_FENCE:
            shmem_putmem_nbi(data, src, SZ, right);
            shmem_fence();
            shmem_long_atomic_set(flag, seq, right);
            break;
        case V_CTX_FENCE:
            shmem_ctx_putmem_nbi(ctx, data, src, SZ, right);
            shmem_ctx_fence(ctx);
            shmem_ctx_long_atomic_set(ctx, flag, seq, right);
            shmem_ctx_quiet(ctx); /* the flag itself must leave */
            break;
        case V_QUIET:
            shmem_putmem_nbi(data, src, SZ, right);
            shmem_quiet();
            shmem_long_p(flag, seq, right);
            break;
        case V_CTX_QUIET:
            shmem_ctx_putmem_nbi(ctx, data, src, SZ, right);
            shmem_ctx_quiet(ctx);
            shmem_long_p(flag, seq, right);
            break;
#if PT_SPEC >= 106
        case V_PE_QUIET:
            shmem_putmem_nbi(data, src, SZ, right);
            shmem_pe_quiet(&right, 1);
            shmem_long_p(flag, seq, right);
            break;
        case V_CTX_PE_QUIET: {
            int pes[2] = {left, right};

            shmem_ctx_putmem_nbi(ctx, data, src, SZ, right);
            shmem_ctx_pe_quiet(ctx, pes, 2);
            shmem_long_p(flag, seq, right);
            break;
        }
#endif
        }
        shmem_long_wait_until(flag, SHMEM_CMP_GE, seq);
        for (i = 0; i < SZ; i++)
            if (data[i] != pat(left, seq, i)) {
                PT_CHECK_EQ_F(vname[v], pat(left, seq, i), data[i],
                              "byte %ld of round %ld's block, read once the flag showed", i, r);
                break;
            }
        shmem_long_atomic_set(ack, seq, left);
    }
    shmem_quiet();
    shmem_barrier_all();
    *base += ROUNDS;
}

/* p 1, fence, p 2 into one word of the right neighbour: 2 must win. */
static void fence_same_word(shmem_ctx_t ctx)
{
    long r;

    for (r = 0; r < ROUNDS; r++) {
        word[0] = word[1] = -1;
        shmem_barrier_all();
        shmem_long_p(&word[0], 2 * r + 1, right);
        shmem_fence();
        shmem_long_p(&word[0], 2 * r + 2, right);
        shmem_ctx_long_p(ctx, &word[1], 2 * r + 1, right);
        shmem_ctx_fence(ctx);
        shmem_ctx_long_p(ctx, &word[1], 2 * r + 2, right);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        PT_CHECK_EQ_F("shmem_fence", 2 * r + 2, word[0],
                      "the word after p, fence, p (round %ld)", r);
        PT_CHECK_EQ_F("shmem_ctx_fence", 2 * r + 2, word[1],
                      "the word after p, fence, p (round %ld)", r);
    }
}

/* add, fence, flag: once the flag shows, the add has happened. */
static void fence_amo_then_flag(void)
{
    long r;

    word[2] = 0;
    *flag = 0;
    shmem_barrier_all();
    for (r = 1; r <= ROUNDS; r++) {
        long v;

        shmem_long_atomic_add(&word[2], 10, right);
        shmem_fence();
        shmem_long_atomic_set(flag, r, right);
        shmem_long_wait_until(flag, SHMEM_CMP_GE, r);
        v = shmem_long_atomic_fetch(&word[2], me);
        if (v < 10 * r) /* the left PE may be a round ahead: more is fine */
            PT_CHECK_EQ_F("shmem_fence", 10 * r, v,
                          "the added word once the flag of round %ld showed (at least)", r);
    }
    shmem_quiet();
    shmem_barrier_all();
}

/* The long at index k of a block of pat(pe, seq, .) bytes. */
static long pat_long(int pe, long seq, long k)
{
    unsigned char b[sizeof(long)];
    long v;

    for (size_t i = 0; i < sizeof(long); i++)
        b[i] = pat(pe, seq, k * (long)sizeof(long) + (long)i);
    memcpy(&v, b, sizeof(v));
    return v;
}

/* Words and blocks to the right neighbour's data: p, fence, block (the
 * block wins); block, fence, p (the word wins); p, then a get of the block,
 * then a get or a fetch of a word of a block just put (each sees the
 * earlier put). */
static void words_and_blocks(unsigned char *src, long *base)
{
    long *mine = (long *)data, got[8];
    unsigned char *back = malloc(SZ);
    long r, i;

    PT_CHECK("malloc", back != NULL, "the read-back buffer");
    for (r = 1; back && r <= ROUNDS; r++) {
        long seq = *base + r;

        for (i = 0; i < SZ; i++)
            src[i] = pat(me, seq, i);
        shmem_barrier_all();
        shmem_long_p((long *)data, -r, right);
        shmem_fence();
        shmem_putmem(data, src, SZ, right);
        shmem_quiet();
        shmem_barrier_all();
        PT_CHECK_EQ_F("shmem_fence", pat_long(left, seq, 0), mine[0],
                      "word 0 after p, fence, block put (round %ld)", r);

        shmem_barrier_all();
        shmem_putmem(data, src, SZ, right);
        shmem_fence();
        shmem_long_p((long *)data + 1, -r, right);
        shmem_quiet();
        shmem_barrier_all();
        PT_CHECK_EQ_F("shmem_fence", -r, mine[1],
                      "word 1 after block put, fence, p (round %ld)", r);
        PT_CHECK_EQ_F("shmem_fence", pat_long(left, seq, 2), mine[2],
                      "word 2 after block put, fence, p (round %ld)", r);

        shmem_barrier_all();
        shmem_long_p((long *)data + 3, 1000 + r, right);
        shmem_getmem(back, data, SZ, right);
        memcpy(got, back, sizeof(got));
        PT_CHECK_EQ_F("shmem_getmem", 1000 + r, got[3],
                      "word 3 of a block get after p (round %ld)", r);
        shmem_putmem(data, src, SZ, right);
        got[4] = shmem_long_g((long *)data + 4, right);
        PT_CHECK_EQ_F("shmem_long_g", pat_long(me, seq, 4), got[4],
                      "word 4 of a block just put (round %ld)", r);
        shmem_putmem(data, src, SZ, right);
        got[5] = shmem_long_atomic_fetch_add((long *)data + 5, 0, right);
        PT_CHECK_EQ_F("shmem_long_atomic_fetch_add", pat_long(me, seq, 5), got[5],
                      "word 5 of a block just put (round %ld)", r);
        shmem_barrier_all();
    }
    *base += ROUNDS;
    free(back);
}

int main(void)
{
    shmem_ctx_t ctx;
    unsigned char *src;
    long base = 0;
    int v;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    data = shmem_malloc(SZ);
    flag = shmem_calloc(8, sizeof(long));
    src = malloc(SZ);
    PT_CHECK("shmem_malloc", data != NULL && flag != NULL && src != NULL, "the buffers");
    if (data == NULL || flag == NULL || src == NULL)
        return pt_finish();
    ack = flag + 1;
    word = flag + 2;
    ctx = pt_ctx_create();
    shmem_barrier_all();

    for (v = 0; v < NV; v++) {
#if PT_SPEC < 106
        if (v == V_PE_QUIET || v == V_CTX_PE_QUIET)
            continue;
#endif
        data_then_flag(v, ctx, src, &base);
    }
    fence_same_word(ctx);
    fence_amo_then_flag();
    words_and_blocks(src, &base);

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    free(src);
    shmem_free(flag);
    shmem_free(data);
    return pt_finish();
}
