/* src/coll/barrier.c - team barriers.
 *
 * When every member's memory is mapped here, a central counter: each
 * member adds 1 to the arrival count in the team root's slot; the one that
 * brings it to epoch * n publishes the epoch as released, which the others
 * poll.  Each member runs once per barrier, so with more PEs than cores a
 * barrier costs about one context switch per PE.  Otherwise, dissemination
 * over ceil(log2 n) rounds: in round k, member i raises its flag k on member
 * (i + 2^k) mod n and waits for its own, raised by member (i - 2^k) mod n;
 * every wait is on local memory.  Counters and flags carry the epoch, which
 * only grows, so nothing is reset between barriers and a member already in
 * the next barrier cannot be mistaken for one in the current.
 *
 * shmem_finalize has a barrier of its own (gsi_barrier_finalize), always a
 * dissemination over the world, whose flags say "finalizing".  Sharing the
 * ordinary world barrier would let a PE that skipped a barrier and
 * finalized complete its peers' barrier with its finalize, leave, and hang
 * them in their own finalize forever.  With flags of its own, the
 * finalize barrier never completes anything else, and a PE that waits in a
 * world barrier or collective the finalizing PE skipped reads the flag
 * in its own memory and ends the job, naming that PE. */
#define _GNU_SOURCE
#include "coll/sync.h"

#include <sched.h>
#include <stddef.h>

#include "base/log.h"
#include "coll/team.h"
#include "core/liveness.h"
#include "core/rma.h"
#include "core/wait.h"

static const char waiting_for[] = "the other PEs to reach the barrier";

/* A flag of the finalize barrier: FIN_BIT (no epoch of an ordinary barrier
 * gets there), the finalizing PE's count of world collectives (31 bits)
 * and the epoch of its finalize barrier (32 bits).  Both counts are
 * compared modulo their width: PEs that made the same calls are never far
 * apart. */
#define FIN_BIT (UINT64_C(1) << 63)
#define FIN_SEQ(flag) ((uint32_t)((flag) >> 32) & 0x7fffffffu)
#define FIN_EPOCH(flag) ((uint32_t)(flag))

/* Polls between two looks at the finalize flags (a look reads log2(n)
 * local words). */
#define FIN_LOOK_EVERY 256

/* Has the PE whose finalize flag this is left world barrier `epoch` behind
 * (it completed that barrier, so this one can only be a waiter that has
 * not seen the release yet)?  If not, it finalized instead of entering it. */
static int fin_passed_barrier(uint64_t flag, uint64_t epoch)
{
    return (int32_t)(FIN_EPOCH(flag) - (uint32_t)epoch) > 0;
}

/* Did the PE whose finalize flag this is enter world collective `seq`? */
static int fin_entered_call(uint64_t flag, uint64_t seq)
{
    uint32_t diff = (FIN_SEQ(flag) - (uint32_t)seq) & 0x7fffffffu;

    return diff < 0x40000000u; /* not behind, modulo 2^31 */
}

static _Noreturn void fin_report(const char *fn, int pe)
{
    gsi_fatal(fn, "PE %d called shmem_finalize while this PE waits in %s", pe, fn);
}

void gsi_world_check_finalized(const char *fn, uint64_t epoch, uint64_t seq)
{
    const struct gshmem_team *world = &gshmem_team_world;
    const gsi_team_sync_t *sync = gsi_team_sync(world);
    int n = world->n_pes, me = world->my_pe;

    /* Round k's flag on this PE is raised by PE me - 2^k. */
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        uint64_t flag = __atomic_load_n(&sync->barrier[k].value, __ATOMIC_ACQUIRE);

        if (!(flag & FIN_BIT))
            continue;
        if (epoch ? !fin_passed_barrier(flag, epoch) : !fin_entered_call(flag, seq))
            fin_report(fn, (me - dist + n) % n);
    }
}

/* One poll of a wait in a barrier of `team`, at `epoch`. */
static inline void barrier_wait_step(gsi_waiter_t *w, const char *fn,
                                     const struct gshmem_team *team, uint64_t epoch)
{
    gsi_wait_step(w, fn, waiting_for);
    if (__builtin_expect(w->polls % FIN_LOOK_EVERY == 0, 0) && team == &gshmem_team_world)
        gsi_world_check_finalized(fn, epoch, 0);
}

/* The root's copy of one of this PE's sync words (the root is mapped). */
static uint64_t *root_word(const struct gshmem_team *team, uint64_t *mine)
{
    const gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];

    return (uint64_t *)(heap->peer[gsi_team_world_pe(team, 0)] + ((uintptr_t)mine - heap->base));
}

