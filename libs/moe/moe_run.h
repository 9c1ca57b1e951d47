/*
 * moe_run.h - a measured run of the MoE example (moe_run.c): what the
 * example program and perftest/moe_bench report.
 */
#ifndef MOE_RUN_H
#define MOE_RUN_H

#include <gshmem.h>
#include <gshmem_moe.h>

#include "moe_data.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct moe_perf {
    int iters;
    double *dispatch_us, *combine_us, *total_us; /* [iters]: the slowest PE's time */
    double *expert_us, *layer_us; /* the toy expert's (not in total), and all three's */
    double selections;            /* valid (token, expert) pairs per PE, mean */
    int verified;                 /* every PE's last output == the reference */
} moe_perf_t;

/* Collective: warmup + iters rounds of dispatch, toy expert, combine on
 * the inputs moe_make_tokens / moe_route_make make from seed, zero copy
 * (the expert on the rows in place) or staged through recv_x and expert_y
 * arrays.  0, or -1 (moe_init or a launch failed). */
int moe_measure(const moe_shape_t *s, moe_mode_t mode, moe_route_kind_t route, uint64_t seed,
                int warmup, int iters, int zero_copy, moe_perf_t *p);
void moe_perf_free(moe_perf_t *p);

/* The toy expert (moe_data.h: expert e multiplies by e + 1) of this PE's
 * L local experts over what gshmem_moe_dispatch handed back: count[le]
 * rows of recv_x [L][R][H] (bf16, or fp8 with scales [L][R][H / 128])
 * into y [L][R][H] bf16. */
void moe_toy_experts(const moe_shape_t *s, int L, int R, const int32_t *count,
                     const unsigned char *vals, const float *scales, moe_bf16_t *y);
/* The toy expert e on one row: H values x (fp8 with scales sc, or bf16)
 * into y (bf16). */
void moe_toy_row(const moe_shape_t *s, int e, const void *x, const float *sc, moe_bf16_t *y);

/* How this PE reaches the next one: "load/store", "proxy" or "local"
 * (collective: it allocates a probe word of the host heap, which is mapped
 * exactly where the device heap is on host lanes). */
const char *moe_path_name(void);

#if defined(__cplusplus)
}
#endif

#endif /* MOE_RUN_H */
