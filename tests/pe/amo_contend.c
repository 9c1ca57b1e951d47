/*
 * tests/pe/amo_contend.c - every PE, PE 0 included, hammers the same words
 * on PE 0 with atomics: an 8-byte fetch-add and add, a 4-byte add on each
 * half of one 8-byte word, and a signal add; the totals must be exact.
 *
 * What it guards: PE 0 reaches its own words by load/store while the others
 * may come through a NIC.  Where the NIC's atomics are not atomic with the
 * CPU's (IBV_ATOMIC_HCA, as rxe's), a CPU add between the NIC's read and
 * write is lost unless PE 0's own atomics go through the NIC too
 * (GST_CAP_AMO_ALL_PES); amo.c's few rounds missed it, these many do not.
 * The two 4-byte halves check that a 4-byte atomic (a compare-and-swap loop
 * on the 8-byte word over verbs) leaves its neighbour alone.
 */
#include "pe_test.h"

#define ROUNDS 3000

int main(void)
{
    long *word;
    int *half;
    uint64_t *sig;
    long expect;
    int me, npes, i;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    word = shmem_calloc(2, sizeof(long));
    half = shmem_calloc(2, sizeof(int));
    sig = shmem_calloc(1, sizeof(uint64_t));
    shmem_barrier_all();
    for (i = 0; i < ROUNDS; i++) {
        if (i & 1)
            shmem_long_atomic_add(&word[0], 1, 0);
        else
            (void)shmem_long_atomic_fetch_add(&word[0], 1, 0);
        shmem_int_atomic_add(&half[me & 1], 1, 0);
        shmem_signal_add(sig, 2, 0);
    }
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0) {
        int odd = npes / 2, even = npes - odd;

        expect = (long)npes * ROUNDS;
        PT_CHECK_EQ_F("shmem_long_atomic_add", expect, shmem_long_atomic_fetch(&word[0], 0),
                      "PE 0's word after %d adds from each PE", ROUNDS);
        PT_CHECK_EQ_F("shmem_int_atomic_add", even * ROUNDS,
                      shmem_int_atomic_fetch(&half[0], 0), "the low half (even PEs' adds)");
        PT_CHECK_EQ_F("shmem_int_atomic_add", odd * ROUNDS, shmem_int_atomic_fetch(&half[1], 0),
                      "the high half (odd PEs' adds)");
        PT_CHECK_EQ_F("shmem_signal_add", (uint64_t)(2 * expect), shmem_signal_fetch(sig),
                      "the signal after shmem_signal_add from each PE");
    }
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(half);
    shmem_free(word);
    return pt_finish();
}
