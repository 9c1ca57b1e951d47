/* Unit tests of the host-lane bfloat16 and half conversions
 * (gshmem/float16.h): every 16-bit pattern converts to float and back
 * unchanged (a NaN to the canonical NaN 0x7fff, as CUDA's conversions
 * give); float -> 16 bits rounds to nearest, ties to even, at the cases
 * that matter (ties, NaN, infinity, overflow, subnormals); and, for a
 * sweep of float bit patterns, it agrees with a reference that finds the
 * two nearest 16-bit values by search and picks the nearer. */
#include <criterion/criterion.h>
#include <gshmem/float16.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static float from_bits(uint32_t x)
{
    float f;

    memcpy(&f, &x, sizeof f);
    return f;
}

static uint32_t to_bits(float f)
{
    uint32_t x;

    memcpy(&x, &f, sizeof x);
    return x;
}

static uint16_t bf16(uint32_t fbits)
{
    return gshmemx_bfloat16_bits(gshmemx_float_to_bfloat16(from_bits(fbits)));
}

static uint16_t half(uint32_t fbits)
{
    return gshmemx_half_bits(gshmemx_float_to_half(from_bits(fbits)));
}

static float bf16_value(uint16_t b)
{
    return gshmemx_bfloat16_to_float(gshmemx_bfloat16_from_bits(b));
}

static float half_value(uint16_t b)
{
    return gshmemx_half_to_float(gshmemx_half_from_bits(b));
}

Test(float16, types_are_16_bits)
{
    cr_expect_eq(sizeof(gshmem_bfloat16_t), 2);
    cr_expect_eq(sizeof(gshmem_half_t), 2);
}

