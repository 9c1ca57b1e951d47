/*
 * gshmem/typetable.h - the OpenSHMEM 1.6 type tables, written once.
 *
 * Each list is an X-macro: LIST(X) expands X(TYPE, TYPENAME) once per row.
 * shmem.h declares the typed routines from these lists, host/ defines them,
 * and tests/ generate their checks from them, so a type is added in one
 * place.  Names generated from these rows (shmem_long_put, ...) are listed
 * by tests/header/symbols.sh against tests/header/openshmem-1.6-symbols.txt.
 */
#ifndef GSHMEM_TYPETABLE_H
#define GSHMEM_TYPETABLE_H

#include <stddef.h>
#include <stdint.h>

/* Standard RMA types (spec table "stdrmatypes"): put, get, p, g, iput, ... */
#define GSHMEM_RMA_TYPES(X)                                                    \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(long double, longdouble)                                                 \
    X(char, char)                                                              \
    X(signed char, schar)                                                      \
    X(short, short)                                                            \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)                                                     \
    X(unsigned char, uchar)                                                    \
    X(unsigned short, ushort)                                                  \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)                                           \
    X(int8_t, int8)                                                            \
    X(int16_t, int16)                                                          \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)                                                          \
    X(uint8_t, uint8)                                                          \
    X(uint16_t, uint16)                                                        \
    X(uint32_t, uint32)                                                        \
    X(uint64_t, uint64)                                                        \
    X(size_t, size)                                                            \
    X(ptrdiff_t, ptrdiff)

/* Not OpenSHMEM: NVSHMEM's 16-bit floating rows (bfloat16, half), for the
 * device API's typed families only (RMA, put-with-signal, broadcast,
 * fcollect, alltoall, min/max/sum/prod reductions; device/gsd/rows.h).
 * The types are in gshmem/float16.h, which this header does not include:
 * shmem.h declares nothing from these rows. */
#define GSHMEM_FLOAT16_TYPES(X)                                                \
    X(gshmem_bfloat16_t, bfloat16)                                             \
    X(gshmem_half_t, half)

/* The RMA types that are distinct C types, for C11 _Generic selection and
 * C++ overloads (int8_t, size_t, ... are typedefs of these). */
#define GSHMEM_RMA_GENERIC_TYPES(X)                                            \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(long double, longdouble)                                                 \
    X(char, char)                                                              \
    X(signed char, schar)                                                      \
    X(short, short)                                                            \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)                                                     \
    X(unsigned char, uchar)                                                    \
    X(unsigned short, ushort)                                                  \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)

/* Standard AMO types ("stdamotypes"): compare_swap, fetch_inc, inc,
 * fetch_add, add; also the point-to-point synchronization routines. */
#define GSHMEM_AMO_STD_TYPES(X)                                                \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)                                                     \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)                                           \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)                                                          \
    X(uint32_t, uint32)                                                        \
    X(uint64_t, uint64)                                                        \
    X(size_t, size)                                                            \
    X(ptrdiff_t, ptrdiff)

#define GSHMEM_AMO_STD_GENERIC_TYPES(X)                                        \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)                                                     \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)

/* Extended AMO types ("extamotypes"): fetch, set, swap. */
#define GSHMEM_AMO_EXT_TYPES(X)                                                \
    X(float, float)                                                            \
    X(double, double)                                                          \
    GSHMEM_AMO_STD_TYPES(X)

#define GSHMEM_AMO_EXT_GENERIC_TYPES(X)                                        \
    X(float, float)                                                            \
    X(double, double)                                                          \
    GSHMEM_AMO_STD_GENERIC_TYPES(X)

/* Bitwise AMO types ("bitamotypes"): and, or, xor. */
#define GSHMEM_AMO_BIT_TYPES(X)                                                \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)                                           \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)                                                          \
    X(uint32_t, uint32)                                                        \
    X(uint64_t, uint64)

/* int32_t and int64_t are signed, so they are no typedefs of the unsigned
 * rows and need rows of their own for _Generic and overloads. */
#define GSHMEM_AMO_BIT_GENERIC_TYPES(X)                                        \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)                                                          \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)

/* Point-to-point synchronization types: the standard AMO types plus the
 * deprecated short and unsigned short rows ("p2psynctypes"). */
