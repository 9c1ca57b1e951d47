/*
 * tests/kv/kv_test.h - what the KV tests share: pools (a layout's regions
 * in one buffer, a gap between regions so that no run crosses one), a
 * pattern that differs by PE, pool and byte, and the check of a whole
 * pool against what it should hold.  Over pe_test.h's checks and verdict.
 */
#ifndef KV_TEST_H
#define KV_TEST_H

#include "../pe/pe_test.h"

#include <gshmem_kv.h>
#include <shmem.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KT_GAP 64 /* bytes between two regions */

typedef struct kt_pool {
    int n_layers, rpl;
    int64_t n_blocks;
    size_t bytes, stride, region; /* region: n_blocks * stride + KT_GAP */
    int symmetric;                /* shmem_malloc'd (collective) or malloc'd */
    unsigned char *mem;
    size_t size;
    void **base; /* [n_layers * rpl] */
    gshmem_kv_layout_t layout;
} kt_pool_t;

/* The byte at offset o of PE pe's pool tagged tag. */
static inline unsigned char kt_pat(int pe, int tag, size_t o)
{
    uint32_t x = (uint32_t)o * 2654435761u + (uint32_t)pe * 40503u + (uint32_t)tag * 977u;

    return (unsigned char)((x >> 13) ^ (x >> 24) ^ o);
}

/* Collective when symmetric (every PE passes the same shape). */
PT_UNUSED static void kt_pool_init(kt_pool_t *p, int n_layers, int rpl, int64_t n_blocks,
                                   size_t bytes, size_t stride, int symmetric)
{
    int n = n_layers * rpl;

    memset(p, 0, sizeof *p);
    p->n_layers = n_layers, p->rpl = rpl, p->n_blocks = n_blocks;
    p->bytes = bytes, p->stride = stride ? stride : bytes;
    p->region = (size_t)n_blocks * p->stride + KT_GAP;
    p->size = (size_t)n * p->region;
    p->symmetric = symmetric;
    p->mem = symmetric ? (unsigned char *)shmem_malloc(p->size)
                       : (unsigned char *)malloc(p->size);
    p->base = (void **)malloc((size_t)n * sizeof(void *));
    if (p->mem == NULL || p->base == NULL) {
        fprintf(stderr, "kv test: PE %d: out of memory for a pool of %zu bytes\n", pt_me,
                p->size);
        shmem_global_exit(1);
    }
    for (int i = 0; i < n; i++)
        p->base[i] = p->mem + (size_t)i * p->region;
    p->layout.n_layers = n_layers, p->layout.regions_per_layer = rpl;
    p->layout.n_blocks = n_blocks, p->layout.block_bytes = bytes;
    p->layout.block_stride = stride;
    p->layout.region_base = p->base;
}

/* Collective when symmetric. */
PT_UNUSED static void kt_pool_fini(kt_pool_t *p)
{
    if (p->symmetric)
        shmem_free(p->mem);
    else
        free(p->mem);
    free(p->base);
}

PT_UNUSED static void kt_fill(kt_pool_t *p, int pe, int tag)
{
    for (size_t o = 0; o < p->size; o++)
        p->mem[o] = kt_pat(pe, tag, o);
}

/* Offset in the pool of byte k of block b of region r of layer l. */
static inline size_t kt_off(const kt_pool_t *p, int l, int r, int64_t b, size_t k)
{
    return (size_t)(l * p->rpl + r) * p->region + (size_t)b * p->stride + k;
}

/* What a transfer does to a destination pool (exp, its expected bytes):
 * the slice of each listed block of the layers and regions given comes
 * from the source PE's pattern (src_tag) at the source's block. */
PT_UNUSED static void kt_apply(const kt_pool_t *dst, unsigned char *exp, const kt_pool_t *src,
                               int src_pe, int src_tag, const gshmem_kv_xfer_t *x,
                               const int64_t *dst_ids, const int64_t *src_ids)
{
    uint32_t mask = x->region_mask ? x->region_mask : (1u << dst->rpl) - 1;
    size_t len = x->length ? x->length : dst->bytes - x->offset;

    for (int l = x->layer_first; l < x->layer_first + x->n_layers; l++)
        for (int r = 0; r < dst->rpl; r++) {
            if (!(mask >> r & 1))
                continue;
            for (size_t i = 0; i < x->n; i++)
                for (size_t k = x->offset; k < x->offset + len; k++)
                    exp[kt_off(dst, l, r, dst_ids[i], k)] =
                        kt_pat(src_pe, src_tag, kt_off(src, l, r, src_ids[i], k));
        }
}

/* Every byte of the pool against exp: one failure line per pool (the
 * first wrong byte and how many are wrong). */
PT_UNUSED static void kt_check_pool(const char *what, const kt_pool_t *p,
                                    const unsigned char *exp)
{
    size_t bad = 0, first = 0;

    for (size_t o = 0; o < p->size; o++)
        if (p->mem[o] != exp[o] && bad++ == 0)
            first = o;
    PT_CHECK_EQ_F(what, (size_t)0, bad,
                  "wrong bytes in the pool (first at offset %zu: %u, not %u)", first,
                  bad ? p->mem[first] : 0, bad ? exp[first] : 0);
}

/* The runs the library should post: a new one wherever the next block is
 * not the next on both sides (pools with a gap, full blocks, stride ==
 * bytes), per layer and region. */
PT_UNUSED static uint64_t kt_runs(const gshmem_kv_xfer_t *x, int rpl, int contiguous)
{
    uint32_t mask = x->region_mask ? x->region_mask : (1u << rpl) - 1;
    const int64_t *rb = x->remote_blocks ? x->remote_blocks : x->local_blocks;
    uint64_t per = 0;
    int nreg = 0;

    for (size_t i = 0; i < x->n; i++)
        per += i == 0 || !contiguous || x->local_blocks[i] != x->local_blocks[i - 1] + 1 ||
               rb[i] != rb[i - 1] + 1;
    for (int r = 0; r < rpl; r++)
        nreg += (int)(mask >> r & 1);
    return per * (uint64_t)nreg * (uint64_t)x->n_layers;
}

#define KT_OK(call)                                                                            \
    do {                                                                                       \
        int kt_rc_ = (call);                                                                   \
        PT_CHECK_EQ_F(#call, 0, kt_rc_, "status (%s)", gshmem_kv_status_str(kt_rc_));          \
    } while (0)

/* A call that must fail with status and say phrase in gshmem_kv_error(). */
#define EXPECT_ERR(call, status, phrase)                                                       \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        PT_CHECK_EQ_F(#call, (status), rc_, "status");                                         \
        PT_CHECK(#call, strstr(gshmem_kv_error(), (phrase)) != NULL, phrase);                  \
    } while (0)

#endif /* KV_TEST_H */
