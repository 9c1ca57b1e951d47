/*
 * moe_data.h - the data side of the MoE example, with no communication in
 * it: the problem shape, routing (which experts each token goes to), the
 * token formats (bf16, fp8-e4m3 with one fp32 scale per 128 values), the
 * message layout, the toy "expert" and the sequential reference.
 *
 * Both the gshmem kernels (moe.h) and the MPI_Alltoallv baseline
 * (perftest/moe_mpi_baseline.c) build on this file, so they move exactly
 * the same bytes and must produce bit-identical outputs.
 *
 * The inline helpers are MOE_HD: plain static inline C on host lanes and
 * for the reference, __host__ __device__ under nvcc.
 */
#ifndef MOE_DATA_H
#define MOE_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define MOE_HD static __host__ __device__ __forceinline__
#else
#define MOE_HD static inline
#endif

/* The two loops every token goes through on a CPU, the fp8 quantization of
 * dispatch and the weighted sum of combine, in the widest vectors the CPU
 * has: built for x86-64-v4 (AVX-512), v3 (AVX2) and the baseline (SSE2),
 * the loader picks one.  At the cpu shape (128 tokens of 2048) they took
 * 273 and 320 us a PE in SSE2, 100 and 177 in AVX-512.  No contraction
 * into fma, which v3 and v4 have: the sums stay bit-identical to the
 * reference's (MOE_FMUL). */
#if !defined(__CUDACC__) && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MOE_HOST_SIMD                                                            \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), \
                   optimize("fp-contract=off")))
#else
#define MOE_HOST_SIMD
#endif

