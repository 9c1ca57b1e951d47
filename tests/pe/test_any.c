/*
 * tests/pe/test_any.c - the _any waits and tests answer every satisfied
 * element in turn, not always the lowest ("if an entry i ... satisfies the
 * test condition, a series of calls ... must eventually return i"):
 *   - all N elements satisfied: N consecutive calls of shmem_int_test_any,
 *     _test_any_vector, _wait_until_any and _wait_until_any_vector each
 *     return N distinct indices;
 *   - with element 0 excluded by status, the other N-1 within N calls;
 *   - two of N satisfied, one of the others excluded by status: within N
 *     calls both satisfied indices come back, and nothing else does.
 * The elements are set by the right neighbour's puts, then a barrier.
 */
#include "pe_test.h"

#include <shmem.h>
#include <stdint.h>

#define N 8

static int ivars[N];

/* Which indices n calls of the routine returned, as bits; a bit past N
 * for any index out of range. */
#define SEEN(n, call)                                                                          \
    ({                                                                                         \
        unsigned seen_ = 0;                                                                    \
        for (int k_ = 0; k_ < (n); k_++) {                                                     \
            size_t i_ = (call);                                                                \
            seen_ |= 1u << (i_ < N ? i_ : N);                                                  \
        }                                                                                      \
        seen_;                                                                                 \
    })

int main(void)
{
    const int all_ones[N] = {1, 1, 1, 1, 1, 1, 1, 1};
    int status[N] = {0};
    int one[N], right;

    PT_START();
    right = (pt_me + 1) % pt_npes;
    for (int i = 0; i < N; i++)
        one[i] = 1;

    /* Every element 1, written by the left neighbour. */
    shmem_int_put(ivars, one, N, right);
    shmem_barrier_all();

    PT_CHECK_EQ("shmem_int_test_any", 0xffu,
                SEEN(N, shmem_int_test_any(ivars, N, NULL, SHMEM_CMP_EQ, 1)));
    PT_CHECK_EQ("shmem_int_test_any_vector", 0xffu,
                SEEN(N, shmem_int_test_any_vector(ivars, N, NULL, SHMEM_CMP_EQ, all_ones)));
    PT_CHECK_EQ("shmem_int_wait_until_any", 0xffu,
                SEEN(N, shmem_int_wait_until_any(ivars, N, NULL, SHMEM_CMP_EQ, 1)));
    PT_CHECK_EQ("shmem_int_wait_until_any_vector", 0xffu,
                SEEN(N,
                     shmem_int_wait_until_any_vector(ivars, N, NULL, SHMEM_CMP_EQ, all_ones)));
    /* With a status mask: element 0 excluded, the other seven within N calls. */
    status[0] = 1;
    PT_CHECK_EQ("shmem_int_test_any (status)", 0xfeu,
                SEEN(N, shmem_int_test_any(ivars, N, status, SHMEM_CMP_EQ, 1)));
    shmem_barrier_all();

    /* Only 2 and 5 satisfy EQ 7; 3 holds 7 too but is excluded. */
    for (int i = 0; i < N; i++)
        one[i] = i == 2 || i == 3 || i == 5 ? 7 : 0;
    status[0] = 0;
    status[3] = 1;
    shmem_int_put(ivars, one, N, right);
    shmem_barrier_all();

    PT_CHECK_EQ("shmem_int_test_any (two satisfied)", (1u << 2) | (1u << 5),
                SEEN(N, shmem_int_test_any(ivars, N, status, SHMEM_CMP_EQ, 7)));
    PT_CHECK_EQ("shmem_int_wait_until_any (two satisfied)", (1u << 2) | (1u << 5),
                SEEN(N, shmem_int_wait_until_any(ivars, N, status, SHMEM_CMP_EQ, 7)));
    return pt_finish();
}
