/* host/alloc_call.h - the comparison of collective allocation calls across
 * PEs, shared by the symmetric heap (host/mem.c: shmem_malloc, ...) and the
 * device heap (host/device.c: gshmem_malloc, ...).  Each call records what
 * it asks for in this PE's sync area before its barrier
 * (gsi_alloc_announce) and reads the next PE's record after it
 * (gsi_alloc_compare); a mismatch ends the job with one line.
 * gshmemx_buffer_register_symmetric (host/buffer.c) takes part too. */
#ifndef GSI_HOST_ALLOC_CALL_H
#define GSI_HOST_ALLOC_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "coll/sync.h"

/* Which heap a call allocates from (gsi_alloc_call_t.heap), or a
 * registration: counted with the allocations, so a PE that registers where
 * a peer allocates, or registers alone, is named at its barrier. */
#define GSI_ALLOC_HEAP 0   /* the symmetric heap: shmem_malloc, ... */
#define GSI_ALLOC_DEVICE 1 /* the device heap: gshmem_malloc, ... */
#define GSI_ALLOC_SYMREG 2 /* gshmemx_buffer_register_symmetric (size 0: its own check) */

/* Before the call's barrier.  offset: the block freed or resized, as its
 * offset in its heap + 1, or 0. */
const gsi_alloc_call_t *gsi_alloc_announce(int heap, size_t size, size_t align,
                                           uint64_t offset);
/* After the barrier: the next PE made the same call, or the job ends. */
void gsi_alloc_compare(const char *fn, const gsi_alloc_call_t *mine);

#endif
