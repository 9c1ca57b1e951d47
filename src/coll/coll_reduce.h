/* src/coll/coll_reduce.h - reductions and prefix sums over a group: the engine
 * behind shmem_TYPENAME_OP_reduce, shmem_TYPENAME_sum_inscan/_exscan,
 * shmemx_TYPENAME_OP_reducescatter and the deprecated shmem_TYPENAME_OP_to_all.  The caller (host/) supplies the
 * element size and the function that combines two arrays of its type. */
#ifndef GSI_COLL_REDUCE_H
#define GSI_COLL_REDUCE_H

#include <stddef.h>

#include "coll/coll.h"

/* acc[i] = acc[i] OP in[i] for i < n elements.  Host code only: the
 * device API has no function pointers (STYLE.md 6). */
typedef void (*gsi_combine_fn_t)(void *acc, const void *in, size_t n);

typedef enum {
    GSI_REDUCE_ALL, /* every member: source_0 OP source_1 OP ... OP source_{n-1} */
    GSI_SCAN_INCL,  /* member i: source_0 + ... + source_i */
    GSI_SCAN_EXCL,  /* member i: source_0 + ... + source_{i-1}; member 0: zeros */
} gsi_reduce_kind_t;

/* Collective over the group.  Members combine in member order (0, 1, ...),
 * so every member gets bitwise the same floating-point result.  dest and
 * source are the same symmetric array or disjoint ones; pSync of an active
 * set carries small reductions' data in its mailbox words and is back to
 * SHMEM_SYNC_VALUE on return. */
void gsi_reduce(const char *fn, gsi_group_t *g, gsi_reduce_kind_t kind, void *dest,
                const void *source, size_t nelems, size_t elem_size, gsi_combine_fn_t combine);

/* Reduce-scatter over the group (shmemx_TYPENAME_OP_reducescatter): source
 * holds one block of nreduce elements per member, and member i's dest gets
 * block i of every member's source combined, in member order.  dest is
 * disjoint from source, or the caller's own block of it (in place). */
void gsi_reduce_scatter(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, gsi_combine_fn_t combine);

#endif
