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
 * the next barrier cannot be mistaken for one in the current. */
#define _GNU_SOURCE
#include "coll/sync.h"

#include <sched.h>
#include <stddef.h>

#include "coll/team.h"
#include "core/rma.h"
#include "core/wait.h"

static const char waiting_for[] = "the other PEs to reach the barrier";

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

static void central(const char *fn, const struct gshmem_team *team, uint64_t epoch)
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
        __atomic_store_n(released, epoch, __ATOMIC_RELEASE);
        return;
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
        gsi_wait_step(&w, fn, waiting_for);
    }
}

static void dissemination(const char *fn, const struct gshmem_team *team, uint64_t epoch)
{
    gsi_team_sync_t *sync = gsi_team_sync(team);
    int n = team->n_pes, me = team->my_pe;

    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        gsi_waiter_t w = GSI_WAITER_INIT;

        gsi_lib_store64(fn, &sync->barrier[k].value, epoch,
                        gsi_team_world_pe(team, (me + dist) % n));
        while (__atomic_load_n(&sync->barrier[k].value, __ATOMIC_ACQUIRE) < epoch)
            gsi_wait_step(&w, fn, waiting_for);
    }
}

void gsi_team_barrier(const char *fn, struct gshmem_team *team, int complete)
{
    uint64_t epoch;

    if (complete)
        gsi_quiet(fn);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    epoch = ++team->epoch;
    if (team->n_pes == 1)
        return;
    if (team->all_p2p)
        central(fn, team, epoch);
    else
        dissemination(fn, team, epoch);
}

void gsi_barrier_world(const char *fn, int complete)
{
    gsi_team_barrier(fn, &gshmem_team_world, complete);
}

void gsi_barrier_release(const char *fn)
{
    if (gsi_pe.device_drain)
        gsi_pe.device_drain(fn);
    gsi_barrier_world(fn, 1);
}
