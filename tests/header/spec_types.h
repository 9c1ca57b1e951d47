/*
 * spec_types.h - the types each C11 generic name / C++ overload accepts,
 * restated from the OpenSHMEM 1.6 type tables for generic.c and
 * overload.cpp.
 *
 * Written out here instead of taken from include/gshmem/typetable.h on
 * purpose: a wrong row there must fail these tests.  (Also, a C11 generic
 * name cannot be used inside an expansion of the typetable.h list it
 * selects from: the preprocessor never expands a macro within itself.)
 * Only distinct C types: int8_t, size_t, ... are typedefs of these; the
 * tests check a few of them by name.  X(TYPE, NAME) as in typetable.h.
 */
#ifndef GSHMEM_TEST_SPEC_TYPES_H
#define GSHMEM_TEST_SPEC_TYPES_H

#define SPEC_INTEGER_TYPES(X)                                                  \
    X(char, char) X(signed char, schar) X(short, short) X(int, int)            \
    X(long, long) X(long long, longlong) X(unsigned char, uchar)               \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)    \
    X(unsigned long long, ulonglong)

/* stdrmatypes: RMA, put_signal, alltoall[s], broadcast, [f]collect; and
 * the MAX/MIN reductions. */
#define SPEC_RMA_TYPES(X)                                                      \
    X(float, float) X(double, double) X(long double, longdouble)               \
    SPEC_INTEGER_TYPES(X)

/* SUM/PROD reductions and the scans. */
#define SPEC_COMPLEX_TYPES(X)                                                  \
    X(double _Complex, complexd) X(float _Complex, complexf)

/* stdamotypes: compare_swap, fetch_inc, inc, fetch_add, add. */
#define SPEC_AMO_STD_TYPES(X)                                                  \
    X(int, int) X(long, long) X(long long, longlong)                           \
    X(unsigned int, uint) X(unsigned long, ulong)                              \
    X(unsigned long long, ulonglong)

/* extamotypes: fetch, set, swap. */
#define SPEC_AMO_EXT_TYPES(X) X(float, float) X(double, double) SPEC_AMO_STD_TYPES(X)

/* bitamotypes: and, or, xor. */
#define SPEC_AMO_BIT_TYPES(X)                                                  \
    X(unsigned int, uint) X(unsigned long, ulong)                              \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64)

/* Point-to-point synchronization (with the deprecated short rows). */
#define SPEC_P2P_TYPES(X)                                                      \
    X(short, short) X(unsigned short, ushort) SPEC_AMO_STD_TYPES(X)

/* AND/OR/XOR reductions. */
#define SPEC_REDUCE_BIT_TYPES(X)                                               \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)    \
    X(unsigned long, ulong) X(unsigned long long, ulonglong)                   \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)

/* Deprecated shmem_fetch/set/swap and shmem_cswap/finc/inc/fadd/add. */
#define SPEC_AMO_DEPR_EXT_TYPES(X)                                             \
    X(float, float) X(double, double) SPEC_AMO_DEPR_STD_TYPES(X)
#define SPEC_AMO_DEPR_STD_TYPES(X) X(int, int) X(long, long) X(long long, longlong)

#endif /* GSHMEM_TEST_SPEC_TYPES_H */
