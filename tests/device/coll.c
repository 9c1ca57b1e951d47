/*
 * tests/device/coll.c - device collectives on the world team and on a
 * split team (the even PEs), each as a thread (one lane calls), a warp and
 * a block (every lane calls): team_my_pe / team_n_pes / team_translate_pe,
 * barrier_all / barrier / sync_all / team_sync (rounds of p + barrier, then
 * every member's p is checked), and broadcast (every root), fcollect,
 * alltoall and sum/min/max reductions (one array in place) for int, double
 * and uint64 at several lengths - one of them longer than a reduction's
 * scratch chunk.
 */
#include "dev_test.h"

#define MAXPE 8
#define ROUNDS 4
#define MAXNEL 3000

enum { F_THREAD, F_WARP, F_BLOCK, N_FORMS };

typedef struct coll_args {
    uint64_t *fails;
    gshmem_team_t team;
    int world; /* the team is the world */
    int form;
    int tn, tme;       /* expected team size and index */
    int start, stride; /* member i is world PE start + i * stride */
    uint64_t *bar;     /* [ROUNDS][MAXPE] */
    char *src, *dst;   /* MAXPE * MAXNEL * 8 bytes each */
} coll_args_t;

DT_HD long long val(int p, size_t i)
{
    return (long long)((p * 131 + (long long)i * 7) % 97 + 1);
}
DT_HD long long rval(int p, size_t i)
{
    return (long long)((p * 7 + (long long)i * 3) % 50);
}
/* What member-world-PE p sends to the member at index j (alltoall). */
DT_HD long long aval(int p, int j, size_t i)
{
    return val(p * MAXPE + j, i);
}

