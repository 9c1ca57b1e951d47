/* src/coll/coll_engine.h - the data-movement collectives over a group
 * (src/coll/coll.h): broadcast, collect, fcollect, alltoall[s], and the
 * active-set barrier; host/coll.c checks arguments and calls these.
 *
 * Algorithms.  When every member is mapped here (the group is all_p2p and
 * GSHMEM_COLL_P2P is on), data moves by load/store, one copy per byte:
 * small broadcasts are pushed by the root into every member's dest,
 * larger ones are pulled by every member from the root's source
 * (GSHMEM_BCAST_PUSH_MAX); [f]collect and alltoall[s] push each member's
 * blocks straight into the members' dest, then one barrier.  A call that
 * writes GSHMEM_COLL_NT_MIN bytes or more over all members copies with
 * non-temporal stores (a working set that outgrows the shared cache would
 * only evict itself).  The default, 64 MiB, is twice the 32 MiB L3 of the
 * machine it was measured on: at 16 MiB (alltoall and fcollect of 1 MiB
 * blocks on 4 PEs, a working set the size of L3) streaming made alltoall
 * 1.25x and fcollect 1.9x slower.
 * When the network carries some members (or GSHMEM_COLL_P2P=0) they use
 * puts and signals: binomial-tree broadcast, ring fcollect, offset chain +
 * direct puts for collect, pairwise-ordered puts for alltoall[s], each
 * closed by a barrier where members could otherwise confuse consecutive
 * calls.
 *
 * Signals.  A collective signals through words that every member has at
 * the same symmetric address: on a team, the words coll[0..31] of its
 * slot (src/coll/sync.h), whose values only grow (each member counts what it
 * has received so far in local words of the slot); on an active set, the
 * words pSync[32..63] of the caller's pSync, which start at
 * SHMEM_SYNC_VALUE and are back to it when the call returns.  Each signal
 * is either a counter (peers add 1: adds from different senders commute,
 * so no update is lost) or a word with one writer. */
#ifndef GSI_COLL_ENGINE_H
#define GSI_COLL_ENGINE_H

#include <stddef.h>

#include "coll/coll.h"

/* Copies nbytes from the root member's source to dest on every member;
 * with root_dest 0 the root's dest is left alone (broadcast32/64). */
void gsi_coll_broadcast(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        size_t nbytes, int root, int root_dest);

/* dest on every member: the sources of members 0..n-1 in order, nbytes
 * each (fcollect) or each member's own nbytes (collect). */
void gsi_coll_fcollect(const char *fn, gsi_group_t *g, void *dest, const void *source,
                       size_t nbytes);
void gsi_coll_collect(const char *fn, gsi_group_t *g, void *dest, const void *source,
                      size_t nbytes);

/* Block j of member i's source goes to block i of member j's dest.
 * alltoalls: elements of elem_size bytes, nelems per block; element k of
 * a block is at index (block * nelems + k) * stride in its array. */
void gsi_coll_alltoall(const char *fn, gsi_group_t *g, void *dest, const void *source,
                       size_t nbytes);
void gsi_coll_alltoalls(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t nelems);

#endif
