/*
 * tests/device/bad_hostrma_past.c - a host put into the device heap that
 * runs past its user part is reported as any address outside symmetric
 * memory is (issue 17: the device heap is a region of the host RMA path,
 * with the same bounds).  PE 0 puts 16 bytes at the first block's address
 * plus the heap's user size: on host lanes that is the library's sync area
 * after the user part, on a GPU past the device heap's range.
 */
/* EXPECT: gshmem: PE 0: shmem_putmem: address .* is not in symmetric memory */
#include <stdint.h>
#include <stdlib.h>

#define HEAP_MIB 64
#define BAD_BEFORE_INIT()                                                                      \
    (setenv("SHMEM_SYMMETRIC_SIZE", "64M", 1), setenv("GSHMEM_DEVICE_HEAP_SIZE", "64M", 1))
#define BAD_PREPARE(a)                                                                         \
    do {                                                                                       \
        static const uint64_t src[2] = {1, 2};                                                 \
        if ((a).me == 0)                                                                       \
            shmem_putmem((char *)(a).buf + ((size_t)HEAP_MIB << 20), src, sizeof(src),         \
                         (a).npes - 1);                                                        \
    } while (0)
#include "bad_test.h"

GSHMEM_KERNEL(bad_kernel, bad_args_t, a)
{
    (void)a;
}

BAD_MAIN("bad_hostrma_past", "a host shmem_putmem past the device heap's user part")
