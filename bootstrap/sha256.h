/* bootstrap/sha256.h - SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and a
 * comparison whose time does not depend on the bytes compared.
 *
 * The unique-id bootstrap authenticates the ranks of a job with these
 * (uid_auth.c).  They live in the bootstrap because it is the lowest layer,
 * and they are written here so that the library needs no crypto library.
 * Not for bulk data: one call hashes a few hundred bytes. */
#ifndef GSB_SHA256_H
#define GSB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define GSB_SHA256_BYTES 32
#define GSB_SHA256_BLOCK 64

typedef struct gsb_sha256 {
    uint32_t h[8];
    uint64_t total;                        /* bytes hashed so far */
    unsigned char block[GSB_SHA256_BLOCK]; /* bytes not yet in a whole block */
    size_t used;
} gsb_sha256_t;

void gsb_sha256_init(gsb_sha256_t *s);
void gsb_sha256_update(gsb_sha256_t *s, const void *data, size_t len);
void gsb_sha256_final(gsb_sha256_t *s, uint8_t out[GSB_SHA256_BYTES]);
void gsb_sha256(const void *data, size_t len, uint8_t out[GSB_SHA256_BYTES]);

typedef struct gsb_hmac {
    gsb_sha256_t inner, outer;
} gsb_hmac_t;

/* A key of any length (longer than a block is hashed first, as RFC 2104 says). */
void gsb_hmac_init(gsb_hmac_t *h, const void *key, size_t key_len);
void gsb_hmac_update(gsb_hmac_t *h, const void *data, size_t len);
void gsb_hmac_final(gsb_hmac_t *h, uint8_t out[GSB_SHA256_BYTES]);
void gsb_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                     uint8_t out[GSB_SHA256_BYTES]);

/* 1 when the n bytes at a and b are equal, else 0, in a time that depends on
 * n only: a MAC compared with memcmp tells an attacker how many of its first
 * bytes were right. */
int gsb_equal_ct(const void *a, const void *b, size_t n);

/* Overwrite n bytes in a way the compiler keeps (keys, intermediate hashes). */
void gsb_wipe(void *p, size_t n);

#endif
