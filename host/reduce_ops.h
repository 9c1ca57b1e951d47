/* host/reduce_ops.h - the element operators of the reductions, and the
 * macro that makes one combine function (src/coll/coll_reduce.h) per operator
 * and type: static void combine_<op>_<typename>(void *acc, const void *in,
 * size_t n) computes acc[i] = acc[i] <op> in[i]. */
#ifndef GSI_HOST_REDUCE_OPS_H
#define GSI_HOST_REDUCE_OPS_H

#include <stddef.h>

/* 1 for the integer types, 0 for the real and complex ones. */
#define GSI_IS_INTEGER(T)                                                                   \
    _Generic((T)0, float: 0, double: 0, long double: 0, float _Complex: 0,                  \
             double _Complex: 0, default: 1)

/* Integer sums and products wrap around, signed ones too: they are computed
 * in unsigned long long and converted back (modulo, as GCC defines it), so
 * no overflow is undefined.  Real and complex types use their own
 * arithmetic; the branch not taken is compiled but never evaluated. */
#define GSI_WRAP(T, a, op, b)                                                               \
    (GSI_IS_INTEGER(T) ? (T)((unsigned long long)(a) op (unsigned long long)(b))           \
                       : (T)((a) op (b)))

#define GSI_OP_and(T, a, b) ((T)((a) & (b)))
#define GSI_OP_or(T, a, b) ((T)((a) | (b)))
#define GSI_OP_xor(T, a, b) ((T)((a) ^ (b)))
#define GSI_OP_max(T, a, b) ((b) > (a) ? (b) : (a))
#define GSI_OP_min(T, a, b) ((b) < (a) ? (b) : (a))
#define GSI_OP_sum(T, a, b) GSI_WRAP(T, a, +, b)
#define GSI_OP_prod(T, a, b) GSI_WRAP(T, a, *, b)

/* GCC's -O2 cost model leaves loops of unknown length scalar; these are
 * the reductions' inner loops, worth a vector body and a scalar tail. */
#if defined(__GNUC__) && !defined(__clang__)
#define GSI_VECTORIZE __attribute__((optimize("vect-cost-model=dynamic")))
#else
#define GSI_VECTORIZE
#endif

#define GSI_COMBINE(OP, T, N)                                                               \
    GSI_VECTORIZE static void combine_##OP##_##N(void *acc, const void *in, size_t n)       \
    {                                                                                       \
        T *restrict a = acc;                                                                \
        const T *restrict b = in;                                                           \
                                                                                            \
        for (size_t i = 0; i < n; i++)                                                      \
            a[i] = GSI_OP_##OP(T, a[i], b[i]);                                              \
    }

#endif
