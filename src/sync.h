/* src/sync.h - the library's own symmetric state, at the start of the heap
 * (same offset on every PE), and the world barrier built on it. */
#ifndef GSI_SYNC_H
#define GSI_SYNC_H

#include <stdint.h>

#define GSI_BARRIER_ROUNDS 32     /* log2 of the largest job */
#define GSI_SYNC_AREA_SIZE 65536  /* reserved before the user's allocations */

typedef struct gsi_flag {
    _Alignas(64) uint64_t value;  /* one cache line per flag */
} gsi_flag_t;

typedef struct gsi_sync {
    gsi_flag_t barrier[GSI_BARRIER_ROUNDS];  /* dissemination: the round's partner writes */
    gsi_flag_t arrived;                        /* central, on PE 0: PEs that arrived, ever */
    gsi_flag_t released;                       /* central, on PE 0: last barrier completed */
    uint64_t barrier_epoch;                    /* this PE's count of barriers */
} gsi_sync_t;

_Static_assert(sizeof(gsi_sync_t) <= GSI_SYNC_AREA_SIZE, "gsi_sync_t outgrew its area");

/* Barrier over all PEs; with `complete`, first completes this
 * PE's outstanding operations (shmem_barrier_all) - without, only synchronizes
 * (shmem_sync_all). */
void gsi_barrier_world(const char *fn, int complete);

#endif
