/*
 * tests/kv/kv_store_test.h - what the block-store tests share: keys made
 * from numbers, a block filled from its key (so that any reader can tell
 * which key's bytes it holds), and put/get of one call, waited for.
 */
#ifndef KV_STORE_TEST_H
#define KV_STORE_TEST_H

#include "kv_file_test.h"

/* Key number i (the second half is fixed: a key is 16 bytes, not a number). */
PT_UNUSED static gshmem_kv_key_t ks_key(uint64_t i)
{
    gshmem_kv_key_t k;
    uint64_t tag = 0x6b7673746f726521ull;

    memcpy(k.b, &i, 8);
    memcpy(k.b + 8, &tag, 8);
    return k;
}

PT_UNUSED static unsigned char ks_byte(uint64_t key, int l, int r, size_t k)
{
    return (unsigned char)(key * 29 + (uint64_t)l * 7 + (uint64_t)r * 13 + k * 3 + (k >> 8));
}

/* Block b of every layer and region of p holds key's bytes. */
PT_UNUSED static void ks_fill(kf_pool_t *p, int64_t b, uint64_t key)
{
    for (int l = 0; l < p->n_layers; l++)
        for (int r = 0; r < p->rpl; r++)
            for (size_t k = 0; k < p->bytes; k++)
                *kf_at(p, l, r, b, k) = ks_byte(key, l, r, k);
}

/* How many bytes of block b differ from key's (every layer and region). */
PT_UNUSED static size_t ks_diff(const kf_pool_t *p, int64_t b, uint64_t key)
{
    size_t bad = 0;

    for (int l = 0; l < p->n_layers; l++)
        for (int r = 0; r < p->rpl; r++)
            for (size_t k = 0; k < p->bytes; k++)
                bad += *kf_at(p, l, r, b, k) != ks_byte(key, l, r, k);
    return bad;
}

/* A whole-block transfer of layout lid: blocks[0 .. n). */
PT_UNUSED static gshmem_kv_xfer_t ks_xfer(int lid, int n_layers, const int64_t *blocks,
                                          size_t n)
{
    gshmem_kv_xfer_t x;

    memset(&x, 0, sizeof x);
    x.layout = lid, x.n_layers = n_layers, x.n = n, x.local_blocks = blocks;
    return x;
}

/* put (is_get 0) or get of keys into/from blocks, waited for: the call's
 * status if it failed, else the request's. */
PT_UNUSED static int ks_io(gshmem_kv_t *kv, gshmem_kv_store_t *st, int is_get,
                           const gshmem_kv_key_t *keys, const gshmem_kv_xfer_t *x)
{
    gshmem_kv_req_t req = 0;
    int rc = is_get ? gshmem_kv_store_get(kv, st, keys, x, &req)
                    : gshmem_kv_store_put(kv, st, keys, x, &req);

    return rc ? rc : kf_wait_free(kv, req);
}

#endif /* KV_STORE_TEST_H */
