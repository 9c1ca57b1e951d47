/* crypto/sha256.c - SHA-256 as FIPS 180-4 section 6.2 describes it, and
 * HMAC over it as RFC 2104 describes it.  tests/unit/sha256.c checks both
 * against the published test vectors (FIPS 180-4's examples, RFC 4231). */
#include "sha256.h"

#include <string.h>

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4 5.3.3: the initial hash value, from the square roots of the
 * first 8 primes. */
static const uint32_t H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

/* FIPS 180-4 6.2.2: one 512-bit block into the hash value. */
static void compress(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh;

    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
               (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] +
                      w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
    gsc_wipe(w, sizeof(w));
}

void gsc_sha256_init(gsc_sha256_t *s)
{
    memcpy(s->h, H0, sizeof(H0));
    s->total = 0;
    s->used = 0;
}

void gsc_sha256_update(gsc_sha256_t *s, const void *data, size_t len)
{
    const unsigned char *p = data;

    s->total += len;
    if (s->used) {
        size_t take = GSC_SHA256_BLOCK - s->used < len ? GSC_SHA256_BLOCK - s->used : len;

        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        len -= take;
        if (s->used < GSC_SHA256_BLOCK)
            return;
        compress(s->h, s->block);
        s->used = 0;
    }
    for (; len >= GSC_SHA256_BLOCK; p += GSC_SHA256_BLOCK, len -= GSC_SHA256_BLOCK)
        compress(s->h, p);
    memcpy(s->block, p, len);
    s->used = len;
}

void gsc_sha256_final(gsc_sha256_t *s, uint8_t out[GSC_SHA256_BYTES])
{
    uint64_t bits = s->total * 8;

    /* FIPS 180-4 5.1.1: a 1 bit, zeros, and the length in bits, to a whole
     * number of blocks. */
    s->block[s->used++] = 0x80;
    if (s->used > GSC_SHA256_BLOCK - 8) {
        memset(s->block + s->used, 0, GSC_SHA256_BLOCK - s->used);
        compress(s->h, s->block);
        s->used = 0;
    }
    memset(s->block + s->used, 0, GSC_SHA256_BLOCK - 8 - s->used);
    for (int i = 0; i < 8; i++)
        s->block[GSC_SHA256_BLOCK - 1 - i] = (unsigned char)(bits >> (8 * i));
    compress(s->h, s->block);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
    gsc_wipe(s, sizeof(*s));
}

void gsc_sha256(const void *data, size_t len, uint8_t out[GSC_SHA256_BYTES])
{
    gsc_sha256_t s;

    gsc_sha256_init(&s);
    gsc_sha256_update(&s, data, len);
    gsc_sha256_final(&s, out);
}

/* RFC 2104: H(K ^ opad, H(K ^ ipad, text)), K padded with zeros to a block. */
void gsc_hmac_init(gsc_hmac_t *h, const void *key, size_t key_len)
{
    unsigned char k[GSC_SHA256_BLOCK] = {0}, pad[GSC_SHA256_BLOCK];

    if (key_len > GSC_SHA256_BLOCK)
        gsc_sha256(key, key_len, k);
    else
        memcpy(k, key, key_len);
    for (int i = 0; i < GSC_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x36;
    gsc_sha256_init(&h->inner);
    gsc_sha256_update(&h->inner, pad, sizeof(pad));
    for (int i = 0; i < GSC_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x5c;
    gsc_sha256_init(&h->outer);
    gsc_sha256_update(&h->outer, pad, sizeof(pad));
    gsc_wipe(k, sizeof(k));
    gsc_wipe(pad, sizeof(pad));
}

void gsc_hmac_update(gsc_hmac_t *h, const void *data, size_t len)
{
    gsc_sha256_update(&h->inner, data, len);
}

void gsc_hmac_final(gsc_hmac_t *h, uint8_t out[GSC_SHA256_BYTES])
{
    uint8_t inner[GSC_SHA256_BYTES];

    gsc_sha256_final(&h->inner, inner);
    gsc_sha256_update(&h->outer, inner, sizeof(inner));
    gsc_sha256_final(&h->outer, out);
    gsc_wipe(inner, sizeof(inner));
}

void gsc_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                     uint8_t out[GSC_SHA256_BYTES])
{
    gsc_hmac_t h;

    gsc_hmac_init(&h, key, key_len);
    gsc_hmac_update(&h, data, len);
    gsc_hmac_final(&h, out);
}

int gsc_equal_ct(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned char diff = 0;

    /* Every byte is read whatever the earlier ones were: no early exit. */
    for (size_t i = 0; i < n; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

void gsc_wipe(void *p, size_t n)
{
    volatile unsigned char *q = p;

    /* Through a volatile pointer, so that the stores are not dropped as
     * dead (the buffer is about to go out of scope). */
    while (n--)
        *q++ = 0;
}
