/* crypto/sha256.h - SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and a
 * comparison whose time does not depend on the bytes compared.
 *
 * The unique-id bootstrap authenticates the ranks of a job with these
 * (bootstrap/uid_auth.c), and libgshmem_kv the processes that connect to
 * an engine's listener (libs/kv/kv_listen.c).  A layer of its own below
 * both, which includes nothing of the library: each library compiles it in
 * (hidden), so the KV library stays on the runtime's public API.  Written
 * here so that no crypto library is needed.  Not for bulk data: one call
 * hashes a few hundred bytes. */
#ifndef GSC_SHA256_H
#define GSC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define GSC_SHA256_BYTES 32
#define GSC_SHA256_BLOCK 64

typedef struct gsc_sha256 {
    uint32_t h[8];
    uint64_t total;                        /* bytes hashed so far */
    unsigned char block[GSC_SHA256_BLOCK]; /* bytes not yet in a whole block */
    size_t used;
} gsc_sha256_t;

void gsc_sha256_init(gsc_sha256_t *s);
void gsc_sha256_update(gsc_sha256_t *s, const void *data, size_t len);
void gsc_sha256_final(gsc_sha256_t *s, uint8_t out[GSC_SHA256_BYTES]);
void gsc_sha256(const void *data, size_t len, uint8_t out[GSC_SHA256_BYTES]);

typedef struct gsc_hmac {
    gsc_sha256_t inner, outer;
} gsc_hmac_t;

/* A key of any length (longer than a block is hashed first, as RFC 2104 says). */
void gsc_hmac_init(gsc_hmac_t *h, const void *key, size_t key_len);
void gsc_hmac_update(gsc_hmac_t *h, const void *data, size_t len);
void gsc_hmac_final(gsc_hmac_t *h, uint8_t out[GSC_SHA256_BYTES]);
void gsc_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                     uint8_t out[GSC_SHA256_BYTES]);

/* 1 when the n bytes at a and b are equal, else 0, in a time that depends on
 * n only: a MAC compared with memcmp tells an attacker how many of its first
 * bytes were right. */
int gsc_equal_ct(const void *a, const void *b, size_t n);

/* Overwrite n bytes in a way the compiler keeps (keys, intermediate hashes). */
void gsc_wipe(void *p, size_t n);

#endif