/* Must this waiter give its CPU to another member there (as of that
 * member's last arrival)?  Yes for a member that has not arrived yet, which
 * needs the CPU to arrive.  Yes for an arrived member of lower rank: of the
 * members that share a CPU, the lowest keeps it, so that at the release
 * member 0 - the root of most rooted collectives - is running rather than
 * waiting for a time slice (broadcast of 8 B after a barrier, 4 PEs on 2
 * cores: 2.5 -> 1.1-1.5 us; the other collectives and the barrier itself
 * gained 5-10%).  Otherwise the release will come from another core, and
 * yielding would only cost context switches. */
static int must_yield(const struct gshmem_team *team, const uint64_t *where, uint64_t epoch,
                      unsigned cpu)
{
    for (int i = 0; i < team->n_pes; i++) {
        uint64_t seen = __atomic_load_n(&where[i], __ATOMIC_RELAXED);

        if ((seen & 0xffff) == cpu && ((seen >> 16) < epoch || i < team->my_pe))
            return 1;
    }
    return 0;
}

/* Polls a waiter spends before it yields although must_yield says it need not
 * (the CPUs it saw may be stale when PEs migrate). */
#define CENTRAL_PATIENCE 4096

/* Does the central barrier record where the members run? */
static int tracks_cpus(const struct gshmem_team *team)
{
    return team->all_p2p && team->n_pes <= GSI_WHERE_MAX && gsi_pe.n_local > gsi_pe.n_cores;
}

int gsi_team_member_cpu(const struct gshmem_team *team, int i)
{
    if (!tracks_cpus(team))
        return -1;
    return (int)(__atomic_load_n(&root_word(team, &gsi_team_sync(team)->where[0])[i],
                                 __ATOMIC_RELAXED) &
                 0xffff);
}

/* Arguments that must agree (issue 29): the last member to arrive stores
 * its digest and its index beside the release, in the line every other
 * member reads anyway, and each of them compares that digest with its own
 * once released: every member compares with the same one, so any
 * disagreement is found, at the cost of two stores to a line the last
 * member writes anyway and a compare.  The next barrier's last member
 * cannot overwrite them before every member has read them: that barrier
 * needs every member's arrival. */
static uint64_t central(const char *fn, const struct gshmem_team *team, uint64_t epoch,
                        uint64_t digest, int *by)
{
    gsi_team_sync_t *sync = gsi_team_sync(team);
    uint64_t *arrived = root_word(team, &sync->arrived.value);
    uint64_t *released = root_word(team, &sync->released.value);
    uint64_t *where = root_word(team, &sync->where[0]);
    int track = tracks_cpus(team);
    unsigned cpu = 0, polls = 0;
    gsi_waiter_t w = GSI_WAITER_INIT;

    if (track) {
        cpu = (unsigned)sched_getcpu() & 0xffff;
        __atomic_store_n(&where[team->my_pe], epoch << 16 | cpu, __ATOMIC_RELAXED);
    }
    if (__atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL) == epoch * (uint64_t)team->n_pes) {
        __atomic_store_n(&released[1], digest, __ATOMIC_RELAXED);
        __atomic_store_n(&released[2], (uint64_t)team->my_pe, __ATOMIC_RELAXED);
        __atomic_store_n(released, epoch, __ATOMIC_RELEASE);
        return 0;
    }
    while (__atomic_load_n(released, __ATOMIC_ACQUIRE) < epoch) {
        if (track && ++polls < CENTRAL_PATIENCE) {
            /* at once: spinning first only delays the member that needs
             * this CPU (8-byte collectives on 4 PEs over 2 cores: 5-25%) */
            if (must_yield(team, where, epoch, cpu))
                sched_yield();
            else
                gsi_cpu_relax();
            continue;
        }
        barrier_wait_step(&w, fn, team, epoch);
    }
    if (digest) {
        uint64_t theirs = __atomic_load_n(&released[1], __ATOMIC_RELAXED);

        if (__builtin_expect(theirs && theirs != digest, 0)) {
            *by = (int)__atomic_load_n(&released[2], __ATOMIC_RELAXED);
            return theirs;
        }
    }
    return 0;
}

/* An ordinary flag of the dissemination barrier: the barrier's epoch modulo
 * 2^15 (bits 48-62; bit 63 is FIN_BIT) and the digest of the arguments of
 * the collective it closes (bits 0-47, src/coll/coll.h; 0: none), in the one
 * word the round's partner stores anyway (issue 29).  While this member is
 * in barrier e its flag holds e - 1, e or e + 1 (a partner gets no further
 * before this member arrives at e + 1), so the epoch is compared modulo
 * 2^15. */
#define FLAG_EPOCH_BITS 0x7fffu
#define FLAG(epoch, digest) (((epoch)&FLAG_EPOCH_BITS) << 48 | (digest))
#define FLAG_EPOCH(flag) ((flag) >> 48 & FLAG_EPOCH_BITS)
#define FLAG_DIGEST(flag) ((flag) & ((UINT64_C(1) << 48) - 1))

