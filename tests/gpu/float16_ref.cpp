/*
 * tests/gpu/float16_ref.cpp - the host-lane bfloat16 and half conversions
 * (include/gshmem/float16.h, the struct types) give the same bits as
 * CUDA's own (cuda_bf16.h, cuda_fp16.h, compiled here by the host C++
 * compiler: their host code), both ways: float -> 16 bits for every
 * STRIDE-th float bit pattern (argv[1], default 61; 1 is all 2^32), and
 * 16 bits -> float for all 65536 patterns of each type.  Exit status 0
 * when every one agrees; the first few differences are printed.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gshmem/float16.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static unsigned long long fails;

static void differ(const char *what, unsigned in, unsigned ours, unsigned cuda)
{
    if (fails++ < 10)
        std::printf("FAIL %s of %#010x: gshmem %#010x, CUDA %#010x\n", what, in, ours, cuda);
}

int main(int argc, char **argv)
{
    unsigned long long stride = argc > 1 ? std::strtoull(argv[1], NULL, 10) : 61, n = 0;

    if (stride == 0)
        stride = 1;
    for (unsigned long long u = 0; u < (1ull << 32); u += stride, n++) {
        uint32_t x = (uint32_t)u;
        float f;
        std::memcpy(&f, &x, sizeof f);
        unsigned h = gshmemx_half_bits(gshmemx_float_to_half(f));
        unsigned hc = __half_as_ushort(__float2half_rn(f));
        unsigned b = gshmemx_bfloat16_bits(gshmemx_float_to_bfloat16(f));
        unsigned bc = __bfloat16_as_ushort(__float2bfloat16_rn(f));
        if (h != hc)
            differ("float -> half", x, h, hc);
        if (b != bc)
            differ("float -> bfloat16", x, b, bc);
    }
    for (unsigned p = 0; p < 65536; p++) {
        float h = gshmemx_half_to_float(gshmemx_half_from_bits((uint16_t)p));
        float hc = __half2float(__ushort_as_half((unsigned short)p));
        float b = gshmemx_bfloat16_to_float(gshmemx_bfloat16_from_bits((uint16_t)p));
        float bc = __bfloat162float(__ushort_as_bfloat16((unsigned short)p));
        uint32_t hb, hcb, bb, bcb;
        std::memcpy(&hb, &h, 4);
        std::memcpy(&hcb, &hc, 4);
        std::memcpy(&bb, &b, 4);
        std::memcpy(&bcb, &bc, 4);
        if (hb != hcb)
            differ("half -> float", p, hb, hcb);
        if (bb != bcb)
            differ("bfloat16 -> float", p, bb, bcb);
    }
    std::printf("float16_ref: %llu floats (stride %llu) and 2 x 65536 patterns, %llu differ\n",
                n, stride, fails);
    return fails != 0;
}
