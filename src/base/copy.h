/* src/base/copy.h - the bulk copy of the P2P path.  Into another process's
 * mapping of a memfd, glibc's memcpy (rep movsb in the middle sizes) runs
 * 1-40% slower than a plain unrolled AVX2 loop on this class of machine
 * (measured 8 KiB-4 MiB), so large copies take the loop where the CPU has
 * AVX2; small ones keep memcpy, which is best for latency. */
#ifndef GSI_COPY_H
#define GSI_COPY_H

#include <stddef.h>
#include <string.h>

#define GSI_COPY_BULK_MIN 4096

extern int gsi_copy_avx2; /* set once at init from the CPU's features */

void gsi_copy_bulk(void *dest, const void *src, size_t len);
void gsi_copy_detect(void);

/* Copies memory that holds more than one object: a whole data segment, or
 * a region being moved, with the redzones AddressSanitizer keeps around
 * each global.  No sanitizer checks these reads, and the loop never becomes
 * a call to memcpy (which ASan intercepts and checks).  Slower than memcpy:
 * for the moves of init only. */
void gsi_copy_raw(void *dest, const void *src, size_t len);

static inline void gsi_copy(void *dest, const void *src, size_t len)
{
    if (len >= GSI_COPY_BULK_MIN && gsi_copy_avx2)
        gsi_copy_bulk(dest, src, len);
    else
        memcpy(dest, src, len);
}

#endif
