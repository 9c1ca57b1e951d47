/* src/base/copy.c - the AVX2 bulk copy and the unchecked copy (see copy.h). */
#include "base/copy.h"

#include <stdint.h>

/* A word that may alias anything: the copy reads any object's bytes. */
typedef uint64_t __attribute__((may_alias)) gsi_word_t;

__attribute__((no_sanitize_address)) void gsi_copy_raw(void *dest, const void *src, size_t len)
{
    unsigned char *d = dest;
    const unsigned char *s = src;
    size_t i = 0;

    /* The empty asm in each loop keeps the compiler from recognizing a
     * copy loop and calling memcpy, whose ASan interceptor would check. */
    if ((((uintptr_t)d | (uintptr_t)s) & (sizeof(gsi_word_t) - 1)) == 0)
        for (; i + sizeof(gsi_word_t) <= len; i += sizeof(gsi_word_t)) {
            *(gsi_word_t *)(void *)(d + i) = *(const gsi_word_t *)(const void *)(s + i);
            __asm__ volatile("" ::: "memory");
        }
    for (; i < len; i++) {
        d[i] = s[i];
        __asm__ volatile("" ::: "memory");
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

int gsi_copy_avx2;

void gsi_copy_detect(void)
{
    __builtin_cpu_init();
    gsi_copy_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_is("amd");
}

__attribute__((target("avx2"))) void gsi_copy_bulk(void *dest, const void *src, size_t len)
{
    char *d = dest;
    const char *s = src;
    size_t bulk = len & ~(size_t)127;

    for (size_t i = 0; i < bulk; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));

        _mm256_storeu_si256((__m256i *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(d + i + 32), b);
        _mm256_storeu_si256((__m256i *)(d + i + 64), c);
        _mm256_storeu_si256((__m256i *)(d + i + 96), e);
    }
    memcpy(d + bulk, s + bulk, len - bulk);
}
#else
int gsi_copy_avx2;

void gsi_copy_detect(void)
{
}

void gsi_copy_bulk(void *dest, const void *src, size_t len)
{
    memcpy(dest, src, len);
}
#endif
