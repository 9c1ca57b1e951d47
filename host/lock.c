/* host/lock.c - Distributed Locking: a ticket lock in the lock variable's
 * copy on PE 0.  High 32 bits: next ticket; low 32 bits: ticket now served.
 * The specification requires the variable to start at 0, which is "free". */
#include "api.h"

#define LOCK_HOME 0
#define TICKET_ONE ((uint64_t)1 << 32)
#define SERVING_MASK (TICKET_ONE - 1)

static uint64_t *lock_word(const char *fn, long *lock)
{
    gsi_check_init(fn);
    _Static_assert(sizeof(long) == sizeof(uint64_t), "the lock needs a 64-bit long");
    return (uint64_t *)lock;
}

static uint64_t lock_amo(const char *fn, uint64_t *word, gst_amo_op_t op, uint64_t operand,
                         uint64_t compare)
{
    gsi_target_t t;
    uint64_t *p = gsi_amo_target(fn, word, sizeof(*word), LOCK_HOME, &t), r = compare;

    if (!p) {
        gsi_net_amo(fn, &t, LOCK_HOME, op, sizeof(r), &operand, &compare, &r);
        return r;
    }
    switch (op) {
    case GST_AMO_FADD: return __atomic_fetch_add(p, operand, __ATOMIC_ACQ_REL);
    case GST_AMO_CSWAP:
        __atomic_compare_exchange_n(p, &r, operand, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        return r;
    default: return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    }
}

void pshmem_set_lock(long *lock)
{
    const char *fn = "shmem_set_lock";
    uint64_t *word = lock_word(fn, lock);
    uint64_t ticket = lock_amo(fn, word, GST_AMO_FADD, TICKET_ONE, 0) >> 32;
    gsi_waiter_t w = GSI_WAITER_INIT;

    while ((lock_amo(fn, word, GST_AMO_FETCH, 0, 0) & SERVING_MASK) !=
           (ticket & SERVING_MASK))
        gsi_wait_step(&w, fn, "a distributed lock held by another PE");
}
GSI_ALIAS(shmem_set_lock)

void pshmem_clear_lock(long *lock)
{
    const char *fn = "shmem_clear_lock";
    uint64_t *word = lock_word(fn, lock);
    uint64_t old = lock_amo(fn, word, GST_AMO_FETCH, 0, 0), seen;

    /* Writes made under the lock are complete before the next holder enters. */
    gsi_quiet(fn);
    for (;;) {
        uint64_t next = (old & ~SERVING_MASK) | ((old + 1) & SERVING_MASK);

        if ((old >> 32) == (old & SERVING_MASK))
            gsi_fatal(fn, "the lock is not set");
        seen = lock_amo(fn, word, GST_AMO_CSWAP, next, old);
        if (seen == old)
            return;
        old = seen; /* a new waiter took a ticket meanwhile */
    }
}
GSI_ALIAS(shmem_clear_lock)

int pshmem_test_lock(long *lock)
{
    const char *fn = "shmem_test_lock";
    uint64_t *word = lock_word(fn, lock);
    uint64_t old = lock_amo(fn, word, GST_AMO_FETCH, 0, 0);

    for (;;) {
        uint64_t seen;

        if ((old >> 32) != (old & SERVING_MASK))
            return 1; /* held (or waited for) by someone */
        seen = lock_amo(fn, word, GST_AMO_CSWAP, old + TICKET_ONE, old);
        if (seen == old)
            return 0;
        old = seen;
    }
}
GSI_ALIAS(shmem_test_lock)
