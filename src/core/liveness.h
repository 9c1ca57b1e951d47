/* src/core/liveness.h - failure propagation: each PE publishes, in its
 * symmetric sync area, whether and where it waits; a PE that has waited
 * GSHMEM_FAIL_CHECK seconds looks at the others' records once a second and
 * ends the job with one line when no PE can make progress any more (a PE
 * finalized or died while the others wait, or every PE waits in a
 * different call).
 *
 * Everything here runs in the slow path of a wait (gsi_wait_check, every
 * 256th poll): the fast path of a wait (gsi_wait_step's inline part) is not
 * touched. */
#ifndef GSI_LIVENESS_H
#define GSI_LIVENESS_H

#include <stdint.h>

enum {
    GSI_LIVE_RUNNING = 0, /* has not waited yet (the heap starts zeroed) */
    GSI_LIVE_WAITING = 1, /* in or after a wait: see beat */
    GSI_LIVE_FINALIZING = 2,
    GSI_LIVE_FINALIZED = 3
};

#define GSI_LIVE_NAME 24 /* bytes of the wait's routine name, NUL included */

/* One PE's record, in gsi_sync_t (src/coll/sync.h): the same offset on
 * every PE, so node peers load it through their mapping of the heap and
 * the others get it through the network.  Written by the PE's own
 * init thread only. */
typedef struct gsi_live {
    /* wait_id << 32 | beat, stored last with release: a new wait_id says
     * a new wait began (state and name are written first); a beat that
     * advances says this PE still polls the same wait.  A PE that left its
     * wait stops beating, so no clearing is needed at a wait's end. */
    _Alignas(64) uint64_t word;
    uint64_t state; /* GSI_LIVE_* */
    uint64_t pid;
    char name[GSI_LIVE_NAME]; /* the routine it waits (or last waited) in */
} gsi_live_t;

/* Bring it up for this PE (after the peers are connected, so their pids
 * are known): `rec` is this PE's record in the sync area.  The calling
 * thread is the only one that publishes or observes. */
void gsi_live_init(gsi_live_t *rec);
void gsi_live_fini(void);

/* The slow path of a wait, on each check: `first` on the wait's first one
 * (a new wait_id); `net_quiet`: the network had no work for this PE since
 * the last check.  May end the job (gsi_fatal). */
void gsi_live_check(uint64_t now_ns, int first, int net_quiet, const char *fn, const char *what);

/* The finalize barrier: a PE in it counts as unable to make progress for
 * its peers; after it, as finished. */
void gsi_live_finalizing(void);
void gsi_live_finalized(void);

/* "; PE 1 last seen in shmem_finalize" for up to 3 PEs whose record names
 * another call than `fn` (the "still waiting" line); "" when off. */
void gsi_live_describe(const char *fn, char *buf, unsigned len);

#endif
