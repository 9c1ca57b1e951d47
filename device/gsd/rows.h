/*
 * gsd/rows.h - the rows of the type tables (gshmem/typetable.h) that
 * device code generates functions for.
 *
 *   GSD_RMA_TYPES(X)   GSHMEM_RMA_TYPES, less long double under nvcc (CUDA
 *                      device code has no long double); host lanes keep
 *                      every row.  The nvcc list is written out below, and
 *                      checked against the table at compile time on both
 *                      backends, so a row added to the table cannot be
 *                      missed here.  Then NVSHMEM's bfloat16 and half rows
 *                      (GSHMEM_FLOAT16_TYPES, gshmem/float16.h) on both:
 *                      every family stamped from this list has them (RMA,
 *                      put-with-signal, broadcast, fcollect, alltoall).
 *   GSD_REDUCE_FLOAT16_TYPES(X)  the bfloat16 and half rows of the min,
 *                      max, sum and prod reductions (gsd/coll.h), which
 *                      compute in float and round after each step; the
 *                      native rows are GSD_REDUCE_MINMAX_TYPES there.
 *   GSD_AMO_FLOAT_TYPES(X)  the rows of NVSHMEM's gshmemx_ floating-point
 *                      atomic add and fetch_add (gsd/amo_float.h)
 *   GSD_SIGNED(T)      1 when integer type T is signed
 */
#ifndef GSD_ROWS_H
#define GSD_ROWS_H

#include "gshmem/float16.h"
#include "gshmem/typetable.h"

#include "cdefs.h"

/* GSHMEM_RMA_TYPES without X(long double, longdouble). */
#define GSD_RMA_NOLD_TYPES(X)        \
    X(float, float)                  \
    X(double, double)                \
    X(char, char)                    \
    X(signed char, schar)            \
    X(short, short)                  \
    X(int, int)                      \
    X(long, long)                    \
    X(long long, longlong)           \
    X(unsigned char, uchar)          \
    X(unsigned short, ushort)        \
    X(unsigned int, uint)            \
    X(unsigned long, ulong)          \
    X(unsigned long long, ulonglong) \
    X(int8_t, int8)                  \
    X(int16_t, int16)                \
    X(int32_t, int32)                \
    X(int64_t, int64)                \
    X(uint8_t, uint8)                \
    X(uint16_t, uint16)              \
    X(uint32_t, uint32)              \
    X(uint64_t, uint64)              \
    X(size_t, size)                  \
    X(ptrdiff_t, ptrdiff)

#if defined(GSD_CUDA)
#define GSD_RMA_TYPES(X) GSD_RMA_NOLD_TYPES(X) GSHMEM_FLOAT16_TYPES(X)
#else
#define GSD_RMA_TYPES(X) \
    GSHMEM_RMA_TYPES(X)  \
    GSHMEM_FLOAT16_TYPES(X)
#endif

#define GSD_REDUCE_FLOAT16_TYPES(X) GSHMEM_FLOAT16_TYPES(X)

#define GSD_AMO_FLOAT_TYPES(X) \
    X(float, float)            \
    X(double, double)          \
    X(gshmem_half_t, half)

/* The check: every row above is a row of the table (else gsd_rma_row_<N>
 * is undeclared), and the table has exactly one row more, longdouble. */
#define GSD_RMA_ROW_NAME(T, N) gsd_rma_row_##N,
enum gsd_rma_rows { GSHMEM_RMA_TYPES(GSD_RMA_ROW_NAME) gsd_rma_rows_n };
#define GSD_RMA_ROW_ONE(T, N) +(gsd_rma_row_##N >= 0)
GSD_STATIC_ASSERT(0 GSD_RMA_NOLD_TYPES(GSD_RMA_ROW_ONE) + (gsd_rma_row_longdouble >= 0) ==
                      gsd_rma_rows_n,
                  "GSD_RMA_NOLD_TYPES is GSHMEM_RMA_TYPES less the longdouble row");
#undef GSD_RMA_ROW_ONE
#undef GSD_RMA_ROW_NAME

/* 1 when integer type T is signed.  (Compared with 1, not 0: compilers
 * warn about an unsigned value compared with 0.) */
#define GSD_SIGNED(T) ((T)-1 < (T)1)

#endif /* GSD_ROWS_H */
