/*
 * tests/pe/lock.c - distributed locks: shmem_set_lock, shmem_test_lock,
 * shmem_clear_lock.  Every PE enters the critical section K times and does
 * a non-atomic read-modify-write (g, then p) of a counter on PE 0; the
 * counter must end at N*K.  No quiet inside the section: shmem_clear_lock
 * itself must complete the section's stores.  An "inside" count taken
 * with a fetch-add must be 0 on entry: never two holders at once.  Two
 * locks (one on the heap, one a static variable) are used at once.
 */
#include "pe_test.h"

#define K 20

static long static_lock; /* a lock in static memory */
static long counter_b;

static int me, npes;

static void critical_section(long *counter, int *inside, const char *routine, int iter)
{
    long v;
    int others = shmem_int_atomic_fetch_inc(inside, 0);

    if (others != 0)
        PT_CHECK_EQ_F(routine, 0, others, "other PEs inside the section on entry %d", iter);
    v = shmem_long_g(counter, 0);
    shmem_long_p(counter, v + 1, 0);
    shmem_int_atomic_add(inside, -1, 0);
}

int main(void)
{
    long *lock, *counter_a;
    int *inside;
    int i;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    lock = shmem_calloc(4, sizeof(long));
    PT_CHECK("shmem_calloc", lock != NULL, "the lock words");
    if (lock == NULL)
        return pt_finish();
    counter_a = lock + 1;
    inside = (int *)(lock + 2); /* [0] for lock, [1] for static_lock */
    shmem_barrier_all();

    for (i = 0; i < K; i++) {
        /* even rounds: set_lock; odd rounds: poll with test_lock */
        if (i % 2 == 0) {
            shmem_set_lock(lock);
        } else {
            while (shmem_test_lock(lock) != 0)
                ;
        }
        critical_section(counter_a, &inside[0], i % 2 ? "shmem_test_lock" : "shmem_set_lock",
                         i);
        /* nested: the second lock while holding the first, on some rounds */
        if (i % 3 == 0) {
            shmem_set_lock(&static_lock);
            critical_section(&counter_b, &inside[1], "shmem_set_lock", i);
            shmem_clear_lock(&static_lock);
        }
        shmem_clear_lock(lock);
        /* and the static lock alone */
        shmem_set_lock(&static_lock);
        critical_section(&counter_b, &inside[1], "shmem_set_lock", i);
        shmem_clear_lock(&static_lock);
    }
    shmem_barrier_all();
    if (me == 0) {
        PT_CHECK_EQ_F("shmem_clear_lock", (long)npes * K, *counter_a,
                      "counter after %d PEs x %d locked increments", npes, K);
        PT_CHECK_EQ_F("shmem_clear_lock", (long)npes * (K + (K + 2) / 3), counter_b,
                      "counter after %d PEs x %d locked increments", npes, K + (K + 2) / 3);
    }
    /* a free lock: test_lock takes it at once; held: the others are told */
    if (me == 0)
        PT_CHECK_EQ("shmem_test_lock", 0, shmem_test_lock(lock));
    shmem_barrier_all();
    if (me != 0)
        PT_CHECK_EQ_F("shmem_test_lock", 1, shmem_test_lock(lock),
                      "test_lock of a lock PE 0 holds");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(lock);
    shmem_barrier_all();
    shmem_free(lock);
    return pt_finish();
}
