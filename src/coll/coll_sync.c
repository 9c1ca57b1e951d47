/* src/coll/coll_sync.c - the barrier that closes a data collective, the
 * deprecated active-set barrier (shmem_barrier, shmem_sync), and the wait
 * for a signal from one member (gsi_sig_wait_from).
 *
 * On a team it is the team barrier (src/coll/barrier.c), and so it is on an
 * active set of every PE (which can only be PE_start 0, stride 1): with
 * more PEs than cores the team barrier's waiters yield only to a PE of
 * their CPU that has not arrived or has a lower rank, which took fcollect
 * and alltoall of 8 bytes on 4 PEs over 2 cores from 2.4 to 1.8 us.  It
 * uses the world team's words, so the pSync words stay as they were.
 *
 * On any other active set it is central, so each member waits once (with
 * more PEs than cores each wait can cost a context switch; a dissemination
 * barrier waits log2(n) times): every member adds 1 to GATHER on member 0;
 * the one that brings it to n takes the n back and adds 1 to the RELEASE
 * counter of every other member, which each waits for and takes back
 * (gsi_coll_end).  The last to arrive releases the others itself, so
 * nobody waits for member 0 to be scheduled; GATHER is back to 0 before
 * anyone is released, so consecutive barriers on one pSync, which the spec
 * allows, cannot mix their arrivals.
 *
 * Either way the barrier that closes a collective compares the members'
 * digests (issue 29): the team barrier's own way, or release_agree.
 */
#define _GNU_SOURCE
#include "coll/coll_engine.h"
#include "coll/coll_sig.h"

#include <sched.h>

static const char waiting_for[] = "the other PEs of the active set to reach the collective";

/* Issue 29, on an active set that is not every PE: the last member to
 * arrive stores its index (bits 48-63) and digest beside each other
 * member's RELEASE counter before the add (gsi_sig_add fences between
 * them), and each released member compares it with its own: one more
 * store per member, which only a data collective or reduction makes
 * (shmem_barrier's digest is 0).  The reader clears the word, so pSync is
 * back to 0 on return; the next barrier's last member cannot write it
 * before this member has arrived there. */
static void release_agree(gsi_coll_t *c)
{
    uint64_t *word = gsi_sig_digest(c, GSI_SIG_RELEASE);
    uint64_t v = __atomic_load_n(word, __ATOMIC_RELAXED);

    if (!v)
        return;
    __atomic_store_n(word, 0, __ATOMIC_RELAXED);
    if (__builtin_expect(c->digest && (v & GSI_SIG_PAYLOAD) != c->digest, 0))
        gsi_coll_disagree(c->fn, c->g, (int)(v >> 48), 0, v & GSI_SIG_PAYLOAD, c->digest);
}

void gsi_coll_sync(gsi_coll_t *c, int complete)
{
    gsi_group_t *g = c->g;
    struct gshmem_team *team = gsi_group_sync_team(g);

    if (team) {
        gsi_team_barrier_agree(c->fn, team, complete, c->digest);
        return;
    }
    if (complete)
        gsi_quiet(c->fn);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (g->n == 1)
        return;
    if (gsi_sig_fetch_add(c, GSI_SIG_GATHER, 0) == (uint64_t)g->n - 1) {
        gsi_sig_sub(c, GSI_SIG_GATHER, 0, (uint64_t)g->n);
        for (int i = 1; i < g->n; i++) {
            int to = (g->me + i) % g->n;

            if (c->digest)
                gsi_lib_store64(c->fn, gsi_sig_digest(c, GSI_SIG_RELEASE),
                                (uint64_t)(g->me & 0xffff) << 48 | c->digest, gsi_group_pe(g, to));
            gsi_sig_add(c, GSI_SIG_RELEASE, to);
        }
    } else {
        gsi_sig_wait(c, GSI_SIG_RELEASE, 1, waiting_for);
        release_agree(c);
    }
}

void gsi_team_barrier_agree(const char *fn, struct gshmem_team *team, int complete, uint64_t digest)
{
    int by;
    uint64_t theirs = gsi_team_barrier_check(fn, team, complete, digest, &by);

    if (__builtin_expect(theirs != 0, 0)) {
        gsi_group_t g = {.team = team, .n = team->n_pes, .me = team->my_pe};

        gsi_coll_disagree(fn, &g, by, 0, theirs, digest);
    }
}

void gsi_group_barrier(const char *fn, gsi_group_t *g, int complete)
{
    gsi_group_barrier_check(fn, g, complete, 0);
}

void gsi_group_barrier_check(const char *fn, gsi_group_t *g, int complete, uint64_t digest)
{
    gsi_coll_t c;

    gsi_coll_begin(&c, fn, g);
    c.digest = digest;
    gsi_coll_sync(&c, complete);
    gsi_coll_end(&c);
}

/* Polls gsi_sig_wait_from spins while the sender runs on another CPU. */
#define SIG_PATIENCE 4096

void gsi_sig_wait_from(gsi_coll_t *c, int k, uint64_t count, int from, const char *what)
{
    struct gshmem_team *team = c->p2p ? gsi_group_sync_team(c->g) : NULL;
    int cpu = team ? gsi_team_member_cpu(team, from) : -1;
    uint64_t *word = gsi_sig(c, k), target = c->got[k * c->got_step] + count;

    if (cpu < 0 || __atomic_load_n(word, __ATOMIC_ACQUIRE) >= target) {
        /* nothing known, or nothing to wait for */
    } else if (cpu == sched_getcpu()) {
        sched_yield();
    } else {
        for (int polls = 0; polls < SIG_PATIENCE; polls++) {
            if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= target)
                break;
            gsi_cpu_relax();
        }
    }
    gsi_sig_wait(c, k, count, what);
}
