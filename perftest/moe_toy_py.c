/*
 * moe_toy_py.c - moe_bench's toy expert (moe_toy_experts, libs/moe/
 * moe_run.c) for perftest/moe_py_bench.py, which loads it with ctypes
 * (perftest/.libs/libmoe_toy.so): with it the Python rounds do between
 * their timed phases exactly what the C rounds do, so python / C is the
 * cost of calling the library from Python.  With torch's expert instead
 * (--expert torch) the timed phases that follow it run slower from the
 * cache it churns through: the same happened to the C benchmark given 48
 * MB of extra memory traffic in its expert phase (dispatch 0.81 -> 1.12 ms,
 * combine 0.86 -> 1.22 ms at 2 PEs).
 */
#include "moe_run.h"

/* The flat form ctypes calls: hidden H, fp8 (1) or bf16 (0) values, this
 * PE's L local experts of R rows each. */
__attribute__((visibility("default"))) void moe_toy_experts_flat(int hidden, int fp8, int L, int R,
                                                                 const int32_t *count,
                                                                 const void *vals,
                                                                 const float *scales, uint16_t *y)
{
    moe_shape_t s = {0};

    s.hidden = hidden;
    s.npes = shmem_n_pes();
    s.dtype = fp8 ? MOE_FP8 : MOE_BF16;
    moe_toy_experts(&s, L, R, count, (const unsigned char *)vals, scales, (moe_bf16_t *)y);
}
