/* src/barrier.c - the world barrier.
 *
 * When every PE shares this node, a central counter: each PE adds 1 to the
 * arrival count on PE 0; the one that brings it to epoch * n publishes the
 * epoch as released, which the others poll.  Each PE runs once per barrier,
 * so with more PEs than cores a barrier costs about one context switch per
 * PE.  Across nodes, dissemination over ceil(log2 n) rounds: in round k, PE i
 * raises its flag k on PE (i + 2^k) mod n and waits for its own, raised by PE
 * (i - 2^k) mod n; every wait is on local memory.  Counters and flags carry
 * the epoch, which only grows, so nothing is ever reset and a PE already in
 * the next barrier cannot be mistaken for one in the current. */
#include "sync.h"

#include "rma.h"
#include "wait.h"

static const char waiting_for[] = "the other PEs to reach the barrier";

static void central(const char *fn, gsi_sync_t *sync, uint64_t epoch)
{
    uint64_t *arrived = (uint64_t *)(gsi_pe.region[GSI_REGION_HEAP].peer[0] +
                                     offsetof(gsi_sync_t, arrived));
    uint64_t *released = (uint64_t *)(gsi_pe.region[GSI_REGION_HEAP].peer[0] +
                                      offsetof(gsi_sync_t, released));
    uint64_t n = (uint64_t)gsi_pe.n_pes;
    gsi_waiter_t w = GSI_WAITER_INIT;

    (void)sync;
    if (__atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL) == epoch * n) {
        __atomic_store_n(released, epoch, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(released, __ATOMIC_ACQUIRE) < epoch)
        gsi_wait_step(&w, fn, waiting_for);
}

static void dissemination(const char *fn, gsi_sync_t *sync, uint64_t epoch)
{
    int n = gsi_pe.n_pes, me = gsi_pe.my_pe;

    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        gsi_waiter_t w = GSI_WAITER_INIT;

        gsi_store64(fn, &sync->barrier[k].value, epoch, (me + dist) % n);
        while (__atomic_load_n(&sync->barrier[k].value, __ATOMIC_ACQUIRE) < epoch)
            gsi_wait_step(&w, fn, waiting_for);
    }
}

void gsi_barrier_world(const char *fn, int complete)
{
    gsi_sync_t *sync = gsi_pe.sync;
    uint64_t epoch;

    if (complete)
        gsi_quiet(fn);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    epoch = ++sync->barrier_epoch;
    if (gsi_pe.n_local == gsi_pe.n_pes)
        central(fn, sync, epoch);
    else
        dissemination(fn, sync, epoch);
}
