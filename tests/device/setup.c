/*
 * tests/device/setup.c - the setup and query names of NVSHMEM's API (issue
 * 18): gshmemx_init_status before and after shmem_init; the team queries
 * (gshmem_team_my_pe, _n_pes, _translate_pe) from host code and from
 * device code, on the world, shared, node and an even-PE team, against
 * the host API's answers; gshmem_info_get_version / _get_name and
 * gshmemx_vendor_get_version_info and gshmemx_mc_ptr (NULL) on both sides;
 * gshmemx_barrier_warpgroup (a full warpgroup and a partial one: each lane
 * puts to the next PE, the barrier, then each reads what the previous PE
 * put) and gshmemx_double2_maxloc_reduce_block (distinct maxima, and a tie
 * that the smallest index must win).
 */
#include "dev_test.h"

#define MAXPE 8
#define WG 128u  /* lanes of a warpgroup */
#define NMAX 5   /* maxloc elements */
#define ROUNDS 3 /* warpgroup barrier rounds */

typedef struct setup_args {
    uint64_t *fails;
    gshmem_team_t even; /* this PE's even team, or GSHMEM_TEAM_INVALID */
    int even_me, even_n;
    int shared_me, shared_n, node_me, node_n;
    uint64_t *wg_buf; /* [ROUNDS][2 * WG]: the previous PE's lanes put here */
    double2 *msrc, *mdst;
} setup_args_t;

DT_HD int same_name(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

DT_HD uint64_t wg_val(int pe, int round, unsigned lane)
{
    return (uint64_t)pe * 100000u + (uint64_t)round * 1000u + lane + 1u;
}

/* PE p's pair i: PE i % n holds the largest x of element i; element
 * NMAX - 1 is a tie on x, and the smallest y (the last PE's) must win. */
DT_HD double2 mval(int p, int n, int i)
{
    double2 v;

    if (i == NMAX - 1) {
        v.x = 7.0;
        v.y = 50.0 - p;
    } else {
        v.x = p == i % n ? 100.0 + i : (double)p;
        v.y = p * 10.0 + i;
    }
    return v;
}

DT_NOINL void check_queries(const setup_args_t *a)
{
    int me = gshmem_my_pe(), n = gshmem_n_pes(), major, minor, patch;
    char name[SHMEM_MAX_NAME_LEN];
    const char *r = "device queries";

    DT_CHECK(a->fails, r, "team_my_pe(WORLD)", 0, me, gshmem_team_my_pe(GSHMEM_TEAM_WORLD));
    DT_CHECK(a->fails, r, "team_n_pes(WORLD)", 0, n, gshmem_team_n_pes(GSHMEM_TEAM_WORLD));
    DT_CHECK(a->fails, r, "team_my_pe(SHARED)", 0, a->shared_me,
             gshmem_team_my_pe(GSHMEM_TEAM_SHARED));
    DT_CHECK(a->fails, r, "team_n_pes(SHARED)", 0, a->shared_n,
             gshmem_team_n_pes(GSHMEM_TEAM_SHARED));
    DT_CHECK(a->fails, r, "team_my_pe(NODE)", 0, a->node_me,
             gshmem_team_my_pe(GSHMEMX_TEAM_NODE));
    DT_CHECK(a->fails, r, "team_n_pes(NODE)", 0, a->node_n,
             gshmem_team_n_pes(GSHMEMX_TEAM_NODE));
    DT_CHECK(a->fails, r, "team_my_pe(INVALID)", 0, -1, gshmem_team_my_pe(GSHMEM_TEAM_INVALID));
    DT_CHECK(a->fails, r, "translate_pe(WORLD, me, NODE)", 0, a->node_me,
             gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, me, GSHMEMX_TEAM_NODE));
    if (a->even != GSHMEM_TEAM_INVALID) {
        DT_CHECK(a->fails, r, "team_my_pe(even)", 0, a->even_me, gshmem_team_my_pe(a->even));
        DT_CHECK(a->fails, r, "team_n_pes(even)", 0, a->even_n, gshmem_team_n_pes(a->even));
        /* even member j is world PE 2j; world PE 1 is no member */
        DT_CHECK(a->fails, r, "translate_pe(even, last, WORLD)", 0, 2 * (a->even_n - 1),
                 gshmem_team_translate_pe(a->even, a->even_n - 1, GSHMEM_TEAM_WORLD));
        if (n > 1)
            DT_CHECK(a->fails, r, "translate_pe(WORLD, 1, even)", 0, -1,
                     gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, 1, a->even));
    }
    gshmem_info_get_version(&major, &minor);
    DT_CHECK(a->fails, r, "info_get_version major", 0, SHMEM_MAJOR_VERSION, major);
    DT_CHECK(a->fails, r, "info_get_version minor", 0, SHMEM_MINOR_VERSION, minor);
    gshmem_info_get_name(name);
    DT_CHECK_TRUE(a->fails, r, "info_get_name", 0, same_name(name, SHMEM_VENDOR_STRING));
    gshmemx_vendor_get_version_info(&major, &minor, &patch);
    DT_CHECK(a->fails, r, "vendor major", 0, GSHMEM_VERSION_MAJOR, major);
    DT_CHECK(a->fails, r, "vendor minor", 0, GSHMEM_VERSION_MINOR, minor);
    DT_CHECK(a->fails, r, "vendor patch", 0, GSHMEM_VERSION_PATCH, patch);
    DT_CHECK_TRUE(a->fails, r, "mc_ptr(WORLD)", 0,
                  gshmemx_mc_ptr(GSHMEM_TEAM_WORLD, a->wg_buf) == NULL);
}

