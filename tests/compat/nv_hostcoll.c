/*
 * tests/compat/nv_hostcoll.c - NVSHMEM's team collectives called from host
 * code, as NVSHMEM's examples call them (they are __host__ __device__
 * there): reduce, reducescatter, broadcast, fcollect, alltoall, their mem
 * forms, barrier and sync, on NVSHMEM_TEAM_WORLD and on a team split off
 * it (PEs 1..n-1; PE 0 alone at 1 PE), int and the 16-bit rows.  Checked:
 * each returns 0; broadcast's root is a PE of the team, not of the world;
 * the barrier completes the host's own puts (NVSHMEM's barrier is quiet,
 * then sync); and a kernel calling the same names gets what host code got.
 * Results are read back with nvshmem_TYPE_get, so the program is right on
 * a GPU too, where the buffers are device memory.
 */
#include "nv_test.h"

#define N 8
#define BIG (1 << 18) /* ints of the put the barrier must complete */

/* 16-bit values: under nvcc with CUDA's own conversions, as an NVSHMEM
 * program writes them (nvshmem_half_t is CUDA's half there); host lanes
 * have no cuda_fp16.h, so gshmem's conversions. */
#if defined(__CUDACC__)
#define TO_HALF(f) __float2half(f)
#define TO_BF16(f) __float2bfloat16(f)
#define HALF_F(h) __half2float(h)
#define BF16_F(b) __bfloat162float(b)
#else
#define TO_HALF(f) gshmemx_float_to_half(f)
#define TO_BF16(f) gshmemx_float_to_bfloat16(f)
#define HALF_F(h) gshmemx_half_to_float(h)
#define BF16_F(b) gshmemx_bfloat16_to_float(b)
#endif

struct dev_args {
    nvshmem_team_t team;
    int root;            /* broadcast's root, team-relative */
    int *src, *red, *bc; /* N ints each */
    int *rc;             /* OR of the device calls' results */
};

/* One thread: the same calls as host code makes below. */
GSHMEM_KERNEL(dev_coll, struct dev_args, a)
{
    int rc = nvshmem_int_sum_reduce(NVSHMEM_TEAM_WORLD, a.red, a.src, N);

    if (a.team != NVSHMEM_TEAM_INVALID)
        rc |= nvshmem_int_broadcast(a.team, a.bc, a.src, N, a.root);
    rc |= nvshmem_barrier(NVSHMEM_TEAM_WORLD);
    *a.rc = rc;
}

static void put_local(int *dest, int base, int me)
{
    int v[N];

    for (int i = 0; i < N; i++)
        v[i] = base + i;
    nvshmem_int_put(dest, v, N, me);
    nvshmem_quiet();
}

static void check_ints(const char *what, const int *sym, int me, const int *want, int n)
{
    int got[4 * N] = {0}; /* a get's destination: the compiler cannot tell */

    nvshmem_int_get(got, sym, (size_t)n, me);
    for (int i = 0; i < n; i++)
        NV_CHECK(what, i, want[i], got[i]);
}

