/* ring.c - a complete OpenSHMEM program: each PE passes a token around the
 * ring with put-with-signal, adds to a global sum with an atomic, and PE 0
 * prints what it saw.  Build: gshmemcc ring.c -o ring; run: gshmemrun -np 4 ./ring */
#include <shmem.h>
#include <stdio.h>

static long token[2];    /* global: symmetric on every PE */
static uint64_t arrived; /* signal word */
static long total;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n;
    char name[SHMEM_MAX_NAME_LEN];

    long mine[2] = {me, (long)me * me};
    /* Pass my token to the next PE, and raise its signal once the data lands. */
    shmem_long_put_signal(token, mine, 2, &arrived, 1, SHMEM_SIGNAL_SET, next);
    shmem_signal_wait_until(&arrived, SHMEM_CMP_EQ, 1);

    int prev = (me + n - 1) % n;
    if (token[0] != prev || token[1] != (long)prev * prev) {
        printf("PE %d: got token {%ld, %ld}, expected {%d, %ld}\n", me, token[0], token[1], prev,
               (long)prev * prev);
        shmem_global_exit(1);
    }
    shmem_long_atomic_add(&total, token[1], 0);
    shmem_barrier_all();

    if (me == 0) {
        shmem_info_get_name(name);
        printf("%s: %d PEs passed the ring; sum of squares = %ld (expected %ld)\n", name, n, total,
               (long)(n - 1) * n * (2 * n - 1) / 6);
    }
    shmem_finalize();
    return 0;
}
