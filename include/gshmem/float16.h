/*
 * gshmem/float16.h - the 16-bit floating types of the device API, NVSHMEM's
 * bfloat16 and half rows (GSHMEM_FLOAT16_TYPES in gshmem/typetable.h):
 *
 *   gshmem_bfloat16_t   __nv_bfloat16 under nvcc (cuda_bf16.h), so kernels
 *                       pass their own variables; elsewhere a struct of the
 *                       16 bits (1 sign, 8 exponent, 7 mantissa)
 *   gshmem_half_t       __half under nvcc (cuda_fp16.h); elsewhere a struct
 *                       of the 16 bits (1 sign, 5 exponent, 10 mantissa)
 *
 * The structs are one-member structs, not uint16_t, so that C11 _Generic
 * selections and C++ overloads written for uint16_t / unsigned short / short
 * never meet them.  Arithmetic is done in float:
 *
 *   float gshmemx_bfloat16_to_float(gshmem_bfloat16_t v)   exact
 *   float gshmemx_half_to_float(gshmem_half_t v)           exact
 *   gshmem_bfloat16_t gshmemx_float_to_bfloat16(float f)   round to nearest even
 *   gshmem_half_t gshmemx_float_to_half(float f)           round to nearest even
 *   uint16_t gshmemx_bfloat16_bits(v), gshmemx_half_bits(v)          the bits
 *   gshmemx_bfloat16_from_bits(uint16_t), gshmemx_half_from_bits(...) and back
 *
 * Under nvcc these call CUDA's __bfloat162float, __float2bfloat16_rn,
 * __half2float and __float2half_rn (host and device).  Elsewhere they are
 * written here to give the same bits as those: a NaN becomes the canonical
 * NaN 0x7fff (CUDA's), infinities stay, a finite value too large rounds to
 * infinity, half subnormals are kept (no flush to zero); a half NaN becomes
 * the float 0x7fffffff, a bfloat16 one keeps its bits, as CUDA's do.  Every
 * one of the 65536 patterns converts to float and back unchanged, NaN
 * payloads aside (tests/unit/float16.c).  (Compared once, by hand, with
 * CUDA 13's own host conversions over all 2^32 floats and all 65536
 * patterns: no difference.)
 */
#ifndef GSHMEM_FLOAT16_H
#define GSHMEM_FLOAT16_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define GSHMEM_F16_FN static __host__ __device__ __forceinline__
typedef __nv_bfloat16 gshmem_bfloat16_t;
typedef __half gshmem_half_t;
#else
#define GSHMEM_F16_FN static inline
typedef struct gshmem_bfloat16 {
    uint16_t bits;
} gshmem_bfloat16_t;
typedef struct gshmem_half {
    uint16_t bits;
} gshmem_half_t;
#endif

#define GSHMEM_F16_CANONICAL_NAN 0x7fffu

#if defined(__CUDACC__)

GSHMEM_F16_FN uint16_t gshmemx_bfloat16_bits(gshmem_bfloat16_t v)
{
    return __bfloat16_as_ushort(v);
}
GSHMEM_F16_FN gshmem_bfloat16_t gshmemx_bfloat16_from_bits(uint16_t b)
{
    return __ushort_as_bfloat16(b);
}
GSHMEM_F16_FN uint16_t gshmemx_half_bits(gshmem_half_t v)
{
    return __half_as_ushort(v);
}
GSHMEM_F16_FN gshmem_half_t gshmemx_half_from_bits(uint16_t b)
{
    return __ushort_as_half(b);
}
GSHMEM_F16_FN float gshmemx_bfloat16_to_float(gshmem_bfloat16_t v)
{
    return __bfloat162float(v);
}
GSHMEM_F16_FN gshmem_bfloat16_t gshmemx_float_to_bfloat16(float f)
{
    return __float2bfloat16_rn(f);
}
GSHMEM_F16_FN float gshmemx_half_to_float(gshmem_half_t v)
{
    return __half2float(v);
}
GSHMEM_F16_FN gshmem_half_t gshmemx_float_to_half(float f)
{
    return __float2half_rn(f);
}

#else

