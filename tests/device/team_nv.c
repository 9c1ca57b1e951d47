/*
 * tests/device/team_nv.c - NVSHMEM 3.8's team routines on device team ids
 * (issue 31): gshmem_team_split_strided, gshmem_team_split_2d,
 * gshmem_team_get_config, gshmem_team_destroy.
 *
 * The even PEs of the world (with 2 contexts in the config) are checked
 * from the host (my_pe, n_pes, get_config's version and contexts) and from
 * device code (my_pe, n_pes, a barrier, a sum reduction); the odd PEs get
 * GSHMEM_TEAM_INVALID and 0.  A 2-D split of the world with xrange 2: rows
 * of 2 (x), columns (y).  Each team is destroyed; a split after the
 * destroys takes a freed slot.  A config of another version returns
 * GSHMEMX_ERROR_INVALID_VALUE and no team.
 */
#include "dev_test.h"

typedef struct tn_args {
    uint64_t *fails;
    gshmem_team_t team;
    int tme, tn;
    int *src, *dst;
    int expect_sum;
} tn_args_t;

GSHMEM_KERNEL(tn_kernel, tn_args_t, a)
{
    const char *r = "device code on a gshmem_team_split_strided team";

    if (gshmemx_thread_id() != 0)
        return;
    DT_CHECK(a.fails, r, "team_my_pe", 0, a.tme, gshmem_team_my_pe(a.team));
    DT_CHECK(a.fails, r, "team_n_pes", 0, a.tn, gshmem_team_n_pes(a.team));
    gshmem_barrier(a.team);
    a.src[0] = gshmem_my_pe() + 1;
    DT_CHECK(a.fails, r, "int_sum_reduce", 0, 0,
             gshmem_int_sum_reduce(a.team, a.dst, a.src, 1));
    DT_CHECK(a.fails, r, "int_sum_reduce dest", 0, a.expect_sum, a.dst[0]);
}

int main(void)
{
    gshmem_team_config_t conf = GSHMEM_TEAM_CONFIG_INITIALIZER, got, bad;
    gshmem_team_t even, again, x, y;
    int n_even, i, rc;
    tn_args_t a;

    dt_start();
    n_even = (dt_npes + 1) / 2;
    a.fails = dt_fails;
    a.src = (int *)dt_malloc(sizeof(int));
    a.dst = (int *)dt_malloc(sizeof(int));

    conf.num_contexts = 2;
    rc = gshmem_team_split_strided(GSHMEM_TEAM_WORLD, 0, 2, n_even, &conf,
                                   GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS, &even);
    PT_CHECK_EQ("gshmem_team_split_strided", 0, rc);
    if (dt_me % 2 == 0) {
        PT_CHECK_EQ("gshmem_team_split_strided", dt_me / 2, gshmem_team_my_pe(even));
        PT_CHECK_EQ("gshmem_team_split_strided", n_even, gshmem_team_n_pes(even));
        memset(&got, 0, sizeof(got));
        gshmem_team_get_config(even, &got);
        PT_CHECK_EQ("gshmem_team_get_config", GSHMEM_TEAM_CONFIG_VERSION, got.version);
        PT_CHECK_EQ("gshmem_team_get_config", 2, got.num_contexts);
        PT_CHECK_EQ("gshmem_team_get_config", 0, (long long)got.uniqueid);
        a.team = even;
        a.tme = dt_me / 2;
        a.tn = n_even;
        a.expect_sum = 0;
        for (i = 0; i < dt_npes; i += 2)
            a.expect_sum += i + 1;
        DT_LAUNCH(tn_kernel, 1, 1, a);
    } else {
        PT_CHECK_EQ("gshmem_team_split_strided", GSHMEM_TEAM_INVALID, even);
    }
    shmem_barrier_all();

    rc = gshmem_team_split_2d(GSHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y);
    PT_CHECK_EQ("gshmem_team_split_2d", 0, rc);
    PT_CHECK_EQ("gshmem_team_split_2d", dt_me % 2, gshmem_team_my_pe(x));
    PT_CHECK_EQ("gshmem_team_split_2d",
                dt_npes - dt_me / 2 * 2 < 2 ? dt_npes - dt_me / 2 * 2 : 2,
                gshmem_team_n_pes(x));
    PT_CHECK_EQ("gshmem_team_split_2d", dt_me / 2, gshmem_team_my_pe(y));
    PT_CHECK_EQ("gshmem_team_split_2d", (dt_npes - dt_me % 2 + 1) / 2, gshmem_team_n_pes(y));
    gshmem_team_get_config(y, &got);
    PT_CHECK_EQ("gshmem_team_get_config", 0, got.num_contexts);

    gshmem_team_destroy(x);
    gshmem_team_destroy(y);
    gshmem_team_destroy(even); /* GSHMEM_TEAM_INVALID on the odd PEs: nothing */
    PT_CHECK_EQ("gshmem_team_destroy", -1, gshmem_team_n_pes(x));

    rc = gshmem_team_split_strided(GSHMEM_TEAM_WORLD, 0, 1, dt_npes, NULL, 0, &again);
    PT_CHECK_EQ("gshmem_team_split_strided after the destroys", 0, rc);
    PT_CHECK_EQ("gshmem_team_split_strided after the destroys", dt_npes,
                gshmem_team_n_pes(again));
    gshmem_team_destroy(again);

    bad = conf;
    bad.version = 1;
    rc = gshmem_team_split_strided(GSHMEM_TEAM_WORLD, 0, 1, dt_npes, &bad,
                                   GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS, &again);
    PT_CHECK_EQ("gshmem_team_split_strided, config of another version",
                GSHMEMX_ERROR_INVALID_VALUE, rc);
    PT_CHECK_EQ("gshmem_team_split_strided, config of another version", GSHMEM_TEAM_INVALID,
                again);
    shmem_barrier_all();
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
