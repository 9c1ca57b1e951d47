/*
 * tests/pe/reduce_test.h - what the reduction and scan tests share:
 *  - operands that keep every result exact: small integers (halves for the
 *    real and complex types), so sums and products over four PEs need no
 *    rounding and signed types never overflow, while unsigned ones wrap
 *    around (-3 is a huge unsigned value); random bits for and/or/xor;
 *  - the reference operators, applied in member order to the operands
 *    every member would have (a member's operands depend on its index);
 *  - the teams: world, even PEs, all but PE 0, world reversed (negative
 *    stride), and the rows and columns of a 2-D split;
 *  - a driver that runs each case on each team this PE belongs to, in and
 *    out of place, at sizes on both sides of each algorithm's limits
 *    (src/coll/coll_reduce.c): 0, 1 and 13 elements and 1 KiB (staged through
 *    the team slot), 1.5 KiB (whole array per member, below the threshold
 *    the program sets), over 6 KiB (sliced) and, for some cases, 80 KiB
 *    (many chunks per slice).
 * A case fills its source, calls the routine and checks dest against the
 * reference, the element past dest untouched and, out of place, source
 * unchanged.  Nothing synchronizes around a call: the routines must.
 */
#ifndef REDUCE_TEST_H
#define REDUCE_TEST_H

#include "pe_test.h"

#include <complex.h>
#include <stdint.h>

/* The threshold of the sliced algorithm the programs set
 * (GSHMEM_REDUCE_SCATTER_MIN); sizes are chosen on both sides of it. */
#define RT_THRESHOLD 2048
#define RT_THRESHOLD_TEXT "2K"
#define RT_STAGE_BYTES 1024        /* the largest staged reduction */
#define RT_HUGE_BYTES (80 * 1024)  /* several 8 KiB chunks per member's slice */

/* The element counts a case runs at (0: not at all, after the first). */
#define RT_SIZES(size, huge)                                                                    {0, 1, 13, RT_STAGE_BYTES / (size), (RT_STAGE_BYTES + RT_THRESHOLD) / 2 / (size) + 3,       RT_THRESHOLD * 3 / (size) + 5, (huge) ? RT_HUGE_BYTES / (size) - 3 : 0}

#define RT_IS_INT(T)                                                                        \
    _Generic((T)0, float: 0, double: 0, long double: 0, float _Complex: 0,                  \
             double _Complex: 0, default: 1)
#define RT_IS_COMPLEX(T) _Generic((T)0, float _Complex: 1, double _Complex: 1, default: 0)

/* In [-3, 3]; salt picks another sequence. */
PT_UNUSED static long long rt_small(int pe, size_t i, int salt)
{
    return (long long)(((size_t)pe * 3 + i * 5 + (size_t)salt) % 7) - 3;
}

/* In [-5, 5]. */
PT_UNUSED static long long rt_spread(int pe, size_t i)
{
    return (long long)(((size_t)pe * 5 + i * 3) % 11) - 5;
}

PT_UNUSED static unsigned long long rt_hash(int pe, size_t i)
{
    unsigned long long x = (unsigned long long)(pe + 1) * 0x9E3779B97F4A7C15ULL ^
                           (unsigned long long)(i + 1) * 0xC2B2AE3D27D4EB4FULL;

    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    return x ^ (x >> 32);
}

/* Member pe's element i, per operator family. */
#define RT_VAL_BITS(T, pe, i) ((T)rt_hash(pe, i))
#define RT_VAL_SPREAD(T, pe, i)                                                             \
    (RT_IS_INT(T) ? (T)rt_spread(pe, i) : (T)(rt_spread(pe, i) / 2.0))
#define RT_VAL_ARITH(T, pe, i)                                                              \
    (RT_IS_INT(T)       ? (T)rt_small(pe, i, 0)                                             \
     : RT_IS_COMPLEX(T) ? (T)(rt_small(pe, i, 0) / 2.0 + rt_small(pe, i, 4) / 2.0 * I)     \
                        : (T)(rt_small(pe, i, 0) / 2.0))