#define BY_FORM(form, pre, post, args)                                                         \
    ((form) == F_THREAD ? gshmem_##pre##post args                                              \
     : (form) == F_WARP ? gshmemx_##pre##post##_warp args                                      \
                        : gshmemx_##pre##post##_block args)

/* One out-of-line function per (type, routine), every form (see DT_NOINL). */
#define COLL_FNS(T, N)                                                                         \
    DT_NOINL int bcast_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n, int root)   \
    {                                                                                          \
        return BY_FORM(form, N, _broadcast, (tm, d, s, n, root));                              \
    }                                                                                          \
    DT_NOINL int fcollect_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n)          \
    {                                                                                          \
        return BY_FORM(form, N, _fcollect, (tm, d, s, n));                                     \
    }                                                                                          \
    DT_NOINL int alltoall_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n)          \
    {                                                                                          \
        return BY_FORM(form, N, _alltoall, (tm, d, s, n));                                     \
    }                                                                                          \
    DT_NOINL int sum_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n)               \
    {                                                                                          \
        return BY_FORM(form, N, _sum_reduce, (tm, d, s, n));                                   \
    }                                                                                          \
    DT_NOINL int min_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n)               \
    {                                                                                          \
        return BY_FORM(form, N, _min_reduce, (tm, d, s, n));                                   \
    }                                                                                          \
    DT_NOINL int max_##N(int form, gshmem_team_t tm, T *d, const T *s, size_t n)               \
    {                                                                                          \
        return BY_FORM(form, N, _max_reduce, (tm, d, s, n));                                   \
    }                                                                                          \
                                                                                               \
    /* Every data collective on T, at each length, checked by every lane. */                   \
    DT_NOINL void data_##N(const coll_args_t *a, unsigned k, unsigned nk, int lead)            \
    {                                                                                          \
        static const size_t lens[3] = {1, 37, 1000}, rlens[3] = {1, 100, MAXNEL};              \
        T *s = (T *)(void *)a->src, *d = (T *)(void *)a->dst;                                  \
        int wme = a->start + a->tme * a->stride, root, j, li, rc = 0;                          \
        size_t i, n;                                                                           \
                                                                                               \
        for (li = 0; li < 3; li++) {                                                           \
            n = lens[li];                                                                      \
            for (root = 0; root < a->tn; root++) {                                             \
                for (i = k; i < n; i += nk)                                                    \
                    s[i] = (T)val(wme, i), d[i] = (T)0;                                        \
                gshmemx_syncthreads();                                                         \
                if (lead)                                                                      \
                    rc = bcast_##N(a->form, a->team, d, s, n, root);                           \
                gshmemx_syncthreads();                                                         \
                DT_CHECK(a->fails, "gshmem_" #N "_broadcast", "return value", 0, 0, rc);       \
                for (i = k; i < n; i += nk)                                                    \
                    if (d[i] != (T)val(a->start + root * a->stride, i))                        \
                        DT_CHECK(a->fails, "gshmem_" #N "_broadcast", "dest[i] (root*1e6+i)",  \
                                 root * 1000000 + (long)i,                                     \
                                 (T)val(a->start + root * a->stride, i), d[i]);                \
                gshmemx_syncthreads(); /* all lanes checked before any rewrites */             \
            }                                                                                  \
            for (i = k; i < n; i += nk)                                                        \
                s[i] = (T)val(wme, i);                                                         \
            for (i = k; i < n * a->tn; i += nk)                                                \
                d[i] = (T)0;                                                                   \
            gshmemx_syncthreads();                                                             \
            if (lead)                                                                          \
                rc = fcollect_##N(a->form, a->team, d, s, n);                                  \
            gshmemx_syncthreads();                                                             \
            DT_CHECK(a->fails, "gshmem_" #N "_fcollect", "return value", 0, 0, rc);            \
            for (j = 0; j < a->tn; j++)                                                        \
                for (i = k; i < n; i += nk)                                                    \
                    if (d[j * n + i] != (T)val(a->start + j * a->stride, i))                   \
                        DT_CHECK(a->fails, "gshmem_" #N "_fcollect", "dest[member*1e6+i]",     \
                                 j * 1000000 + (long)i, (T)val(a->start + j * a->stride, i),   \
                                 d[j * n + i]);                                                \
            gshmemx_syncthreads();                                                             \
            for (j = 0; j < a->tn; j++)                                                        \
                for (i = k; i < n; i += nk)                                                    \
                    s[j * n + i] = (T)aval(wme, j, i), d[j * n + i] = (T)0;                    \
            gshmemx_syncthreads();                                                             \
            if (lead)                                                                          \
                rc = alltoall_##N(a->form, a->team, d, s, n);                                  \
            gshmemx_syncthreads();                                                             \
            DT_CHECK(a->fails, "gshmem_" #N "_alltoall", "return value", 0, 0, rc);            \
            for (j = 0; j < a->tn; j++)                                                        \
                for (i = k; i < n; i += nk)                                                    \
                    if (d[j * n + i] != (T)aval(a->start + j * a->stride, a->tme, i))          \
                        DT_CHECK(a->fails, "gshmem_" #N "_alltoall", "dest[member*1e6+i]",     \
                                 j * 1000000 + (long)i,                                        \
                                 (T)aval(a->start + j * a->stride, a->tme, i), d[j * n + i]);  \
            gshmemx_syncthreads();                                                             \
        }                                                                                      \
        for (li = 0; li < 3; li++) {                                                           \
            int op;                                                                            \
            n = rlens[li];                                                                     \
            for (op = 0; op < 4; op++) { /* sum, min, max, sum in place */                     \
                T *dd = op == 3 ? s : d;                                                       \
                for (i = k; i < n; i += nk)                                                    \
                    s[i] = (T)rval(wme, i), d[i] = (T)0;                                       \
                gshmemx_syncthreads();                                                         \
                if (lead)                                                                      \
                    rc = op == 1   ? min_##N(a->form, a->team, dd, s, n)                       \
                         : op == 2 ? max_##N(a->form, a->team, dd, s, n)                       \
                                   : sum_##N(a->form, a->team, dd, s, n);                      \
                gshmemx_syncthreads();                                                         \
                DT_CHECK(a->fails, "gshmem_" #N "_reduce", "return value (op)", op, 0, rc);    \
                for (i = k; i < n; i += nk) {                                                  \
                    T e = (T)rval(a->start, i);                                                \
                    for (j = 1; j < a->tn; j++) {                                              \
                        T x = (T)rval(a->start + j * a->stride, i);                            \
                        e = op == 1   ? (x < e ? x : e)                                        \
                            : op == 2 ? (x > e ? x : e)                                        \
                                      : (T)(e + x);                                            \
                    }                                                                          \
                    if (dd[i] != e)                                                            \
                        DT_CHECK(a->fails,                                                     \
                                 op == 1   ? "gshmem_" #N "_min_reduce"                        \
                                 : op == 2 ? "gshmem_" #N "_max_reduce"                        \
                                 : op == 0 ? "gshmem_" #N "_sum_reduce"                        \
                                           : "gshmem_" #N "_sum_reduce (in place)",            \
                                 "dest[n*1e6+i]", (long)n * 1000000 + (long)i, e, dd[i]);      \
                }                                                                              \
                gshmemx_syncthreads();                                                         \
            }                                                                                  \
        }                                                                                      \
    }
COLL_FNS(int, int)
COLL_FNS(double, double)
COLL_FNS(uint64_t, uint64)
#undef COLL_FNS

DT_NOINL void sync_round(const coll_args_t *a, int r)
{
    switch (r % 4) {
    case 0: BY_FORM(a->form, , barrier, (a->team)); break;
    case 1:
        gshmem_quiet(); /* team_sync orders nothing: complete the p's first */
        BY_FORM(a->form, , team_sync, (a->team));
        break;
    case 2:
        if (a->world)
            BY_FORM(a->form, , barrier_all, ());
        else
            BY_FORM(a->form, , barrier, (a->team));
        break;
    case 3:
        gshmem_quiet();
        if (a->world)
            BY_FORM(a->form, , sync_all, ());
        else
            BY_FORM(a->form, , team_sync, (a->team));
        break;
    }
}

GSHMEM_KERNEL(coll_kernel, coll_args_t, a)
{
    unsigned k = gshmemx_thread_id(), nk = gshmemx_block_threads();
    int lead = a.form != F_THREAD || k == 0, r, j;

    DT_CHECK(a.fails, "gshmem_team_n_pes", "of the team", a.team, a.tn,
             gshmem_team_n_pes(a.team));
    DT_CHECK(a.fails, "gshmem_team_my_pe", "of the team", a.team, a.tme,
             gshmem_team_my_pe(a.team));
    for (j = 0; j < a.tn; j++)
        DT_CHECK(a.fails, "gshmem_team_translate_pe", "member to world", j,
                 a.start + j * a.stride,
                 gshmem_team_translate_pe(a.team, j, GSHMEM_TEAM_WORLD));
    DT_CHECK(a.fails, "gshmem_team_translate_pe", "world to team, this PE", a.tme, a.tme,
             gshmem_team_translate_pe(GSHMEM_TEAM_WORLD, a.start + a.tme * a.stride, a.team));

    for (r = 0; r < ROUNDS; r++) {
        if (k == 0)
            for (j = 0; j < a.tn; j++)
                gshmem_uint64_p(&a.bar[r * MAXPE + a.tme], (uint64_t)r + 1,
                                a.start + j * a.stride);
        if (lead)
            sync_round(&a, r);
        gshmemx_syncthreads();
        for (j = 0; j < a.tn; j++)
            DT_CHECK(a.fails,
                     r % 2 == 0 ? "gshmem_barrier (or _all)" : "gshmem_team_sync (or sync_all)",
                     "member's p seen after it (round*100+member)", r * 100 + j, r + 1,
                     a.bar[r * MAXPE + j]);
    }
    data_int(&a, k, nk, lead);
    data_double(&a, k, nk, lead);
    data_uint64(&a, k, nk, lead);
}

static void run(shmem_team_t host_team, gshmem_team_t team, int world, int tn, int tme,
                int start, int stride, coll_args_t *a)
{
    int form;

    a->team = team;
    a->world = world;
    a->tn = tn;
    a->tme = tme;
    a->start = start;
    a->stride = stride;
    for (form = 0; form < N_FORMS; form++) {
        unsigned threads = form == F_THREAD ? 1 : form == F_WARP ? DT_WARP : dt_threads();

        a->form = form;
        dt_fill(a->bar, 0, ROUNDS * MAXPE * sizeof(uint64_t));
        shmem_team_sync(host_team); /* every member's bar is reset */
        DT_LAUNCH(coll_kernel, 1, threads, *a);
    }
}

int main(void)
{
    shmem_team_t even;
    coll_args_t a;
    int n_even;

    dt_start();
    if (dt_npes > MAXPE)
        return pt_skip("more PEs than the test's tables hold");
    a.fails = dt_fails;
    a.bar = (uint64_t *)dt_malloc(ROUNDS * MAXPE * sizeof(uint64_t));
    a.src = (char *)dt_malloc((size_t)MAXPE * MAXNEL * 8);
    a.dst = (char *)dt_malloc((size_t)MAXPE * MAXNEL * 8);

    PT_CHECK_EQ("gshmemx_team_device_id", GSHMEM_TEAM_WORLD,
                gshmemx_team_device_id(SHMEM_TEAM_WORLD));
    run(SHMEM_TEAM_WORLD, GSHMEM_TEAM_WORLD, 1, dt_npes, dt_me, 0, 1, &a);

    n_even = (dt_npes + 1) / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n_even, NULL, 0, &even);
    if (dt_me % 2 == 0) {
        gshmem_team_t dev = gshmemx_team_device_id(even);

        PT_CHECK("gshmemx_team_device_id",
                 dev != GSHMEM_TEAM_INVALID && dev != GSHMEM_TEAM_WORLD,
                 "a team id of its own");
        run(even, dev, 0, n_even, dt_me / 2, 0, 2, &a);
    } else {
        PT_CHECK_EQ("gshmemx_team_device_id", GSHMEM_TEAM_INVALID,
                    gshmemx_team_device_id(even));
    }
    shmem_barrier_all();
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    gshmem_free(a.bar);
    return dt_finish();
}
