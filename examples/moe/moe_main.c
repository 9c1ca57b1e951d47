/*
 * moe_main.c - the MoE example: dispatch tokens to their top-k experts
 * across PEs, run a toy expert, combine the outputs back, check them
 * against a sequential reference, and print a short summary.
 *
 *   gshmemrun -np 4 examples/moe/moe                 both modes, CPU shape
 *   gshmemrun -np 4 examples/moe/moe -s deepep -m ll DeepEP's LL benchmark shape
 *
 * Options: -s cpu|deepep|test (shape), -m ll|normal|both, -r random|skewed|
 * empty|sparse (routing), -d fp8|bf16 (dispatch format), -n iterations,
 * -w warm-up rounds.  Exit status 1 when an output was wrong.
 */
#include "moe_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-s cpu|deepep|test] [-m ll|normal|both] "
            "[-r random|skewed|empty|sparse] [-d fp8|bf16] [-n iters] [-w warmup]\n",
            prog);
}

int main(int argc, char **argv)
{
    const char *shape = "cpu", *modes = "both", *path;
    int route = MOE_ROUTE_RANDOM, iters = 20, warmup = 3, opt, me, npes, bad = 0, mode;
    moe_dtype_t dt = MOE_FP8;
    moe_shape_t s;
    char desc[200];

    shmem_init();
    me = shmem_my_pe(), npes = shmem_n_pes();
    while ((opt = getopt(argc, argv, "s:m:r:d:n:w:h")) != -1) {
        switch (opt) {
        case 's': shape = optarg; break;
        case 'm': modes = optarg; break;
        case 'r': route = moe_route_parse(optarg); break;
        case 'd': dt = strcmp(optarg, "bf16") == 0 ? MOE_BF16 : MOE_FP8; break;
        case 'n': iters = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        default: bad = 1;
        }
    }
    if (bad || route < 0 || iters < 1 || warmup < 0 || moe_shape_preset(shape, npes, &s) ||
        (strcmp(modes, "ll") && strcmp(modes, "normal") && strcmp(modes, "both"))) {
        if (me == 0)
            usage(argv[0]);
        shmem_finalize();
        return 2;
    }
    s.dtype = dt;
    path = moe_path_name();
    moe_shape_str(&s, desc, sizeof desc);
    if (me == 0)
        printf("gshmem MoE example: %d PEs (%s, peers by %s)\n  %s, %s routing\n", npes,
#if defined(__CUDACC__)
               "GPU",
#else
               "host lanes",
#endif
               path, desc, moe_route_name((moe_route_kind_t)route));

    for (mode = MOE_LL; mode <= MOE_NORMAL; mode++) {
        moe_perf_t p;
        double d, c;

        if (strcmp(modes, "both") && strcmp(modes, mode == MOE_LL ? "ll" : "normal"))
            continue;
        if (moe_measure(&s, (moe_mode_t)mode, (moe_route_kind_t)route, 1, warmup, iters, 1, &p)) {
            bad = 1;
            continue;
        }
        d = moe_quantile(p.dispatch_us, iters, 0.5), c = moe_quantile(p.combine_us, iters, 0.5);
        if (me == 0)
            printf("  %-11s dispatch %9.1f us %7.2f GB/s | combine %9.1f us %7.2f GB/s | %s\n",
                   moe_mode_name((moe_mode_t)mode), d,
                   moe_dispatch_bytes(&s, (long)p.selections) / d / 1e3, c,
                   moe_combine_bytes(&s, (long)p.selections) / c / 1e3,
                   p.verified ? "verified" : "WRONG RESULT");
        bad |= !p.verified;
        moe_perf_free(&p);
    }
    if (me == 0)
        printf("  (median of %d rounds, slowest PE; GB/s per PE as DeepEP counts it)\n", iters);
    shmem_finalize();
    return bad;
}