/* The reference operators; integer sums and products wrap around. */
#define RT_and(T, a, b) ((T)((a) & (b)))
#define RT_or(T, a, b) ((T)((a) | (b)))
#define RT_xor(T, a, b) ((T)((a) ^ (b)))
#define RT_max(T, a, b) ((a) > (b) ? (a) : (b))
#define RT_min(T, a, b) ((a) < (b) ? (a) : (b))
#define RT_sum(T, a, b)                                                                     \
    (RT_IS_INT(T) ? (T)((unsigned long long)(a) + (unsigned long long)(b)) : (T)((a) + (b)))
#define RT_prod(T, a, b)                                                                    \
    (RT_IS_INT(T) ? (T)((unsigned long long)(a) * (unsigned long long)(b)) : (T)((a) * (b)))

PT_UNUSED static void rt_fmt_real(char *buf, long double v)
{
    snprintf(buf, 64, "%.21Lg", v);
}

PT_UNUSED static void rt_fmt_cd(char *buf, double _Complex v)
{
    snprintf(buf, 64, "%.17g%+.17gi", creal(v), cimag(v));
}

PT_UNUSED static void rt_fmt_cf(char *buf, float _Complex v)
{
    snprintf(buf, 64, "%.9g%+.9gi", crealf(v), cimagf(v));
}

#define RT_FMT(buf, v)                                                                      \
    _Generic((v), double _Complex: rt_fmt_cd, float _Complex: rt_fmt_cf,                    \
             default: rt_fmt_real)(buf, v)

/* Both values printed in their type (complex ones as a+bi) when they differ. */
#define RT_CHECK_EQ(routine, exp, act, ...)                                                 \
    do {                                                                                    \
        __typeof__(act) rt_a_ = (act), rt_e_ = (exp);                                       \
        if (rt_a_ != rt_e_) {                                                               \
            char rt_w_[200], rt_es_[64], rt_as_[64];                                        \
            snprintf(rt_w_, sizeof rt_w_, __VA_ARGS__);                                     \
            RT_FMT(rt_es_, rt_e_);                                                          \
            RT_FMT(rt_as_, rt_a_);                                                          \
            pt_report((routine), rt_w_, __FILE__, __LINE__, rt_es_, rt_as_);                \
        }                                                                                   \
    } while (0)

/* The symmetric arrays every case uses (RT_HUGE_BYTES + a guard element). */
static void *rt_source, *rt_dest;
static const char *rt_team_name = "?";

#define RT_GUARD 0xA5

/* dest[0..n) gets garbage before the call, dest[n] must keep it. */
PT_UNUSED static void rt_prepare_dest(size_t n, size_t size)
{
    memset(rt_dest, RT_GUARD, (n + 1) * size);
}

PT_UNUSED static void rt_check_guard(const char *routine, size_t n, size_t size, int in_place)
{
    const unsigned char *g = (const unsigned char *)rt_dest + n * size;
    size_t b;

    for (b = 0; b < size && g[b] == RT_GUARD; b++)
        ;
    if (b < size)
        pt_report(routine, "the element past dest", __FILE__, __LINE__, "untouched",
                  in_place ? "written (in place)" : "written (out of place)");
}

#define RT_PLACE(in_place) ((in_place) ? "in place" : "out of place")

/* One case: routine, element size; runs on `team` with n elements. */
typedef void rt_case_fn(shmem_team_t team, size_t n, int in_place);

typedef struct rt_case {
    const char *name;
    rt_case_fn *run;
    size_t size;
} rt_case_t;

typedef struct rt_team {
    shmem_team_t team;
    const char *name;
    int owned;  /* destroy at the end */
} rt_team_t;

#define RT_MAX_TEAMS 8

/* Collective over the world: the teams, in the same order on every PE
 * (SHMEM_TEAM_INVALID where this PE is no member). */