/* Warpgroup g of the block runs ROUNDS barriers on its own team (0: the
 * world, 1: the node team), so the two never share a team's counters. */
DT_NOINL void check_warpgroup(const setup_args_t *a)
{
    int me = gshmem_my_pe(), n = gshmem_n_pes();
    unsigned tid = gshmemx_thread_id(), g = tid / WG, lane = tid % WG;
    gshmem_team_t team = g == 0 ? GSHMEM_TEAM_WORLD : GSHMEMX_TEAM_NODE;
    int tn = gshmem_team_n_pes(team), tme = gshmem_team_my_pe(team);
    int next = gshmem_team_translate_pe(team, (tme + 1) % tn, GSHMEM_TEAM_WORLD);
    int prev = gshmem_team_translate_pe(team, (tme + tn - 1) % tn, GSHMEM_TEAM_WORLD);

    (void)n;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t *slot = a->wg_buf + (size_t)r * 2 * WG + g * WG + lane;

        gshmem_uint64_p(slot, wg_val(me, r, lane), next);
        DT_CHECK(a->fails, "gshmemx_barrier_warpgroup", "return", lane, 0,
                 gshmemx_barrier_warpgroup(team));
        DT_CHECK(a->fails, "gshmemx_barrier_warpgroup", "slot", lane,
                 (long long)wg_val(prev, r, lane), (long long)*slot);
    }
    if (g == 0)
        gshmemx_barrier_all_warpgroup();
}

GSHMEM_KERNEL(setup_kernel, setup_args_t, a)
{
    int n = gshmem_n_pes();
    unsigned tid = gshmemx_thread_id();

    if (tid == 0)
        check_queries(&a);
    check_warpgroup(&a);
    gshmemx_syncthreads();
    DT_CHECK(a.fails, "gshmemx_double2_maxloc_reduce_block", "return", tid, 0,
             gshmemx_double2_maxloc_reduce_block(GSHMEM_TEAM_WORLD, a.mdst, a.msrc, NMAX));
    if (tid < NMAX) {
        int win = tid == NMAX - 1 ? n - 1 : (int)tid % n;
        double2 want = mval(win, n, (int)tid);

        DT_CHECK(a.fails, "gshmemx_double2_maxloc_reduce_block", "dest.x", tid,
                 (long long)want.x, (long long)a.mdst[tid].x);
        DT_CHECK(a.fails, "gshmemx_double2_maxloc_reduce_block", "dest.y", tid,
                 (long long)want.y, (long long)a.mdst[tid].y);
    }
}