#if defined(__cplusplus)
extern "C" {
#endif

#define MOE_SCALE_BLOCK 128 /* values per fp32 scale */
#define MOE_HDR_BYTES 16    /* per-message header: {source token, 3 reserved} */
#define MOE_FP8_MAX 448.0f  /* largest finite e4m3 value */

typedef uint16_t moe_bf16_t;

typedef enum moe_dtype { MOE_FP8 = 0, MOE_BF16 = 1 } moe_dtype_t;

/* The two modes (moe.h, gshmem_moe.h say what each does). */
typedef enum moe_mode { MOE_LL = 0, MOE_NORMAL = 1 } moe_mode_t;

/* Routing patterns (moe_route_make). */
typedef enum moe_route_kind {
    MOE_ROUTE_RANDOM = 0, /* K distinct experts uniformly at random */
    MOE_ROUTE_SKEWED = 1, /* every token picks expert 0 (hot), the rest at random */
    MOE_ROUTE_EMPTY = 2,  /* only experts e % 3 == 1 are ever chosen: the others get nothing */
    MOE_ROUTE_SPARSE = 3  /* random, but about a third of the entries are -1, some whole tokens */
} moe_route_kind_t;

typedef struct moe_shape {
    int tokens;  /* tokens per PE (the same on every PE) */
    int hidden;  /* H: values per token, a multiple of 128 */
    int topk;    /* K: experts per token */
    int experts; /* E: all experts, a multiple of the PE count */
    int npes;
    moe_dtype_t dtype; /* dispatch payload; combine is always bf16 */
} moe_shape_t;

/* The message header: where the token came from (DeepEP's layout). */
typedef struct moe_hdr {
    int32_t token; /* index of the token in its source PE's batch */
    int32_t reserved[3];
} moe_hdr_t;

/* ---- sizes -------------------------------------------------------------- */

MOE_HD size_t moe_align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* Payload bytes of one dispatched token (what DeepEP counts: H + 4·H/128 for
 * fp8, 2H for bf16), and of one message (16-byte header + payload). */
MOE_HD size_t moe_payload_bytes(int hidden, moe_dtype_t dt)
{
    return dt == MOE_FP8 ? (size_t)hidden + 4 * (size_t)(hidden / MOE_SCALE_BLOCK)
                         : 2 * (size_t)hidden;
}
MOE_HD size_t moe_msg_bytes(int hidden, moe_dtype_t dt)
{
    return moe_align16(MOE_HDR_BYTES + moe_payload_bytes(hidden, dt));
}
MOE_HD size_t moe_comb_bytes(int hidden)
{
    return 2 * (size_t)hidden;
}

/* ---- bf16 and fp8-e4m3 --------------------------------------------------- */

MOE_HD uint32_t moe_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
MOE_HD float moe_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

MOE_HD float moe_bf16_to_f32(moe_bf16_t b)
{
    return moe_u2f((uint32_t)b << 16);
}

/* Round to nearest even; NaN stays NaN (branch-free, for vector loops). */
MOE_HD moe_bf16_t moe_f32_to_bf16(float f)
{
    uint32_t u = moe_f2u(f), r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;

    return (moe_bf16_t)((u & 0x7fffffffu) > 0x7f800000u ? (u >> 16) | 0x40u : r);
}

/* e4m3 (OCP FP8, "fn": no infinities, 0x7f/0xff are NaN, largest 448).
 * Branch-free (masks), so the expert's loops vectorize. */
MOE_HD float moe_fp8_to_f32(uint8_t q)
{
    uint32_t s = (uint32_t)(q & 0x80u) << 24, e = (q >> 3) & 0xfu, m = q & 7u;
    uint32_t nb = s | (e + 120u) << 23 | m << 20;          /* normal */
    uint32_t sb = s | moe_f2u((float)m * (1.0f / 512.0f)); /* subnormal: m * 2^-9 */
    uint32_t sub = 0u - (uint32_t)(e == 0), nan = 0u - (uint32_t)((q & 0x7fu) == 0x7fu);
    uint32_t r = (sb & sub) | (nb & ~sub);

    return moe_u2f(((s | 0x7fc00000u) & nan) | (r & ~nan));
}

/* Round to nearest even, saturating at 448 (what a cast with satfinite
 * does); NaN gives NaN.  Branch-free, so the loops over a block vectorize. */
MOE_HD uint8_t moe_f32_to_fp8(float f)
{
    uint32_t u = moe_f2u(f), s = (u >> 24) & 0x80u, a = u & 0x7fffffffu;
    float x = moe_u2f(a);
    /* normal: round the mantissa to 3 bits; the carry may bump the exponent */
    uint32_t r = a + 0x7ffffu + ((a >> 20) & 1u);
    int32_t qn = (int32_t)(r >> 20) - (120 << 3);
    /* below 2^-6: subnormal, units of 2^-9 (0..8; 8 is the smallest normal):
     * adding 2^23 rounds to an integer (to nearest even) in the low mantissa
     * bits.  Integer compares only, so the compiler may if-convert. */
    int32_t qs = (int32_t)(moe_f2u(x * 512.0f + 8388608.0f) - 0x4b000000u);
    int32_t sub = -(int32_t)(a < 0x3c800000u), nan = -(int32_t)(a > 0x7f800000u);
    int32_t q = (qs & sub) | (qn & ~sub); /* masks, not branches: the compiler */
                                          /* keeps the float ops unconditional */
    q = q > 0x7e ? 0x7e : q;
    q = (0x7f & nan) | (q & ~nan);
    return (uint8_t)(s | (uint32_t)q);
}

/* Quantize one 128-value group: scale = amax / 448 (amax at least 1e-4, as
 * DeepEP), q[i] = e4m3(x[i] * 448 / amax).  Returns the scale. */
MOE_HOST_SIMD MOE_HD float moe_quant_block(const moe_bf16_t *x, uint8_t *q)
{
    uint32_t abits = 0;
    float amax, inv;
    int i;

    for (i = 0; i < MOE_SCALE_BLOCK; i++) { /* |x| compares as its bits */
        uint32_t a = ((uint32_t)x[i] << 16) & 0x7fffffffu;
        abits = a > abits ? a : abits;
    }
    amax = moe_u2f(abits);
    amax = amax > 1e-4f ? amax : 1e-4f;
    inv = MOE_FP8_MAX / amax;
    for (i = 0; i < MOE_SCALE_BLOCK; i++)
        q[i] = moe_f32_to_fp8(moe_bf16_to_f32(x[i]) * inv);
    return amax / MOE_FP8_MAX;
}

/* Value i of a message payload as the expert sees it. */
MOE_HD float moe_payload_value(const unsigned char *payload, int hidden, moe_dtype_t dt, int i)
{
    if (dt == MOE_FP8) {
        float scale;
        memcpy(&scale, payload + hidden + 4 * (i / MOE_SCALE_BLOCK), 4);
        return moe_fp8_to_f32(payload[i]) * scale;
    }
    {
        moe_bf16_t b;
        memcpy(&b, payload + 2 * (size_t)i, 2);
        return moe_bf16_to_f32(b);
    }
}

/* The toy expert: expert e multiplies its input by e + 1 (bf16 result). */
MOE_HD moe_bf16_t moe_expert_value(float in, int expert)
{
    return moe_f32_to_bf16(in * (float)(expert + 1));
}

/* The expert over values [i0, i1) of vals (fp8 with its scales, one fp32
 * per 128-block at any alignment, or bf16 with scales unused), by
 * 128-blocks: the same values as moe_expert_value(moe_payload_value(...)),
 * written to vectorize.  vals and out never overlap (restrict): bytes may
 * alias anything, and without it the loop ran 10% slower on the host. */
MOE_HD void moe_expert_vals(const unsigned char *__restrict__ vals, const unsigned char *scales,
                            moe_dtype_t dt, int expert, moe_bf16_t *__restrict__ out, int i0,
                            int i1)
{
    const float f = (float)(expert + 1);
    int i;

    if (dt != MOE_FP8) {
        for (i = i0; i < i1; i++) {
            moe_bf16_t b;
            memcpy(&b, vals + 2 * (size_t)i, 2);
            out[i] = moe_f32_to_bf16(moe_bf16_to_f32(b) * f);
        }
        return;
    }
    while (i0 < i1) {
        int end = (i0 / MOE_SCALE_BLOCK + 1) * MOE_SCALE_BLOCK;
        float scale;

        end = end < i1 ? end : i1;
        memcpy(&scale, scales + 4 * (i0 / MOE_SCALE_BLOCK), 4);
        for (i = i0; i < end; i++)
            out[i] = moe_f32_to_bf16(moe_fp8_to_f32(vals[i]) * scale * f);
        i0 = end;
    }
}

/* The same over one message payload, whose scales follow its values. */
MOE_HD void moe_expert_span(const unsigned char *payload, int hidden, moe_dtype_t dt, int expert,
                            moe_bf16_t *out, int i0, int i1)
{
    moe_expert_vals(payload, payload + hidden, dt, expert, out, i0, i1);
}

/* Products and sums of the combine, never contracted into an fma (nvcc
 * would), so every backend and the reference agree bit for bit. */
#if defined(__CUDA_ARCH__)
#define MOE_FMUL(a, b) __fmul_rn(a, b)
#define MOE_FADD(a, b) __fadd_rn(a, b)
#else
#define MOE_FMUL(a, b) ((a) * (b))
#define MOE_FADD(a, b) ((a) + (b))
#endif

/* Combine of value i of one token: sum over k (in k order) of w_k · y_k,
 * skipping k whose expert is -1; rows[k] is expert k's bf16 output row. */
MOE_HD moe_bf16_t moe_combine_value(const int32_t *idx, const float *w, int topk,
                                    const moe_bf16_t *const *rows, int i)
{
    float acc = 0.0f;
    int k;

    for (k = 0; k < topk; k++)
        if (idx[k] >= 0)
            acc = MOE_FADD(acc, MOE_FMUL(w[k], moe_bf16_to_f32(rows[k][i])));
    return moe_f32_to_bf16(acc);
}

/* moe_combine_value for the 8 values [i, i + 8), as one 16-byte load per
 * row and one 16-byte store: a lane that reads a peer's row over NVLink
 * moves 16 bytes per access instead of 2.  rows[k] + i and out + i must be
 * 16-byte aligned (moe_combine_vec8_ok).  The same sums in the same order
 * as moe_combine_value, so results are bit-identical. */
typedef struct moe_bf16x8 {
    moe_bf16_t v[8];
} __attribute__((aligned(16))) moe_bf16x8_t;

MOE_HD int moe_combine_vec8_ok(const moe_bf16_t *const *rows, int topk, const moe_bf16_t *out,
                               int n)
{
    int k;

    if (n % 8 || (uintptr_t)out % 16)
        return 0;
    for (k = 0; k < topk; k++)
        if ((uintptr_t)rows[k] % 16)
            return 0;
    return 1;
}

MOE_HD void moe_combine_vec8(const int32_t *idx, const float *w, int topk,
                             const moe_bf16_t *const *rows, moe_bf16_t *out, int i)
{
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    moe_bf16x8_t r, o;
    int j, k;

    for (k = 0; k < topk; k++)
        if (idx[k] >= 0) {
            r = *(const moe_bf16x8_t *)(const void *)(rows[k] + i);
            for (j = 0; j < 8; j++)
                acc[j] = MOE_FADD(acc[j], MOE_FMUL(w[k], moe_bf16_to_f32(r.v[j])));
        }
    for (j = 0; j < 8; j++)
        o.v[j] = moe_f32_to_bf16(acc[j]);
    *(moe_bf16x8_t *)(void *)(out + i) = o;
}

/* The same for values [i0, i1) of the token, by blocks (the same sums in
 * the same order, written so that a CPU vectorizes them). */
MOE_HOST_SIMD MOE_HD void moe_combine_span(const int32_t *idx, const float *w, int topk,
                                           const moe_bf16_t *const *rows, moe_bf16_t *out, int i0,
                                           int i1)
{
    float acc[128];
    int b, i, k, n;

    for (b = i0; b < i1; b += 128) {
        n = i1 - b < 128 ? i1 - b : 128;
        for (i = 0; i < n; i++)
            acc[i] = 0.0f;
        for (k = 0; k < topk; k++)
            if (idx[k] >= 0) {
                const moe_bf16_t *r = rows[k] + b;
                float wk = w[k];

                for (i = 0; i < n; i++)
                    acc[i] = MOE_FADD(acc[i], MOE_FMUL(wk, moe_bf16_to_f32(r[i])));
            }
        for (i = 0; i < n; i++)
            out[b + i] = moe_f32_to_bf16(acc[i]);
    }
}

/* ---- host code: data generation and the reference (moe_data.c) ------------ */

/* A readable name for the shape and mode ("128 tokens/PE, H=7168, top-8, 32 experts, fp8"). */
void moe_shape_str(const moe_shape_t *s, char *buf, size_t len);
const char *moe_route_name(moe_route_kind_t k);
const char *moe_mode_name(moe_mode_t mode);
/* Parses "random", "skewed", "empty", "sparse"; -1 when unknown. */
int moe_route_parse(const char *name);

/* Deterministic inputs of PE pe (any PE can make any PE's): tokens x
 * [tokens][hidden] bf16, top-k expert indices idx [tokens][topk] (-1: none)
 * and weights w [tokens][topk]. */
void moe_make_tokens(const moe_shape_t *s, int pe, uint64_t seed, moe_bf16_t *x);
void moe_route_make(const moe_shape_t *s, moe_route_kind_t kind, int pe, uint64_t seed,
                    int32_t *idx, float *w);

/* Message of token t (header + payload) as the dispatch sends it. */
void moe_pack_token(const moe_shape_t *s, const moe_bf16_t *x, int t, unsigned char *msg);

/* The toy expert over n messages of local expert `expert` (global id):
 * out[i] = bf16(value * (expert + 1)), 2H bytes per row. */
void moe_expert_run(const moe_shape_t *s, int expert, const unsigned char *msgs, size_t msg_stride,
                    int n, moe_bf16_t *out, size_t out_stride);

/* The sequential reference for one PE: what combine must return for its
 * tokens: ref [tokens][hidden] bf16. */
void moe_reference(const moe_shape_t *s, const moe_bf16_t *x, const int32_t *idx, const float *w,
                   moe_bf16_t *ref);

/* Valid (token, expert) selections in idx: DeepEP's byte counts are
 * selections x (H + 4H/128 + 16) for dispatch and selections x 2H for combine. */
long moe_count_selections(const moe_shape_t *s, const int32_t *idx);
double moe_dispatch_bytes(const moe_shape_t *s, long selections);
double moe_combine_bytes(const moe_shape_t *s, long selections);

/* Index of the first value where a and b differ, or -1. */
long moe_first_diff(const moe_bf16_t *a, const moe_bf16_t *b, long n);

/* The benchmark shapes, for npes PEs (0, or -1 for an unknown name):
 *   "deepep"  DeepEP's low-latency benchmark: 128 tokens/PE, H=7168, top-8,
 *             8 experts per PE, fp8 dispatch
 *   "cpu"     the same at H=2048 (small enough for host lanes on 2 cores)
 *   "test"    24 tokens, H=256, top-4, 4 experts per PE */
int moe_shape_preset(const char *name, int npes, moe_shape_t *s);

/* The p-quantile (0..1, nearest rank) of v[0..n) (v is not changed). */
double moe_quantile(const double *v, int n, double p);

/* One JSON line of perftest/moe_bench and perftest/moe_mpi_baseline:
 * {"bench":"moe_<what>","impl":..,"mode":..,"path":..,"shape":..,"npes":..,
 *  "tokens":..,"hidden":..,"topk":..,"experts":..,"dtype":..,"selections":..,
 *  "bytes":..,"iters":..,"median_us":..,"p99_us":..,"gbps":..,"verified":..}
 * what: dispatch, combine or total (both; bytes 0, no gbps).  bytes: per PE,
 * as DeepEP counts them; gbps = bytes / median. */
void moe_json_line(const char *what, const char *impl, const char *mode, const char *path,
                   const char *shape, const moe_shape_t *s, double selections, const double *us,
                   int iters, double bytes, int verified);

#if defined(__cplusplus)
}
#endif

#endif /* MOE_DATA_H */