PT_UNUSED static int rt_make_teams(rt_team_t *t)
{
    int n = 0, npes = shmem_n_pes();
    shmem_team_t row, col;

    t[n++] = (rt_team_t){SHMEM_TEAM_WORLD, "world", 0};
    t[n] = (rt_team_t){SHMEM_TEAM_INVALID, "even PEs", 1};
    PT_CHECK_EQ("shmem_team_split_strided", 0,
                shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0,
                                         &t[n].team));
    n++;
    if (npes > 1) {
        t[n] = (rt_team_t){SHMEM_TEAM_INVALID, "all but PE 0", 1};
        PT_CHECK_EQ("shmem_team_split_strided", 0,
                    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0,
                                             &t[n].team));
        n++;
    }
    t[n] = (rt_team_t){SHMEM_TEAM_INVALID, "world reversed", 1};
    PT_CHECK_EQ("shmem_team_split_strided", 0,
                shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0,
                                         &t[n].team));
    n++;
    PT_CHECK_EQ("shmem_team_split_2d", 0,
                shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col));
    t[n++] = (rt_team_t){row, "2-D row", 1};
    t[n++] = (rt_team_t){col, "2-D column", 1};
    return n;
}

PT_UNUSED static void rt_destroy_teams(rt_team_t *t, int n)
{
    for (int k = 0; k < n; k++)
        if (t[k].owned && t[k].team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(t[k].team);
}

/* Cases whose names end in one of these also run far above the threshold. */
static const char *const rt_huge_names[] = {"_int_sum", "_double_sum", "_longdouble_max",
                                            "_complexd_prod", "_uint8_xor", "_float_sum_inscan",
                                            "_long_sum_exscan", "_complexf_sum_exscan",
                                            "_long_sum_to_all", "_complexd_prod_to_all", NULL};

PT_UNUSED static int rt_is_huge(const char *name)
{
    size_t len = strlen(name);

    for (int k = 0; rt_huge_names[k]; k++) {
        size_t l = strlen(rt_huge_names[k]);

        if (len >= l && strcmp(name + len - l, rt_huge_names[k]) == 0)
            return 1;
    }
    return 0;
}

/* Set the environment the program is checked under; before shmem_init. */
PT_UNUSED static void rt_environment(void)
{
    setenv("GSHMEM_REDUCE_SCATTER_MIN", RT_THRESHOLD_TEXT, 1);
#ifdef RT_NETWORK
    setenv("GSHMEM_COLL_P2P", "0", 1);  /* the algorithms for PEs that are not mapped */
#endif
}

/* Every case on every team, at every size, then `more` (if not NULL);
 * then the verdict.  `file` names the program in the verdict. */
PT_UNUSED static int rt_main(const char *file, const rt_case_t *cases, size_t ncases,
                             void (*more)(void))
{
    rt_team_t teams[RT_MAX_TEAMS];
    int nteams;

    rt_environment();
    shmem_init();
    pt_setup_(file);
    rt_source = shmem_malloc(RT_HUGE_BYTES + 64);
    rt_dest = shmem_malloc(RT_HUGE_BYTES + 64);
    PT_CHECK("shmem_malloc", rt_source && rt_dest, "the arrays");
    if (!rt_source || !rt_dest)
        return pt_finish();
    nteams = rt_make_teams(teams);
    for (int t = 0; t < nteams; t++) {
        if (teams[t].team == SHMEM_TEAM_INVALID)
            continue;
        rt_team_name = teams[t].name;
        for (size_t c = 0; c < ncases; c++) {
            size_t size = cases[c].size;
            size_t sizes[] = RT_SIZES(size, rt_is_huge(cases[c].name));

            for (int in_place = 0; in_place < 2; in_place++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    if (s == 0 || sizes[s])
                        cases[c].run(teams[t].team, sizes[s], in_place);
        }
    }
    if (more)
        more();
    shmem_barrier_all();
    rt_destroy_teams(teams, nteams);
    shmem_free(rt_source);
    shmem_free(rt_dest);
    return pt_finish();
}

#define RT_MAIN(cases, more) rt_main(__FILE__, cases, sizeof(cases) / sizeof((cases)[0]), more)

#endif /* REDUCE_TEST_H */
