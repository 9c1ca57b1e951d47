/*
 * tests/pe/reduce_toall.c - the deprecated active-set reductions, every
 * operator on every type of its table (include/gshmem/typetable.h):
 *   shmem_TYPENAME_{and,or,xor}_to_all  GSHMEM_TOALL_BIT_TYPES
 *   shmem_TYPENAME_{max,min}_to_all     GSHMEM_TOALL_MINMAX_TYPES
 *   shmem_TYPENAME_{sum,prod}_to_all    GSHMEM_TOALL_ARITH_TYPES
 * on the active sets {all PEs}, {even PEs} (logPE_stride 1), {all but
 * PE 0} and {odd PEs}, in and out of place, small and large.  Calls on a
 * set alternate between two pSync arrays back to back, with no barrier in
 * between; afterwards every pSync word is SHMEM_SYNC_VALUE again.
 * Built twice: reduce_toall (P2P) and reduce_toall_net (GSHMEM_COLL_P2P=0).
 */
#include "reduce_test.h"

static long psync[2][SHMEM_REDUCE_SYNC_SIZE]; /* static: zero = SHMEM_SYNC_VALUE */
static void *pwrk;
static unsigned calls; /* on the current set: picks the pSync */

typedef struct aset {
    int start, log_stride, size;
    const char *name;
} aset_t;

static aset_t set;

#define RT_TO_ALL(OP, VAL, T, N)                                                               \
    static void to_all_##N##_##OP(shmem_team_t unused, size_t n, int in_place)                 \
    {                                                                                          \
        const char *fn = "shmem_" #N "_" #OP "_to_all";                                        \
        int me = (shmem_my_pe() - set.start) >> set.log_stride;                                \
        T *dest = rt_dest, *source = in_place ? rt_dest : rt_source;                           \
                                                                                               \
        (void)unused;                                                                          \
        rt_prepare_dest(n, sizeof(T));                                                         \
        for (size_t i = 0; i < n; i++)                                                         \
            source[i] = VAL(T, me, i);                                                         \
        shmem_##N##_##OP##_to_all(dest, source, (int)n, set.start, set.log_stride, set.size,   \
                                  pwrk, psync[calls++ % 2]);                                   \
        for (size_t i = 0; i < n; i++) {                                                       \
            T expected = VAL(T, 0, i);                                                         \
                                                                                               \
            for (int k = 1; k < set.size; k++)                                                 \
                expected = RT_##OP(T, expected, VAL(T, k, i));                                 \
            RT_CHECK_EQ(fn, expected, dest[i], "dest[%zu] of %zu on %s, %s", i, n, set.name,   \
                        RT_PLACE(in_place));                                                   \
        }                                                                                      \
        rt_check_guard(fn, n, sizeof(T), in_place);                                            \
        for (size_t i = 0; !in_place && i < n; i++)                                            \
            RT_CHECK_EQ(fn, VAL(T, me, i), source[i], "source[%zu] of %zu on %s", i, n,        \
                        set.name);                                                             \
    }

#define RT_BIT(T, N)                                                                           \
    RT_TO_ALL(and, RT_VAL_BITS, T, N)                                                          \
    RT_TO_ALL(or, RT_VAL_BITS, T, N)                                                           \
    RT_TO_ALL(xor, RT_VAL_BITS, T, N)
GSHMEM_TOALL_BIT_TYPES(RT_BIT)
#undef RT_BIT

#define RT_MINMAX(T, N)                                                                        \
    RT_TO_ALL(max, RT_VAL_SPREAD, T, N)                                                        \
    RT_TO_ALL(min, RT_VAL_SPREAD, T, N)
GSHMEM_TOALL_MINMAX_TYPES(RT_MINMAX)
#undef RT_MINMAX

#define RT_ARITH(T, N)                                                                         \
    RT_TO_ALL(sum, RT_VAL_ARITH, T, N)                                                         \
    RT_TO_ALL(prod, RT_VAL_ARITH, T, N)
GSHMEM_TOALL_ARITH_TYPES(RT_ARITH)
#undef RT_ARITH

#define RT_ROW(OP, T, N) {"shmem_" #N "_" #OP "_to_all", to_all_##N##_##OP, sizeof(T)},
#define RT_BIT_ROWS(T, N) RT_ROW(and, T, N) RT_ROW(or, T, N) RT_ROW(xor, T, N)
#define RT_MINMAX_ROWS(T, N) RT_ROW(max, T, N) RT_ROW(min, T, N)
#define RT_ARITH_ROWS(T, N) RT_ROW(sum, T, N) RT_ROW(prod, T, N)
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
static const rt_case_t cases[] = {GSHMEM_TOALL_BIT_TYPES(RT_BIT_ROWS) GSHMEM_TOALL_MINMAX_TYPES(
    RT_MINMAX_ROWS) GSHMEM_TOALL_ARITH_TYPES(RT_ARITH_ROWS)};
/* clang-format on */

static void check_psync(void)
{
    for (int a = 0; a < 2; a++)
        for (int k = 0; k < SHMEM_REDUCE_SYNC_SIZE; k++)
            PT_CHECK_EQ_F("shmem_TYPENAME_OP_to_all", SHMEM_SYNC_VALUE, psync[a][k],
                          "pSync %d [%d] after the calls on %s", a, k, set.name);
}

int main(void)
{
    int npes;
    aset_t sets[4];
    int nsets = 0;
    size_t ncases = sizeof cases / sizeof cases[0];

    rt_environment();
    shmem_init();
    pt_setup();
    npes = pt_npes;
    rt_source = shmem_malloc(RT_HUGE_BYTES + 64);
    rt_dest = shmem_malloc(RT_HUGE_BYTES + 64);
    /* max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements of the largest type */
    pwrk = shmem_malloc(RT_HUGE_BYTES / 2 + 16 * SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    PT_CHECK("shmem_malloc", rt_source && rt_dest && pwrk, "the arrays");
    if (!rt_source || !rt_dest || !pwrk)
        return pt_finish();

    sets[nsets++] = (aset_t){0, 0, npes, "all PEs"};
    sets[nsets++] = (aset_t){0, 1, (npes + 1) / 2, "the even PEs"};
    if (npes > 1) {
        sets[nsets++] = (aset_t){1, 0, npes - 1, "all PEs but 0"};
        sets[nsets++] = (aset_t){1, 1, npes / 2, "the odd PEs"};
    }
    for (int s = 0; s < nsets; s++) {
        int me = pt_me - sets[s].start;

        set = sets[s];
        calls = 0;
        if (me >= 0 && me % (1 << set.log_stride) == 0 && (me >> set.log_stride) < set.size) {
            for (size_t c = 0; c < ncases; c++) {
                size_t size = cases[c].size;
                size_t sizes[] = RT_SIZES(size, rt_is_huge(cases[c].name));

                for (int in_place = 0; in_place < 2; in_place++)
                    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                        if (k == 0 || sizes[k])
                            cases[c].run(SHMEM_TEAM_INVALID, sizes[k], in_place);
            }
        }
        /* Everybody is done with both pSync arrays; the next set starts
         * over with pSync 0 once everybody has checked. */
        shmem_barrier_all();
        check_psync();
        shmem_barrier_all();
    }
    shmem_free(pwrk);
    shmem_free(rt_source);
    shmem_free(rt_dest);
    return pt_finish();
}
