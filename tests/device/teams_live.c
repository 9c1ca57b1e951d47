/*
 * tests/device/teams_live.c - teams made and destroyed while a kernel runs
 * on TEAM_WORLD never show it a torn team (issue 17).
 *
 * A second host thread splits the world into teams and destroys them,
 * CYCLES times (a team of every PE and, with 2 PEs or more, one of PEs
 * 1.., so slots are taken, freed and taken again; and a team split from
 * SHMEM_TEAM_SHARED, whose members are a list, not a stride: its device
 * copy of the list must be made and dropped without waiting for the
 * device, issue 30), while the lanes of one
 * block run ROUNDS rounds of a device sum reduction and a barrier on
 * TEAM_WORLD.  Every lane checks, every round, what the world team says of
 * itself (n_pes, my_pe, member translation) and lane 0 checks the sum.
 * The device team table is published slot by slot (gsd/state.h), so the
 * churn in other slots must never be seen there: a slot 0 half written
 * would show as a wrong value, or end the job with "not a valid team".
 */
#include <pthread.h>
#include <sched.h>

#include "dev_test.h"

#define CYCLES 40

typedef struct live_args {
    uint64_t *fails;
    int *src, *dst; /* one int each, device heap */
    int me, npes, rounds;
} live_args_t;

GSHMEM_KERNEL(live_kernel, live_args_t, a)
{
    unsigned k = gshmemx_thread_id();
    int r, rc;

    for (r = 0; r < a.rounds; r++) {
        DT_CHECK(a.fails, "gshmem_team_n_pes", "TEAM_WORLD in round", r, a.npes,
                 gshmem_team_n_pes(GSHMEM_TEAM_WORLD));
        DT_CHECK(a.fails, "gshmem_team_my_pe", "TEAM_WORLD in round", r, a.me,
                 gshmem_team_my_pe(GSHMEM_TEAM_WORLD));
        DT_CHECK(a.fails, "gshmem_team_translate_pe", "TEAM_WORLD's last member in round", r,
                 a.npes - 1,
                 gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, a.npes - 1, GSHMEM_TEAM_WORLD));
        if (k == 0)
            a.src[0] = r + a.me;
        gshmemx_syncthreads();
        rc = gshmemx_int_sum_reduce_block(GSHMEM_TEAM_WORLD, a.dst, a.src, 1);
        if (k == 0) {
            DT_CHECK(a.fails, "gshmemx_int_sum_reduce_block", "return value in round", r, 0,
                     rc);
            DT_CHECK(a.fails, "gshmemx_int_sum_reduce_block", "sum over TEAM_WORLD in round", r,
                     a.npes * r + a.npes * (a.npes - 1) / 2, a.dst[0]);
        }
        /* No PE writes its src for the next round before every PE read it. */
        gshmemx_barrier_all_block();
    }
}

static int started;     /* the churn thread made its first team */
static int churn_fails; /* its failed checks (reported by the main thread) */

static shmem_team_t split(shmem_team_t parent, int start, int size)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;

    shmem_team_split_strided(parent, start, 1, size, NULL, 0, &t);
    return t;
}

static void *churn(void *arg)
{
    int c;

    (void)arg;
    for (c = 0; c < CYCLES; c++) {
        shmem_team_t all = split(SHMEM_TEAM_WORLD, 0, dt_npes);
        shmem_team_t tail = dt_npes > 1 ? split(SHMEM_TEAM_WORLD, 1, dt_npes - 1)
                                        : SHMEM_TEAM_INVALID;
        shmem_team_t listed = split(SHMEM_TEAM_SHARED, 0, shmem_team_n_pes(SHMEM_TEAM_SHARED));
        gshmem_team_t id = gshmemx_team_device_id(all);

        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        if (id == GSHMEM_TEAM_INVALID || id == GSHMEM_TEAM_WORLD) {
            if (churn_fails++ < PT_MAX_LINES)
                fprintf(stderr,
                        "FAIL PE %d: gshmemx_team_device_id: split team of cycle %d: expected "
                        "a slot of its own, got %d\n",
                        dt_me, c, (int)id);
        }
        if (listed == SHMEM_TEAM_INVALID) {
            if (churn_fails++ < PT_MAX_LINES)
                fprintf(stderr, "FAIL PE %d: split of SHMEM_TEAM_SHARED in cycle %d failed\n",
                        dt_me, c);
        } else {
            shmem_team_destroy(listed);
        }
        if (tail != SHMEM_TEAM_INVALID)
            shmem_team_destroy(tail);
        shmem_team_destroy(all);
    }
    return NULL;
}

int main(void)
{
    live_args_t a;
    pthread_t helper;
    int prov = -1, rc;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov);
    pt_setup();
    if (prov != SHMEM_THREAD_MULTIPLE)
        return pt_skip("SHMEM_THREAD_MULTIPLE is not provided");
    dt_me = pt_me;
    dt_npes = pt_npes;
    dt_fails = (uint64_t *)gshmem_calloc(1, sizeof(uint64_t));
    PT_CHECK("gshmem_calloc", dt_fails != NULL, "the device failure counter");
    if (!dt_fails)
        return pt_finish();
    a.fails = dt_fails;
    a.src = (int *)dt_malloc(sizeof(int));
    a.dst = (int *)dt_malloc(sizeof(int));
    a.me = dt_me;
    a.npes = dt_npes;
    a.rounds = dt_npes <= 2 ? 200 : 100;
    shmem_barrier_all();

    rc = pthread_create(&helper, NULL, churn, NULL);
    PT_CHECK_EQ("pthread_create", 0, rc);
    if (rc != 0)
        return pt_finish();
    /* The kernel starts once teams are changing. */
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        sched_yield();
    DT_LAUNCH(live_kernel, 1, dt_threads(), a);
    pthread_join(helper, NULL);
    PT_CHECK_EQ("shmem_team_split_strided", 0, churn_fails);

    shmem_barrier_all();
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
