/* host/reduce_toall.c - the deprecated active-set reductions:
 *
 *   void shmem_TYPENAME_{and,or,xor}_to_all  (short, int, long, longlong)
 *   void shmem_TYPENAME_{max,min}_to_all     (+ float, double, longdouble)
 *   void shmem_TYPENAME_{sum,prod}_to_all    (+ complexd, complexf)
 *
 * (dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync).
 * pSync is used only by the group's barrier, which leaves it at
 * SHMEM_SYNC_VALUE; pWrk is not needed and left untouched. */
#include "api.h"

#include "coll/coll_reduce.h"
#include "reduce_ops.h"

static void to_all(const char *fn, void *dest, const void *source, int nreduce, int pe_start,
                   int log_stride, int pe_size, long *psync, size_t size,
                   gsi_combine_fn_t combine)
{
    gsi_group_t g;

    gsi_check_init(fn);
    gsi_group_aset(fn, &g, pe_start, log_stride, pe_size, psync);
    if (nreduce < 0)
        gsi_fatal(fn, "nreduce %d is negative", nreduce);
    gsi_reduce(fn, &g, GSI_REDUCE_ALL, dest, source, (size_t)nreduce, size, combine);
}

#define GSI_TO_ALL(OP, T, N)                                                                 \
    GSI_COMBINE(OP, T, N)                                                                    \
    void pshmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,     \
                                    int logPE_stride, int PE_size, T *pWrk, long *pSync)     \
    {                                                                                        \
        (void)pWrk;                                                                          \
        to_all("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, PE_start, logPE_stride, \
               PE_size, pSync, sizeof(T), combine_##OP##_##N);                               \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_##OP##_to_all)

#define GSI_TO_ALL_BIT(T, N) GSI_TO_ALL(and, T, N) GSI_TO_ALL(or, T, N) GSI_TO_ALL(xor, T, N)
GSHMEM_TOALL_BIT_TYPES(GSI_TO_ALL_BIT)
#undef GSI_TO_ALL_BIT

#define GSI_TO_ALL_MINMAX(T, N) GSI_TO_ALL(max, T, N) GSI_TO_ALL(min, T, N)
GSHMEM_TOALL_MINMAX_TYPES(GSI_TO_ALL_MINMAX)
#undef GSI_TO_ALL_MINMAX

#define GSI_TO_ALL_ARITH(T, N) GSI_TO_ALL(sum, T, N) GSI_TO_ALL(prod, T, N)
GSHMEM_TOALL_ARITH_TYPES(GSI_TO_ALL_ARITH)
#undef GSI_TO_ALL_ARITH