GSHMEM_F16_FN uint16_t gshmemx_bfloat16_bits(gshmem_bfloat16_t v)
{
    return v.bits;
}
GSHMEM_F16_FN gshmem_bfloat16_t gshmemx_bfloat16_from_bits(uint16_t b)
{
    gshmem_bfloat16_t v;

    v.bits = b;
    return v;
}
GSHMEM_F16_FN uint16_t gshmemx_half_bits(gshmem_half_t v)
{
    return v.bits;
}
GSHMEM_F16_FN gshmem_half_t gshmemx_half_from_bits(uint16_t b)
{
    gshmem_half_t v;

    v.bits = b;
    return v;
}

GSHMEM_F16_FN uint32_t gshmemi_float_bits(float f)
{
    uint32_t x;

    memcpy(&x, &f, sizeof x);
    return x;
}

GSHMEM_F16_FN float gshmemi_bits_float(uint32_t x)
{
    float f;

    memcpy(&f, &x, sizeof f);
    return f;
}

/* v >> s rounded to nearest, ties to even (1 <= s <= 31). */
GSHMEM_F16_FN uint32_t gshmemi_shift_rne(uint32_t v, unsigned s)
{
    uint32_t q = v >> s, rem = v & ((1u << s) - 1u), half = 1u << (s - 1u);

    return q + (rem > half || (rem == half && (q & 1u)));
}

/* bfloat16 is the top half of a float: same exponent range, so every
 * bfloat16 (subnormals, infinities, NaNs) is exactly that float. */
GSHMEM_F16_FN float gshmemx_bfloat16_to_float(gshmem_bfloat16_t v)
{
    return gshmemi_bits_float((uint32_t)v.bits << 16);
}

/* Dropping the low 16 bits, rounded: a carry out of the mantissa moves
 * into the exponent, which is right (and turns the largest values into
 * infinity); infinity's low bits are 0, so it stays.  Only NaN needs care:
 * rounding could carry a NaN into the sign. */
GSHMEM_F16_FN gshmem_bfloat16_t gshmemx_float_to_bfloat16(float f)
{
    uint32_t x = gshmemi_float_bits(f);
    gshmem_bfloat16_t r;

    if ((x & 0x7fffffffu) > 0x7f800000u)
        r.bits = GSHMEM_F16_CANONICAL_NAN;
    else
        r.bits = (uint16_t)gshmemi_shift_rne(x, 16);
    return r;
}

GSHMEM_F16_FN float gshmemx_half_to_float(gshmem_half_t v)
{
    uint32_t sign = (uint32_t)(v.bits & 0x8000u) << 16;
    uint32_t e = (v.bits >> 10) & 0x1fu, m = v.bits & 0x3ffu;

    if (e == 0x1fu) /* infinity; a NaN becomes float's 0x7fffffff, as CUDA's */
        return gshmemi_bits_float(m ? 0x7fffffffu : sign | 0x7f800000u);
    if (e == 0) {
        if (m == 0)
            return gshmemi_bits_float(sign);
        /* subnormal m * 2^-24: normalize, a float holds it exactly */
        e = 113; /* float exponent of 2^-14, before the shifts */
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        return gshmemi_bits_float(sign | e << 23 | (m & 0x3ffu) << 13);
    }
    return gshmemi_bits_float(sign | (e + 112u) << 23 | m << 13);
}

GSHMEM_F16_FN gshmem_half_t gshmemx_float_to_half(float f)
{
    uint32_t x = gshmemi_float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu, e = a >> 23;
    gshmem_half_t r;

    if (a > 0x7f800000u) {
        r.bits = GSHMEM_F16_CANONICAL_NAN;
        return r;
    }
    if (a >= 0x477ff000u) {
        /* 65520 (halfway from 65504, the largest half, to 65536) and up
         * round to infinity: the tie goes to the even one, infinity. */
        r.bits = (uint16_t)(sign | 0x7c00u);
    } else if (e >= 113) {
        /* a normal half: rebias the exponent (127 -> 15), round off 13
         * mantissa bits; a carry into the exponent is right */
        r.bits = (uint16_t)(sign | gshmemi_shift_rne(a - (112u << 23), 13));
    } else if (e >= 102) {
        /* a half subnormal, in units of 2^-24: the 24-bit mantissa times
         * 2^(e - 126); rounding up may give the smallest normal, rightly */
        r.bits = (uint16_t)(sign |
                            gshmemi_shift_rne((a & 0x7fffffu) | 0x800000u,
                                              126u - e));
    } else {
        r.bits = (uint16_t)sign; /* below 2^-25: zero */
    }
    return r;
}

#endif /* __CUDACC__ */

#endif /* GSHMEM_FLOAT16_H */