/* Is the ordinary flag `flag` from a barrier before `epoch`? */
static int flag_behind(uint64_t flag, uint64_t epoch)
{
    uint64_t diff = (epoch - FLAG_EPOCH(flag)) & FLAG_EPOCH_BITS;

    return diff != 0 && diff < (FLAG_EPOCH_BITS + 1) / 2;
}

/* Each member compares the digest in each flag it receives with its own:
 * the partners of round 0 alone chain every member to the next, so any
 * disagreement is found, at the cost of a compare.  A flag that already
 * holds the partner's next barrier (it completed this one and went on
 * before this member read the flag) is not compared: on two PEs the
 * partner read this member's flag of this barrier, which cannot have moved
 * on, and compared it; on more, that one pair may go unchecked in this
 * barrier. */
static uint64_t dissemination(const char *fn, const struct gshmem_team *team, uint64_t epoch,
                              uint64_t digest, int *by)
{
    gsi_team_sync_t *sync = gsi_team_sync(team);
    int n = team->n_pes, me = team->my_pe;

    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        gsi_waiter_t w = GSI_WAITER_INIT;
        uint64_t flag;

        gsi_lib_store64(fn, &sync->barrier[k].value, FLAG(epoch, digest),
                        gsi_team_world_pe(team, (me + dist) % n));
        while ((flag = __atomic_load_n(&sync->barrier[k].value, __ATOMIC_ACQUIRE)) & FIN_BIT ||
               flag_behind(flag, epoch)) {
            /* The partner's finalize flag (world only): it may have
             * overwritten the partner's flag for this barrier, if the
             * partner completed it and went on into shmem_finalize. */
            if (flag & FIN_BIT) {
                if (fin_passed_barrier(flag, epoch))
                    break;
                fin_report(fn, gsi_team_world_pe(team, (me - dist + n) % n));
            }
            barrier_wait_step(&w, fn, team, epoch);
        }
        if (__builtin_expect(digest && !(flag & FIN_BIT) && FLAG_DIGEST(flag) &&
                                 FLAG_DIGEST(flag) != digest &&
                                 FLAG_EPOCH(flag) == (epoch & FLAG_EPOCH_BITS),
                             0)) {
            *by = (me - dist + n) % n;
            return FLAG_DIGEST(flag);
        }
    }
    return 0;
}

void gsi_team_barrier(const char *fn, struct gshmem_team *team, int complete)
{
    int by;

    (void)gsi_team_barrier_check(fn, team, complete, 0, &by);
}

uint64_t gsi_team_barrier_check(const char *fn, struct gshmem_team *team, int complete,
                                uint64_t digest, int *by)
{
    uint64_t epoch;

    if (complete)
        gsi_quiet(fn);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    epoch = ++team->epoch;
    if (team->n_pes == 1)
        return 0;
    if (team->all_p2p)
        return central(fn, team, epoch, digest, by);
    return dissemination(fn, team, epoch, digest, by);
}

void gsi_barrier_world(const char *fn, int complete)
{
    gsi_team_barrier(fn, &gshmem_team_world, complete);
}

void gsi_barrier_finalize(const char *fn)
{
    struct gshmem_team *world = &gshmem_team_world;
    gsi_team_sync_t *sync = gsi_team_sync(world);
    int n = world->n_pes, me = world->my_pe;
    uint64_t epoch, flag;

    /* Peers waiting elsewhere (not in a world barrier, which reads the
     * flags below) learn from this that this PE will not come. */
    gsi_live_finalizing();
    gsi_quiet(fn);
    epoch = ++world->epoch;
    if (n == 1) {
        gsi_live_finalized();
        return;
    }
    flag = FIN_BIT | (sync->coll[GSI_SIG_SEQ].value & 0x7fffffffu) << 32 | (epoch & 0xffffffffu);
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        gsi_waiter_t w = GSI_WAITER_INIT;

        gsi_lib_store64(fn, &sync->barrier[k].value, flag, (me + dist) % n);
        /* Only another finalize flag completes the round.  A partner's
         * ordinary flag means it waits in a world barrier: whoever waits
         * there next to a finalizing PE finds that PE's flag and ends
         * the job (so does GSHMEM_WAIT_TIMEOUT, whatever the case). */
        while (!(__atomic_load_n(&sync->barrier[k].value, __ATOMIC_ACQUIRE) & FIN_BIT))
            gsi_wait_step(&w, fn, "the other PEs to call shmem_finalize");
    }
    gsi_live_finalized();
}

void gsi_barrier_release(const char *fn)
{
    if (gsi_pe.device_drain)
        gsi_pe.device_drain(fn);
    gsi_barrier_world(fn, 1);
}