Test(float16, every_bfloat16_converts_to_float_and_back)
{
    for (uint32_t b = 0; b < 65536; b++) {
        float f = bf16_value((uint16_t)b);
        int nan = (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0;

        cr_assert_eq(to_bits(f), b << 16, "bfloat16 %#06x -> float %#010x", b, to_bits(f));
        if (nan)
            cr_assert_eq(bf16(to_bits(f)), 0x7fff, "NaN %#06x -> %#06x, expected 0x7fff", b,
                         bf16(to_bits(f)));
        else
            cr_assert_eq(bf16(to_bits(f)), b, "bfloat16 %#06x -> float -> %#06x", b,
                         bf16(to_bits(f)));
    }
}

Test(float16, every_half_converts_to_float_and_back)
{
    int finite = 0;

    for (uint32_t b = 0; b < 65536; b++) {
        float f = half_value((uint16_t)b);
        int e = (b >> 10) & 0x1f, m = b & 0x3ff;

        if (e == 0x1f && m != 0) {
            cr_assert_eq(to_bits(f), 0x7fffffffu,
                         "half NaN %#06x -> float %#010x, expected "
                         "0x7fffffff",
                         b, to_bits(f));
            cr_assert_eq(half(to_bits(f)), 0x7fff, "NaN %#06x -> %#06x, expected 0x7fff", b,
                         half(to_bits(f)));
            continue;
        }
        /* the value itself: (-1)^s * m * 2^(e-25) with the hidden bit */
        if (e != 0x1f) {
            double v = ldexp(e ? (double)(m | 0x400) : (double)m, (e ? e : 1) - 25);

            cr_assert_eq((double)f, (b & 0x8000u) ? -v : v, "half %#06x is %.17g, got %.17g", b,
                         (b & 0x8000u) ? -v : v, (double)f);
            finite++;
        } else {
            cr_assert(isinf(f), "half infinity %#06x -> float %g", b, f);
        }
        cr_assert_eq(half(to_bits(f)), b, "half %#06x -> float %g -> %#06x", b, f,
                     half(to_bits(f)));
    }
    cr_expect_eq(finite, 2 * 31 * 1024);
}

/* X(float bits, expected 16 bits, what) */
#define BF16_CASES(X)                                                                          \
    X(0x3f808000u, 0x3f80, "tie between 0x3f80 and 0x3f81: even, down")                        \
    X(0x3f818000u, 0x3f82, "tie between 0x3f81 and 0x3f82: even, up")                          \
    X(0x3f808001u, 0x3f81, "just above a tie: up")                                             \
    X(0x3f807fffu, 0x3f80, "just below a tie: down")                                           \
    X(0xbf818000u, 0xbf82, "negative tie: even, away from zero")                               \
    X(0x7fc00000u, 0x7fff, "quiet NaN: canonical")                                             \
    X(0xffc00001u, 0x7fff, "negative NaN: canonical")                                          \
    X(0x7f800001u, 0x7fff, "signaling NaN whose top bits are 0: NaN, not infinity")            \
    X(0x7fffffffu, 0x7fff, "NaN that would carry into the sign")                               \
    X(0x7f800000u, 0x7f80, "infinity")                                                         \
    X(0xff800000u, 0xff80, "negative infinity")                                                \
    X(0x7f7fffffu, 0x7f80, "FLT_MAX overflows to infinity")                                    \
    X(0x7f7f8000u, 0x7f80, "tie at the top: even is infinity")                                 \
    X(0x7f7f7fffu, 0x7f7f, "just below that tie: the largest bfloat16")                        \
    X(0xff7fffffu, 0xff80, "-FLT_MAX overflows to negative infinity")                          \
    X(0x00000001u, 0x0000, "smallest float subnormal: zero")                                   \
    X(0x00008000u, 0x0000, "subnormal tie: even, zero")                                        \
    X(0x00018000u, 0x0002, "subnormal tie: even, up")                                          \
    X(0x807fffffu, 0x8080, "largest negative subnormal rounds to the smallest normal")         \
    X(0x80000000u, 0x8000, "negative zero")

#define HALF_CASES(X)                                                                          \
    X(0x3f801000u, 0x3c00, "1 + 2^-11, a tie: even, down")                                     \
    X(0x3f803000u, 0x3c02, "1 + 3 * 2^-11, a tie: even, up")                                   \
    X(0x3f801001u, 0x3c01, "just above a tie: up")                                             \
    X(0x7fc00000u, 0x7fff, "quiet NaN: canonical")                                             \
    X(0xff800001u, 0x7fff, "negative signaling NaN: canonical")                                \
    X(0x7f800000u, 0x7c00, "infinity")                                                         \
    X(0xff800000u, 0xfc00, "negative infinity")                                                \
    X(0x477fe000u, 0x7bff, "65504, the largest half")                                          \
    X(0x477fefffu, 0x7bff, "just below 65520: 65504")                                          \
    X(0x477ff000u, 0x7c00, "65520, the tie above 65504: even is infinity")                     \
    X(0x47800000u, 0x7c00, "65536 overflows")                                                  \
    X(0x7f7fffffu, 0x7c00, "FLT_MAX overflows")                                                \
    X(0xc7800000u, 0xfc00, "-65536 overflows to negative infinity")                            \
    X(0x38800000u, 0x0400, "2^-14, the smallest normal")                                       \
    X(0x387fc000u, 0x03ff, "the largest subnormal")                                            \
    X(0x387fe000u, 0x0400, "tie above the largest subnormal: even, the smallest normal")       \
    X(0x33800000u, 0x0001, "2^-24, the smallest subnormal")                                    \
    X(0x33000000u, 0x0000, "2^-25, the tie with zero: even, zero")                             \
    X(0x33000001u, 0x0001, "just above 2^-25: the smallest subnormal")                         \
    X(0x33c00000u, 0x0002, "1.5 * 2^-24, a tie: even, up")                                     \
    X(0x34200000u, 0x0002, "2.5 * 2^-24, a tie: even, down")                                   \
    X(0xb3c00000u, 0x8002, "-1.5 * 2^-24: even, away from zero")                               \
    X(0x32800000u, 0x0000, "2^-26: zero")                                                      \
    X(0x00000001u, 0x0000, "a float subnormal: zero")                                          \
    X(0x80000000u, 0x8000, "negative zero")

Test(float16, float_to_bfloat16_rounds_to_nearest_even)
{
#define CHECK_BF16(in, out, what)                                                              \
    cr_expect_eq(bf16(in), out, "%s: %#010x -> %#06x, expected %#06x", what, in, bf16(in), out);
    BF16_CASES(CHECK_BF16)
#undef CHECK_BF16
}

Test(float16, float_to_half_rounds_to_nearest_even)
{
#define CHECK_HALF(in, out, what)                                                              \
    cr_expect_eq(half(in), out, "%s: %#010x -> %#06x, expected %#06x", what, in, half(in), out);
    HALF_CASES(CHECK_HALF)
#undef CHECK_HALF
}

/* The reference: |f| lies between the 16-bit magnitudes lo and lo + 1
 * (found by binary search over the ordered positive patterns; `top` is the
 * value past the largest finite one, where the exponent would go on);
 * the nearer wins, a tie goes to the even pattern, and lo + 1 past the
 * largest finite one is infinity.  Exact in double. */
static uint16_t reference(float f, float (*value)(uint16_t), uint16_t max_finite, double top)
{
    double a = fabs((double)f), lo_v, hi_v;
    uint16_t lo = 0, hi = max_finite, r;

    if (isnan(f))
        return 0x7fff;
    while (lo < hi) { /* the largest pattern whose value is <= a */
        uint16_t mid = (uint16_t)((lo + hi + 1) / 2);

        if ((double)value(mid) <= a)
            lo = mid;
        else
            hi = (uint16_t)(mid - 1);
    }
    lo_v = value(lo);
    hi_v = lo == max_finite ? top : (double)value((uint16_t)(lo + 1));
    if (a == lo_v)
        r = lo;
    else if (a - lo_v < hi_v - a)
        r = lo;
    else if (a - lo_v > hi_v - a)
        r = (uint16_t)(lo + 1);
    else
        r = (lo & 1) ? (uint16_t)(lo + 1) : lo;
    if (isinf(f))
        r = (uint16_t)(max_finite + 1);
    return (uint16_t)(r | (signbit(f) ? 0x8000u : 0));
}

/* Float patterns by a stride prime to 2^32, so every exponent and many
 * low-bit patterns (ties included, see the cases above) are met. */
Test(float16, float_sweep_matches_the_reference)
{
    uint32_t x = 0;

    for (int i = 0; i < 400000; i++, x += 10739u) {
        float f = from_bits(x);
        uint16_t eb = reference(f, bf16_value, 0x7f7f, ldexp(1.0, 128));
        uint16_t eh = reference(f, half_value, 0x7bff, 65536.0);

        cr_assert_eq(bf16(x), eb, "bfloat16 of %#010x (%g): got %#06x, expected %#06x", x, f,
                     bf16(x), eb);
        cr_assert_eq(half(x), eh, "half of %#010x (%g): got %#06x, expected %#06x", x, f,
                     half(x), eh);
    }
}
