/*
 * tests/pe/barrier.c - shmem_barrier_all and shmem_sync_all, many times in
 * a row, with PEs arriving at different moments (one PE sleeps before each
 * round):
 *  - nobody leaves a barrier before everybody entered it (a count of
 *    arrivals, added atomically before the barrier, is complete after it);
 *  - puts and nbi puts issued before shmem_barrier_all are visible after it
 *    (barrier_all completes them); with shmem_sync_all the program quiets
 *    first, as sync_all only synchronizes.
 */
#include "pe_test.h"
#include <unistd.h>

#define ROUNDS 100

static int me, npes;
static long *slots;   /* [2][npes]: double-buffered by round parity */
static long *arrived; /* on PE 0 */

static void round_trip(int use_sync, long r)
{
    long *buf = slots + (r % 2) * npes;
    long stamp = r * 1000 + me, v;
    int k, q;

    if (r % 16 == (me * 5) % 16)
        usleep(1000); /* arrive late now and then */
    shmem_long_atomic_inc(arrived, 0);
    for (k = 0; k < npes; k++) {
        if (k % 2)
            shmem_long_put_nbi(&buf[me], &stamp, 1, (me + k) % npes);
        else
            shmem_long_p(&buf[me], stamp, (me + k) % npes);
    }
    if (use_sync) {
        shmem_quiet();
        shmem_sync_all();
    } else {
        shmem_barrier_all();
    }
    v = shmem_long_atomic_fetch(arrived, 0);
    if (v < (r + 1) * npes || v > (r + 2) * npes)
        PT_CHECK_EQ_F(use_sync ? "shmem_sync_all" : "shmem_barrier_all", (r + 1) * npes, v,
                      "arrivals counted after round %ld (at least; at most %ld)", r,
                      (r + 2) * npes);
    for (q = 0; q < npes; q++)
        PT_CHECK_EQ_F(use_sync ? "shmem_sync_all" : "shmem_barrier_all", r * 1000 + q, buf[q],
                      "word put by PE %d before the round %ld barrier", q, r);
}

int main(void)
{
    long r;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    slots = shmem_calloc(2 * (size_t)npes + 1, sizeof(long));
    PT_CHECK("shmem_calloc", slots != NULL, "the slots");
    if (slots == NULL)
        return pt_finish();
    arrived = slots + 2 * npes;
    shmem_barrier_all();

    for (r = 0; r < ROUNDS; r++)
        round_trip(0, r);
    for (; r < 2 * ROUNDS; r++)
        round_trip(1, r);
    /* alternate the two */
    for (; r < 3 * ROUNDS; r++)
        round_trip((int)(r % 2), r);

    shmem_barrier_all();
    shmem_free(slots);
    return pt_finish();
}