int main(void)
{
    nvshmem_init();
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    int want[4 * N], sum[N];
    int *src = (int *)nvshmem_malloc(4 * N * sizeof(int));
    int *dst = (int *)nvshmem_malloc(4 * N * sizeof(int));
    int *dev = (int *)nvshmem_malloc(2 * N * sizeof(int) + sizeof(int));
    nvshmem_half_t *hs = (nvshmem_half_t *)nvshmem_malloc(N * sizeof(nvshmem_half_t));
    nvshmem_half_t *hd = (nvshmem_half_t *)nvshmem_malloc(N * sizeof(nvshmem_half_t));
    nvshmem_bfloat16_t *bs = (nvshmem_bfloat16_t *)nvshmem_malloc(N *
                                                                  sizeof(nvshmem_bfloat16_t));
    nvshmem_bfloat16_t *bd = (nvshmem_bfloat16_t *)nvshmem_malloc(N *
                                                                  sizeof(nvshmem_bfloat16_t));
    NV_CHECK("nvshmem_malloc != NULL", 0, 1, src && dst && dev && hs && hd && bs && bd);

    /* PEs 1..n-1 (PE 0 alone at 1 PE): a team whose index 0 is not world 0. */
    nvshmem_team_t team = NVSHMEM_TEAM_INVALID;
    int first = npes > 1 ? 1 : 0, tsize = npes > 1 ? npes - 1 : 1;
    NV_CHECK("nvshmem_team_split_strided", 0, 0,
             nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, first, 1, tsize, NULL, 0, &team));
    NV_CHECK("team membership", 0, me >= first, team != NVSHMEM_TEAM_INVALID);
    if (team != NVSHMEM_TEAM_INVALID)
        NV_CHECK("nvshmem_team_my_pe(team)", 0, me - first, nvshmem_team_my_pe(team));

    /* sum_reduce on the world: PE p's element i is p * 100 + i. */
    put_local(src, me * 100, me);
    NV_CHECK("nvshmem_barrier(WORLD)", 0, 0, nvshmem_barrier(NVSHMEM_TEAM_WORLD));
    for (int i = 0; i < N; i++)
        sum[i] = 100 * npes * (npes - 1) / 2 + npes * i;
    NV_CHECK("nvshmem_int_sum_reduce(WORLD)", 0, 0,
             nvshmem_int_sum_reduce(NVSHMEM_TEAM_WORLD, dst, src, N));
    check_ints("nvshmem_int_sum_reduce(WORLD) dest", dst, me, sum, N);
    NV_CHECK("nvshmem_int_max_reduce(WORLD)", 0, 0,
             nvshmem_int_max_reduce(NVSHMEM_TEAM_WORLD, dst, src, N));
    for (int i = 0; i < N; i++)
        want[i] = (npes - 1) * 100 + i;
    check_ints("nvshmem_int_max_reduce(WORLD) dest", dst, me, want, N);

    if (team != NVSHMEM_TEAM_INVALID) {
        int tn = nvshmem_team_n_pes(team), root = tn - 1, world_root = first + root;

        /* broadcast from the team's last member: team-relative root. */
        put_local(dst, -1, me);
        NV_CHECK("nvshmem_int_broadcast(team)", 0, 0,
                 nvshmem_int_broadcast(team, dst, src, N, root));
        for (int i = 0; i < N; i++)
            want[i] = world_root * 100 + i;
        check_ints("nvshmem_int_broadcast(team) dest (root is team-relative)", dst, me, want,
                   N);
        NV_CHECK("nvshmem_broadcastmem(team)", 0, 0,
                 nvshmem_broadcastmem(team, dst, src, N * sizeof(int), 0));
        for (int i = 0; i < N; i++)
            want[i] = first * 100 + i;
        check_ints("nvshmem_broadcastmem(team) dest", dst, me, want, N);

        /* fcollect and sum_reducescatter on the team. */
        NV_CHECK("nvshmem_int_fcollect(team)", 0, 0, nvshmem_int_fcollect(team, dst, src, N));
        for (int j = 0; j < tn; j++)
            for (int i = 0; i < N; i++)
                want[j * N + i] = (first + j) * 100 + i;
        check_ints("nvshmem_int_fcollect(team) dest", dst, me, want, tn * N);
        NV_CHECK("nvshmem_team_sync(team)", 0, 0, nvshmem_team_sync(team));
        NV_CHECK("nvshmem_sync(team)", 0, 0, nvshmem_sync(team));
    }

    /* alltoall on the world: block j of PE p's source is p * 1000 + j. */
    {
        int v[4 * N];

        for (int j = 0; j < npes; j++)
            for (int i = 0; i < 2; i++)
                v[j * 2 + i] = me * 1000 + j * 10 + i;
        nvshmem_int_put(src, v, (size_t)(2 * npes), me);
        nvshmem_quiet();
        NV_CHECK("nvshmem_barrier(WORLD)", 0, 0, nvshmem_barrier(NVSHMEM_TEAM_WORLD));
        NV_CHECK("nvshmem_int_alltoall(WORLD)", 0, 0,
                 nvshmem_int_alltoall(NVSHMEM_TEAM_WORLD, dst, src, 2));
        for (int j = 0; j < npes; j++)
            for (int i = 0; i < 2; i++)
                want[j * 2 + i] = j * 1000 + me * 10 + i;
        check_ints("nvshmem_int_alltoall(WORLD) dest", dst, me, want, 2 * npes);
        NV_CHECK("nvshmem_alltoallmem(WORLD)", 0, 0,
                 nvshmem_alltoallmem(NVSHMEM_TEAM_WORLD, dst, src, 2 * sizeof(int)));
        check_ints("nvshmem_alltoallmem(WORLD) dest", dst, me, want, 2 * npes);
        /* reducescatter: member p gets the sum of block p of every source. */
        NV_CHECK("nvshmem_int_sum_reducescatter(WORLD)", 0, 0,
                 nvshmem_int_sum_reducescatter(NVSHMEM_TEAM_WORLD, dst, src, 2));
        for (int i = 0; i < 2; i++)
            want[i] = 1000 * npes * (npes - 1) / 2 + npes * (me * 10 + i);
        check_ints("nvshmem_int_sum_reducescatter(WORLD) dest", dst, me, want, 2);
    }

    /* 16-bit rows from host code: put, barrier, reduce, broadcast, g. */
    {
        nvshmem_half_t h[N];
        nvshmem_bfloat16_t b[N];

        for (int i = 0; i < N; i++) {
            h[i] = TO_HALF(0.5f * (float)(me + i));
            b[i] = TO_BF16(2.0f * (float)(me + i));
        }
        nvshmem_half_put(hs, h, N, me);
        nvshmem_bfloat16_put(bs, b, N, me);
        NV_CHECK("nvshmem_barrier(WORLD)", 0, 0, nvshmem_barrier(NVSHMEM_TEAM_WORLD));
        NV_CHECK("nvshmem_half_sum_reduce(WORLD)", 0, 0,
                 nvshmem_half_sum_reduce(NVSHMEM_TEAM_WORLD, hd, hs, N));
        NV_CHECK("nvshmem_bfloat16_max_reduce(WORLD)", 0, 0,
                 nvshmem_bfloat16_max_reduce(NVSHMEM_TEAM_WORLD, bd, bs, N));
        nvshmem_half_get(h, hd, N, me);
        for (int i = 0; i < N; i++) {
            /* sum of 0.5 (p + i): exact in half at these sizes; x2 to compare ints */
            NV_CHECK("2 x nvshmem_half_sum_reduce dest", i, npes * (npes - 1) / 2 + npes * i,
                     2.0f * HALF_F(h[i]));
            NV_CHECK("nvshmem_bfloat16_max_reduce dest (nvshmem_bfloat16_g)", i,
                     2 * (npes - 1 + i), BF16_F(nvshmem_bfloat16_g(bd + i, me)));
        }
        if (team != NVSHMEM_TEAM_INVALID) {
            NV_CHECK("nvshmem_half_broadcast(team)", 0, 0,
                     nvshmem_half_broadcast(team, hd, hs, N, 0));
            for (int i = 0; i < N; i++)
                NV_CHECK("2 x nvshmem_half_broadcast(team) dest (nvshmem_half_g)", i, first + i,
                         2.0f * HALF_F(nvshmem_half_g(hd + i, me)));
        }
    }

    /* The barrier completes host puts: each PE sends BIG ints to its right
     * with put_nbi and checks its own copy after nvshmem_barrier alone (no
     * quiet of its own). */
    {
        int right = (me + 1) % npes, left = (me + npes - 1) % npes;
        static int v[BIG];
        int *big = (int *)nvshmem_malloc(BIG * sizeof(int));

        NV_CHECK("nvshmem_malloc (big) != NULL", 0, 1, big != NULL);
        for (int i = 0; i < BIG; i++)
            v[i] = me * 1000000 + i;
        nvshmem_barrier_all();
        nvshmem_int_put_nbi(big, v, BIG, right);
        NV_CHECK("nvshmem_barrier(WORLD)", 0, 0, nvshmem_barrier(NVSHMEM_TEAM_WORLD));
        for (int i = 0; i < BIG; i += BIG / 16 - 1)
            NV_CHECK("the put_nbi before nvshmem_barrier, from the left", i, left * 1000000 + i,
                     nvshmem_int_g(big + i, me));
        NV_CHECK("the put_nbi before nvshmem_barrier, from the left (last)", BIG - 1,
                 left * 1000000 + BIG - 1, nvshmem_int_g(big + BIG - 1, me));
        nvshmem_barrier_all();
        nvshmem_free(big);
    }

    /* The device form of the same names gives what host code got. */
    {
        struct dev_args a;
        int z[2 * N + 1];

        for (int i = 0; i < 2 * N + 1; i++)
            z[i] = -7;
        put_local(src, me * 100, me);
        nvshmem_int_put(dev, z, 2 * N + 1, me);
        nvshmem_quiet();
        nvshmem_barrier_all();
        a.team = team;
        a.root = 0;
        a.src = src;
        a.red = dev;
        a.bc = dev + N;
        a.rc = dev + 2 * N;
        NV_CHECK("GSHMEM_LAUNCH(dev_coll)", 0, 0, GSHMEM_LAUNCH(dev_coll, 1, 1, a));
        nvshmem_barrier_all();
        check_ints("nvshmem_int_sum_reduce(WORLD) in a kernel", dev, me, sum, N);
        NV_CHECK("the device calls' results", 0, 0, nvshmem_int_g(dev + 2 * N, me));
        if (team != NVSHMEM_TEAM_INVALID) {
            for (int i = 0; i < N; i++)
                want[i] = first * 100 + i;
            check_ints("nvshmem_int_broadcast(team) in a kernel", dev + N, me, want, N);
        }
    }

    nvshmem_barrier_all();
    if (team != NVSHMEM_TEAM_INVALID)
        nvshmem_team_destroy(team);
    nvshmem_free(bd);
    nvshmem_free(bs);
    nvshmem_free(hd);
    nvshmem_free(hs);
    nvshmem_free(dev);
    nvshmem_free(dst);
    nvshmem_free(src);
    int rc = nv_done("nv_hostcoll");
    nvshmem_finalize();
    return rc;
}