#define GSHMEM_P2P_TYPES(X)                                                    \
    X(short, short)                                                            \
    X(unsigned short, ushort)                                                  \
    GSHMEM_AMO_STD_TYPES(X)

#define GSHMEM_P2P_GENERIC_TYPES(X)                                            \
    X(short, short)                                                            \
    X(unsigned short, ushort)                                                  \
    GSHMEM_AMO_STD_GENERIC_TYPES(X)

/* Deprecated shmem_TYPENAME_wait. */
#define GSHMEM_WAIT_DEPRECATED_TYPES(X)                                        \
    X(short, short)                                                            \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)

/* Deprecated AMO names: fetch/set/swap and cswap/finc/inc/fadd/add. */
#define GSHMEM_AMO_DEPR_EXT_TYPES(X)                                           \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)

#define GSHMEM_AMO_DEPR_STD_TYPES(X)                                           \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)

/* Sized RMA: X(BITS, BYTES) for shmem_putSIZE, shmem_getSIZE, ... */
#define GSHMEM_SIZES(X)                                                        \
    X(8, 1)                                                                    \
    X(16, 2)                                                                   \
    X(32, 4)                                                                   \
    X(64, 8)                                                                   \
    X(128, 16)

/* Team reductions ("teamreducetypes"). */
#define GSHMEM_REDUCE_BIT_TYPES(X)                                             \
    X(unsigned char, uchar)                                                    \
    X(unsigned short, ushort)                                                  \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)                                           \
    X(int8_t, int8)                                                            \
    X(int16_t, int16)                                                          \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)                                                          \
    X(uint8_t, uint8)                                                          \
    X(uint16_t, uint16)                                                        \
    X(uint32_t, uint32)                                                        \
    X(uint64_t, uint64)                                                        \
    X(size_t, size)

#define GSHMEM_REDUCE_MINMAX_TYPES(X)                                          \
    X(char, char)                                                              \
    X(signed char, schar)                                                      \
    X(short, short)                                                            \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)                                                     \
    X(ptrdiff_t, ptrdiff)                                                      \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(long double, longdouble)                                                 \
    GSHMEM_REDUCE_BIT_TYPES(X)

#define GSHMEM_REDUCE_ARITH_TYPES(X)                                           \
    GSHMEM_REDUCE_MINMAX_TYPES(X)                                              \
    X(double _Complex, complexd)                                               \
    X(float _Complex, complexf)

/* Team reductions as distinct C types, for _Generic and C++ overloads.
 * AND/OR/XOR: the signed rows exist only as int8_t..int64_t, which are
 * distinct from the unsigned rows; uint8_t..uint64_t and size_t are
 * typedefs of those. */
#define GSHMEM_REDUCE_BIT_GENERIC_TYPES(X)                                     \
    X(unsigned char, uchar)                                                    \
    X(unsigned short, ushort)                                                  \
    X(unsigned int, uint)                                                      \
    X(unsigned long, ulong)                                                    \
    X(unsigned long long, ulonglong)                                           \
    X(int8_t, int8)                                                            \
    X(int16_t, int16)                                                          \
    X(int32_t, int32)                                                          \
    X(int64_t, int64)

/* MAX/MIN cover the same 14 distinct C types as RMA. */
#define GSHMEM_REDUCE_MINMAX_GENERIC_TYPES(X) GSHMEM_RMA_GENERIC_TYPES(X)

#define GSHMEM_REDUCE_ARITH_GENERIC_TYPES(X)                                   \
    GSHMEM_REDUCE_MINMAX_GENERIC_TYPES(X)                                      \
    X(double _Complex, complexd)                                               \
    X(float _Complex, complexf)

/* Deprecated active-set reductions ("asetreducetypes"). */
#define GSHMEM_TOALL_BIT_TYPES(X)                                              \
    X(short, short)                                                            \
    X(int, int)                                                                \
    X(long, long)                                                              \
    X(long long, longlong)

#define GSHMEM_TOALL_MINMAX_TYPES(X)                                           \
    GSHMEM_TOALL_BIT_TYPES(X)                                                  \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(long double, longdouble)

#define GSHMEM_TOALL_ARITH_TYPES(X)                                            \
    GSHMEM_TOALL_MINMAX_TYPES(X)                                               \
    X(double _Complex, complexd)                                               \
    X(float _Complex, complexf)

#endif /* GSHMEM_TYPETABLE_H */