static void host_queries(const setup_args_t *a, shmem_team_t even)
{
    int me = shmem_my_pe(), major = 0, minor = 0, patch = 0;
    char name[SHMEM_MAX_NAME_LEN];

    PT_CHECK_EQ("gshmem_team_my_pe", me, gshmem_team_my_pe(GSHMEM_TEAM_WORLD));
    PT_CHECK_EQ("gshmem_team_n_pes", shmem_n_pes(), gshmem_team_n_pes(GSHMEM_TEAM_WORLD));
    PT_CHECK_EQ("gshmem_team_my_pe", a->shared_me, gshmem_team_my_pe(GSHMEM_TEAM_SHARED));
    PT_CHECK_EQ("gshmem_team_n_pes", a->node_n, gshmem_team_n_pes(GSHMEMX_TEAM_NODE));
    PT_CHECK_EQ("gshmem_team_my_pe", -1, gshmem_team_my_pe(GSHMEM_TEAM_INVALID));
    PT_CHECK_EQ("gshmem_team_n_pes", -1, gshmem_team_n_pes(GSD_MAX_TEAMS - 1));
    PT_CHECK_EQ("gshmem_team_translate_pe", a->node_me,
                gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, me, GSHMEMX_TEAM_NODE));
    PT_CHECK_EQ("gshmem_team_translate_pe", -1,
                gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, shmem_n_pes(), GSHMEMX_TEAM_NODE));
    if (even != SHMEM_TEAM_INVALID) {
        PT_CHECK_EQ("gshmem_team_my_pe", shmem_team_my_pe(even), gshmem_team_my_pe(a->even));
        PT_CHECK_EQ("gshmem_team_n_pes", shmem_team_n_pes(even), gshmem_team_n_pes(a->even));
        PT_CHECK_EQ("gshmem_team_translate_pe",
                    shmem_team_translate_pe(even, a->even_n - 1, SHMEM_TEAM_WORLD),
                    gshmem_team_translate_pe(a->even, a->even_n - 1, GSHMEM_TEAM_WORLD));
    }
    gshmem_info_get_version(&major, &minor);
    PT_CHECK_EQ("gshmem_info_get_version", SHMEM_MAJOR_VERSION, major);
    PT_CHECK_EQ("gshmem_info_get_version", SHMEM_MINOR_VERSION, minor);
    gshmem_info_get_name(name);
    PT_CHECK("gshmem_info_get_name", same_name(name, SHMEM_VENDOR_STRING), SHMEM_VENDOR_STRING);
    gshmemx_vendor_get_version_info(&major, &minor, &patch);
    PT_CHECK_EQ("gshmemx_vendor_get_version_info", GSHMEM_VERSION_MAJOR, major);
    PT_CHECK_EQ("gshmemx_vendor_get_version_info", GSHMEM_VERSION_MINOR, minor);
    PT_CHECK_EQ("gshmemx_vendor_get_version_info", GSHMEM_VERSION_PATCH, patch);
    PT_CHECK("gshmemx_mc_ptr", gshmemx_mc_ptr(GSHMEM_TEAM_WORLD, a->wg_buf) == NULL, "NULL");
    PT_CHECK("gshmemx_mc_ptr", gshmemx_mc_ptr(GSHMEM_TEAM_INVALID, a->wg_buf) == NULL, "NULL");
}

int main(void)
{
    int before = gshmemx_init_status();
    setup_args_t a;
    shmem_team_t even;
    double2 h[NMAX];
    int i, threads;

    dt_start();
    PT_CHECK_EQ("gshmemx_init_status", GSHMEM_STATUS_NOT_INITIALIZED, before);
    PT_CHECK_EQ("gshmemx_init_status", GSHMEM_STATUS_IS_INITIALIZED, gshmemx_init_status());
    if (dt_npes > MAXPE)
        return pt_skip("more PEs than the test's tables hold");
    memset(&a, 0, sizeof(a));
    a.fails = dt_fails;
    a.shared_me = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    a.shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    a.node_me = shmem_team_my_pe(SHMEMX_TEAM_NODE);
    a.node_n = shmem_team_n_pes(SHMEMX_TEAM_NODE);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (dt_npes + 1) / 2, NULL, 0, &even);
    a.even = gshmemx_team_device_id(even);
    a.even_me = shmem_team_my_pe(even);
    a.even_n = shmem_team_n_pes(even);
    a.wg_buf = (uint64_t *)dt_malloc(ROUNDS * 2 * WG * sizeof(uint64_t));
    a.msrc = (double2 *)dt_malloc(NMAX * sizeof(double2));
    a.mdst = (double2 *)dt_malloc(NMAX * sizeof(double2));
    for (i = 0; i < NMAX; i++)
        h[i] = mval(dt_me, dt_npes, i);
    dt_to_dev(a.msrc, h, sizeof(h));
    host_queries(&a, even);

    /* A full warpgroup and a partial one (at 4 PEs only the full one, to
     * keep the lanes few on a small machine). */
    threads = dt_npes <= 2 ? (int)(WG + 40) : (int)WG;
    dt_fill(a.wg_buf, 0, ROUNDS * 2 * WG * sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(setup_kernel, 1, threads, a);
    shmem_barrier_all();

    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
    gshmem_free(a.mdst);
    gshmem_free(a.msrc);
    gshmem_free(a.wg_buf);
    return dt_finish();
}
