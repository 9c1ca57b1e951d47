/*
 * libs/kv/kv_crc.c - CRC32C (kv_crc.h).  The reflected polynomial
 * 0x82F63B78; the check value of "123456789" is 0xE3069283.
 */
#include "kv_crc.h"

#include <pthread.h>
#include <string.h>

#define KV_CRC_POLY 0x82F63B78u

static uint32_t table[256];
static int have_sse42;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;

        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (KV_CRC_POLY & (0u - (c & 1u)));
        table[i] = c;
    }
#if defined(__x86_64__)
    have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t sw(uint32_t c, const unsigned char *p, size_t n)
{
    while (n--)
        c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t hw(uint32_t c, const unsigned char *p, size_t n)
{
    uint64_t c64 = c;

    for (; n && ((uintptr_t)p & 7); n--)
        c = __builtin_ia32_crc32qi(c, *p++);
    c64 = c;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;

        memcpy(&w, p, 8);
        c64 = __builtin_ia32_crc32di(c64, w);
    }
    c = (uint32_t)c64;
    while (n--)
        c = __builtin_ia32_crc32qi(c, *p++);
    return c;
}
#endif

uint32_t kv_crc32c(uint32_t crc, const void *buf, size_t len)
{
    uint32_t c = ~crc;

    pthread_once(&once, init);
#if defined(__x86_64__)
    if (have_sse42)
        return ~hw(c, (const unsigned char *)buf, len);
#endif
    return ~sw(c, (const unsigned char *)buf, len);
}
