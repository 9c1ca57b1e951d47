/*
 * tests/device/team_init.c - gshmemx_team_init (issue 18): teams of any PE
 * set from a unique id.  Team A: every PE, in reverse world order; team B:
 * PE 0 and the odd PEs from the highest down (0, 3, 1 at 4 PEs), made by its
 * members only while the others wait.  Each is checked from the host
 * (gshmem_team_my_pe / _n_pes / _translate_pe, the host handle from
 * gshmemx_team_host, shmem_team_sync and a host sum reduction on it) and
 * from device code (the same queries, a device barrier and a sum
 * reduction); destroyed through the host handle, the id then names no
 * team.  Then the argument checks' codes: NULL config, no unique id, npes
 * and the index out of range, a config of another version.
 */
#include "dev_test.h"

typedef struct ti_args {
    uint64_t *fails;
    gshmem_team_t team;
    int tme, tn;
    int *src, *dst;
    int expect_sum;
} ti_args_t;

static uint64_t uid_sym[2]; /* symmetric (static data): PE 0's ids for A, B */
static int isrc, idst;      /* symmetric: the host reduction's buffers */

GSHMEM_KERNEL(ti_kernel, ti_args_t, a)
{
    const char *r = "device code on a gshmemx_team_init team";

    if (gshmemx_thread_id() != 0)
        return;
    DT_CHECK(a.fails, r, "team_my_pe", 0, a.tme, gshmem_team_my_pe(a.team));
    DT_CHECK(a.fails, r, "team_n_pes", 0, a.tn, gshmem_team_n_pes(a.team));
    DT_CHECK(a.fails, r, "translate_pe(WORLD, me, team)", 0, a.tme,
             gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, gshmem_my_pe(), a.team));
    gshmem_barrier(a.team);
    a.src[0] = gshmem_my_pe() + 1;
    DT_CHECK(a.fails, r, "int_sum_reduce", 0, 0,
             gshmem_int_sum_reduce(a.team, a.dst, a.src, 1));
    DT_CHECK(a.fails, r, "int_sum_reduce dest", 0, a.expect_sum, a.dst[0]);
}

/* Make the team of `n` members in which this PE has index `idx`, check it
 * from both sides, destroy it. */
static void one_team(const char *name, uint64_t uid, int n, int idx, const int *world_of,
                     int *src, int *dst)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t t = GSHMEM_TEAM_INVALID;
    shmem_team_t h;
    ti_args_t a;
    int sum = 0, i;

    cfg.uniqueid = uid;
    PT_CHECK_EQ_F("gshmemx_team_init", GSHMEMX_SUCCESS,
                  gshmemx_team_init(&t, &cfg, GSHMEM_TEAM_CONFIG_MASK_UNIQUEID, n, idx),
                  "team %s", name);
    PT_CHECK("gshmemx_team_init", t != GSHMEM_TEAM_INVALID, "a team id");
    if (t == GSHMEM_TEAM_INVALID)
        return;
    PT_CHECK_EQ("gshmem_team_my_pe", idx, gshmem_team_my_pe(t));
    PT_CHECK_EQ("gshmem_team_n_pes", n, gshmem_team_n_pes(t));
    for (i = 0; i < n; i++) {
        PT_CHECK_EQ_F("gshmem_team_translate_pe", world_of[i],
                      gshmem_team_translate_pe(t, i, GSHMEM_TEAM_WORLD), "team %s member %d",
                      name, i);
        sum += world_of[i] + 1;
    }
    h = gshmemx_team_host(t);
    PT_CHECK("gshmemx_team_host", h != SHMEM_TEAM_INVALID, "the team's host handle");
    PT_CHECK_EQ("shmem_team_my_pe", idx, shmem_team_my_pe(h));
    PT_CHECK_EQ("shmem_team_sync", 0, shmem_team_sync(h));
    isrc = dt_me + 1;
    PT_CHECK_EQ("shmem_int_sum_reduce", 0, shmem_int_sum_reduce(h, &idst, &isrc, 1));
    PT_CHECK_EQ("shmem_int_sum_reduce", sum, idst);

    a.fails = dt_fails;
    a.team = t;
    a.tme = idx;
    a.tn = n;
    a.src = src;
    a.dst = dst;
    a.expect_sum = sum;
    DT_LAUNCH(ti_kernel, 1, 1, a);

    shmem_team_destroy(h);
    PT_CHECK("gshmemx_team_host", gshmemx_team_host(t) == SHMEM_TEAM_INVALID,
             "SHMEM_TEAM_INVALID after the destroy");
    PT_CHECK_EQ("gshmem_team_n_pes", -1, gshmem_team_n_pes(t));
}

