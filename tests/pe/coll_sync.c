/*
 * tests/pe/coll_sync.c - the deprecated active-set shmem_barrier and
 * shmem_sync, many times in a row on one pSync (the spec allows it for
 * these two), over every active set of coll_test.h, with members arriving
 * at different moments (one sleeps now and then):
 *  - nobody leaves before every member entered (a count of arrivals, added
 *    atomically before the call, is complete after it);
 *  - puts issued before shmem_barrier are visible after it (it completes
 *    them; with shmem_sync the program quiets first);
 *  - pSync is SHMEM_SYNC_VALUE again once every member is done;
 *  - PEs outside the active set are not held up (they do not call).
 */
#include "coll_test.h"
#include <unistd.h>

#define ROUNDS 60 /* a quarter under the network transport (ct_light) */

static long *arrived; /* [CT_ASETS]: on each set's first PE */
static long *slots;   /* [2][npes]: double-buffered by round parity */

static void one_round(const ct_aset_t *a, int k, int use_sync, long r)
{
    const char *routine = use_sync ? "shmem_sync" : "shmem_barrier";
    int me = (pt_me - a->start) >> a->log_stride, stride = 1 << a->log_stride;
    long *buf = slots + (r % 2) * pt_npes, stamp = r * 1000 + pt_me, v;

    if (r % 8 == (me * 3) % 8)
        usleep(300); /* arrive late now and then */
    shmem_long_atomic_inc(&arrived[k], a->start);
    for (int m = 0; m < a->size; m++)
        shmem_long_p(&buf[pt_me], stamp, a->start + m * stride);
    if (use_sync) {
        shmem_quiet();
        shmem_sync(a->start, a->log_stride, a->size, ct_psync[0]);
    } else {
        shmem_barrier(a->start, a->log_stride, a->size, ct_psync[0]);
    }
    v = shmem_long_atomic_fetch(&arrived[k], a->start);
    if (v < (r + 1) * a->size || v > (r + 2) * a->size)
        PT_CHECK_EQ_F(routine, (r + 1) * a->size, v,
                      "arrivals counted after round %ld over %s (at least; at most %ld)", r,
                      a->name, (r + 2) * a->size);
    for (int m = 0; m < a->size; m++)
        PT_CHECK_EQ_F(routine, r * 1000 + a->start + m * stride, buf[a->start + m * stride],
                      "word put by member %d before round %ld over %s", m, r, a->name);
}

int main(void)
{
    CT_SETUP();
    arrived = shmem_calloc(CT_ASETS, sizeof(long));
    slots = shmem_calloc(2 * (size_t)pt_npes, sizeof(long));
    shmem_barrier_all();
    for (int k = 0; k < CT_ASETS; k++) {
        const ct_aset_t *a = &ct_aset[k];
        long r = 0, rounds = ct_light ? ROUNDS / 4 : ROUNDS;

        shmem_barrier_all(); /* one active set at a time: they share ct_psync */
        if (!ct_in_aset(a, pt_me))
            continue;
        for (; r < rounds; r++)
            one_round(a, k, 0, r);
        for (; r < 2 * rounds; r++)
            one_round(a, k, 1, r);
        for (; r < 3 * rounds; r++)
            one_round(a, k, (int)(r % 2), r);
    }
    shmem_barrier_all();
    ct_check_psync("shmem_barrier", "after the last round");
    shmem_free(slots);
    shmem_free(arrived);
    return ct_finish();
}
