/*
 * gsd/fatal.h - how device code reports misuse and waits that never end:
 * one line, "gshmem: PE <n>: <routine>: <what>", then the job ends.
 * Host lanes: the library prints and calls the global exit.  GPU: printf
 * from the device, then a trap, which fails the kernel and the host's next
 * CUDA call.
 */
#ifndef GSD_FATAL_H
#define GSD_FATAL_H

#include <stdint.h>

#include "cdefs.h"
#include "state.h"

#if defined(GSD_HOSTLANE)
GSD_BEGIN_C
/* Prints "gshmem: PE <n>: fn: <formatted>" and ends the job (lanes.c). */
void gshmemi_lane_fatal(const char *fn, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3), cold));
GSD_END_C
#define GSD_FATAL(fn, fmt, ...) gshmemi_lane_fatal(fn, fmt, __VA_ARGS__)
#else
#include <stdio.h>
#define GSD_FATAL(fn, fmt, ...)                                                        \
    do {                                                                               \
        printf("gshmem: PE %d: %s: " fmt "\n", (int)GSD_STATE.my_pe, fn, __VA_ARGS__); \
        __trap();                                                                      \
    } while (0)
#endif

/* Argument checks every device routine makes: cheap compares, cold paths. */
GSD_FN void gsd_check_pe(const char *fn, int pe)
{
    if (GSD_UNLIKELY((unsigned)pe >= (unsigned)GSD_STATE.n_pes))
        GSD_FATAL(fn, "PE %d is out of range: the job has PEs 0 to %d", pe,
                  (int)GSD_STATE.n_pes - 1);
}

/* Offset of [addr, addr + len) in the device heap; the job ends when it is
 * not inside it. */
GSD_FN uint64_t gsd_heap_offset(const char *fn, const void *addr, uint64_t len, int pe)
{
    uint64_t off = (uint64_t)(uintptr_t)addr - GSD_STATE.heap_base;

    if (GSD_UNLIKELY(off >= GSD_STATE.heap_size || len > GSD_STATE.heap_size - off))
        GSD_FATAL(fn,
                  "address %p (%llu bytes, PE %d) is not in the symmetric heap "
                  "(gshmem_malloc)",
                  addr, (unsigned long long)len, pe);
    return off;
}

#endif /* GSD_FATAL_H */
