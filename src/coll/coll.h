/* src/coll/coll.h - the collectives engine's view of the PEs taking part.
 *
 * A group is a team, or an active set of the deprecated routines
 * (PE_start, logPE_stride, PE_size, with the caller's pSync as its
 * synchronization words).  Algorithms see members 0..n-1, can synchronize
 * them, and reach a member's copy of a symmetric object directly when it
 * is mapped here (P2P) - or through gsi_lib_put/gsi_lib_get otherwise. */
#ifndef GSI_COLL_H
#define GSI_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "coll/team.h"
#include "core/pe.h"

/* Longs of an active set's pSync (SHMEM_SYNC_SIZE and every
 * SHMEM_*_SYNC_SIZE): the collectives' signal words live in it. */
#define GSI_PSYNC_WORDS 64
/* pSync[0..GSI_PSYNC_MAILBOX_WORDS-1] are the mailboxes of the small
 * active-set reductions (src/coll/coll_reduce.c); the words above them are the
 * data collectives' signals (src/coll/coll_sig.h). */
#define GSI_PSYNC_MAILBOX_WORDS 32

typedef struct gsi_group {
    struct gshmem_team *team; /* NULL for an active set */
    int n, me;                /* members, this PE's index (-1: not a member) */
    int start, stride;        /* active set: member i is world PE start + i * stride */
    long *psync;              /* active set: the caller's pSync */
    int all_p2p;              /* every member's memory is mapped here */
} gsi_group_t;

/* The group of a team; SHMEM_TEAM_INVALID (NULL) or a non-member: returns
 * -1.  A handle that is no live team ends the job (gsi_team_check). */
int gsi_group_team(const char *fn, gsi_group_t *g, struct gshmem_team *team);

/* The group of an active set; checks the arguments (fatal on bad ones,
 * naming `fn`) and that this PE is a member. */
void gsi_group_aset(const char *fn, gsi_group_t *g, int pe_start, int log_stride, int pe_size,
                    long *psync);

/* The team whose barrier synchronizes the group: its own, the world for
 * an active set of every PE (which can only be PE_start 0, stride 1),
 * NULL for any other active set (src/coll/coll_sync.c). */
static inline struct gshmem_team *gsi_group_sync_team(const gsi_group_t *g)
{
    return g->team ? g->team : g->n == gsi_pe.n_pes ? &gshmem_team_world : NULL;
}

static inline int gsi_group_pe(const gsi_group_t *g, int i)
{
    return g->team ? gsi_team_world_pe(g->team, i) : g->start + i * g->stride;
}

/* Member i's copy of the symmetric `addr` (len bytes), mapped in this
 * process; NULL when the network must carry the access. */
void *gsi_group_ptr(const char *fn, const gsi_group_t *g, const void *addr, size_t len, int i);

/* All members reach this point; with `complete`, this PE's operations are
 * complete first.  On a team or an active set of every PE, the team
 * barrier (the world's); on another active set, the central barrier of
 * src/coll/coll_sync.c, whose pSync words return to SHMEM_SYNC_VALUE (0).  shmem_barrier, shmem_sync, the data collectives
 * and the reductions all use this one. */
void gsi_group_barrier(const char *fn, gsi_group_t *g, int complete);

/* Arguments that must agree across the members of a collective (issue 29),
 * as a 48-bit digest that fits the payload of a tagged signal word
 * (src/coll/coll_sig.h): the routine (bits 44-47; 0: not checked), the
 * root's index in the group for a broadcast or a hash of the routine's name
 * for a reduction, which names its operator and type (bits 32-43), and the
 * size (bits 0-31: bytes, elements for a reduction).  Exact fields rather
 * than a hash, so that a mismatch names both values, as far as they fit:
 * a root of 2048 or more and a size of 2^31 or more are folded (bit 11 of
 * the aux, bit 31 of the size, then a mix of the whole value), so two such
 * values still differ unless their mixes collide (1 in 2^11, 1 in 2^31),
 * and the line then says "2048 or more" or "2 GiB or more" for the value
 * it cannot name. */
enum gsi_call {
    GSI_CALL_NONE,
    GSI_CALL_BARRIER, /* shmem_barrier_all, shmem_sync_all, shmem_team_sync */
    GSI_CALL_BCAST,
    GSI_CALL_COLLECT,
    GSI_CALL_FCOLLECT,
    GSI_CALL_ALLTOALL,
    GSI_CALL_ALLTOALLS,
    GSI_CALL_REDUCE,
    GSI_CALL_INSCAN,
    GSI_CALL_EXSCAN,
    GSI_CALL_REDUCESCATTER,
    GSI_CALL_COUNT
};
_Static_assert(GSI_CALL_COUNT <= 16, "the routine takes 4 bits of the digest");

#define GSI_DIGEST_AUX_FOLD 0x800u       /* an aux at or past this is folded */
#define GSI_DIGEST_SIZE_FOLD 0x80000000u /* a size at or past this is folded */

static inline uint64_t gsi_call_digest(enum gsi_call call, uint64_t aux, uint64_t size)
{
    /* Fibonacci hashing: the high bits of the product mix every bit in. */
    uint64_t a = aux < GSI_DIGEST_AUX_FOLD
                     ? aux
                     : GSI_DIGEST_AUX_FOLD | (aux * 0x9e3779b97f4a7c15ull) >> 53;
    uint64_t s = size < GSI_DIGEST_SIZE_FOLD
                     ? size
                     : GSI_DIGEST_SIZE_FOLD | (size * 0x9e3779b97f4a7c15ull) >> 33;

    return (uint64_t)call << 44 | a << 32 | s;
}

/* The fields of a digest. */
static inline unsigned gsi_digest_call(uint64_t d)
{
    return (unsigned)(d >> 44 & 0xf);
}
static inline unsigned gsi_digest_aux(uint64_t d)
{
    return (unsigned)(d >> 32 & 0xfff);
}
static inline uint64_t gsi_digest_size(uint64_t d)
{
    return d & 0xffffffffu;
}
/* A broadcast digest's root (its index in the group), -1 when folded. */
static inline int gsi_digest_root(uint64_t d)
{
    unsigned a = gsi_digest_aux(d);

    return a < GSI_DIGEST_AUX_FOLD ? (int)a : -1;
}

/* The digest's aux of a reduction: a hash of its name (fn). */
unsigned gsi_call_name_hash(const char *fn);

/* A member's digest `theirs` disagrees with this PE's `mine`: one line
 * naming both values ends the job.  `member` is the group index of the PE
 * whose digest `theirs` is; `root` says that member is the broadcast's
 * root. */
_Noreturn void gsi_coll_disagree(const char *fn, const gsi_group_t *g, int member, int root,
                                 uint64_t theirs, uint64_t mine);

/* The team barrier whose members compare their digests (0: none), a
 * mismatch reported with gsi_coll_disagree: shmem_barrier_all,
 * shmem_sync_all and shmem_team_sync, and the barrier that closes a
 * collective on a team. */
void gsi_team_barrier_agree(const char *fn, struct gshmem_team *team, int complete,
                            uint64_t digest);

/* gsi_group_barrier whose members compare their digests: on a team whose
 * members are all mapped, the last member to arrive publishes its digest
 * beside the release, and every other member compares it with its own
 * (src/coll/barrier.c).  Digest 0 compares nothing. */
void gsi_group_barrier_check(const char *fn, gsi_group_t *g, int complete, uint64_t digest);

#endif