static void bad_args(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t t = 5;
    const int bad = GSHMEMX_ERROR_INVALID_VALUE;

    PT_CHECK_EQ("gshmemx_team_init (NULL config)", bad, gshmemx_team_init(&t, NULL, 0, 1, 0));
    PT_CHECK_EQ("gshmemx_team_init (NULL config)", GSHMEM_TEAM_INVALID, t);
    PT_CHECK_EQ("gshmemx_team_init (no unique id)", bad, gshmemx_team_init(&t, &cfg, 0, 1, 0));
    cfg.uniqueid = 12345;
    PT_CHECK_EQ("gshmemx_team_init (npes 0)", bad, gshmemx_team_init(&t, &cfg, 0, 0, 0));
    PT_CHECK_EQ("gshmemx_team_init (npes > n_pes)", bad,
                gshmemx_team_init(&t, &cfg, 0, dt_npes + 1, 0));
    PT_CHECK_EQ("gshmemx_team_init (index = npes)", bad, gshmemx_team_init(&t, &cfg, 0, 1, 1));
    cfg.version = 1 << 16;
    PT_CHECK_EQ("gshmemx_team_init (version)", bad, gshmemx_team_init(&t, &cfg, 0, 1, 0));
    PT_CHECK_EQ("gshmemx_team_get_uniqueid (NULL)", bad, gshmemx_team_get_uniqueid(NULL));
}

int main(void)
{
    int *world_of, *src, *dst, nb = 0, my_b = -1, i;

    dt_start();
    world_of = (int *)malloc((size_t)dt_npes * sizeof(int));
    src = (int *)dt_malloc(sizeof(int));
    dst = (int *)dt_malloc(sizeof(int));
    if (dt_me == 0) {
        PT_CHECK_EQ("gshmemx_team_get_uniqueid", 0, gshmemx_team_get_uniqueid(&uid_sym[0]));
        PT_CHECK_EQ("gshmemx_team_get_uniqueid", 0, gshmemx_team_get_uniqueid(&uid_sym[1]));
        PT_CHECK("gshmemx_team_get_uniqueid", uid_sym[0] != uid_sym[1], "two different ids");
    }
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, uid_sym, uid_sym, 2, 0);

    /* A: everyone, reversed */
    for (i = 0; i < dt_npes; i++)
        world_of[i] = dt_npes - 1 - i;
    one_team("A", uid_sym[0], dt_npes, dt_npes - 1 - dt_me, world_of, src, dst);

    /* B: PE 0, then the odd PEs from the highest down */
    world_of[nb++] = 0;
    for (i = dt_npes - 1; i >= 1; i--)
        if (i % 2 == 1)
            world_of[nb++] = i;
    for (i = 0; i < nb; i++)
        if (world_of[i] == dt_me)
            my_b = i;
    if (my_b >= 0)
        one_team("B", uid_sym[1], nb, my_b, world_of, src, dst);
    shmem_barrier_all();

    bad_args();
    shmem_barrier_all();
    gshmem_free(dst);
    gshmem_free(src);
    free(world_of);
    return dt_finish();
}
