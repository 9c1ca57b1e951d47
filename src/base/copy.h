/* src/base/copy.h - the bulk copy of the P2P path.  Into another process's
 * mapping of a memfd, glibc's memcpy (rep movsb in the middle sizes) runs
 * 1-40% slower than a plain unrolled AVX2 loop on AMD Zen (measured 8 KiB-
 * 4 MiB on an EPYC), so there large copies take the loop; small ones keep
 * memcpy, which is best for latency.  On Intel the loop loses at every
 * size (Xeon, source 16 bytes off a line as malloc gives it: 8 KiB 87 vs
 * 146 GB/s, 64 KiB 45.6 vs 47.3, 1 MiB 32.9 vs 36.0), as fast strings
 * there are what glibc tunes its copy for: memcpy throughout. */
#ifndef GSI_COPY_H
#define GSI_COPY_H

#include <stddef.h>
#include <string.h>

#define GSI_COPY_BULK_MIN 4096

extern int gsi_copy_avx2; /* set once at init: an AMD CPU with AVX2 */

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
