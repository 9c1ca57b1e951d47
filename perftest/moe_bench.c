/*
 * moe_bench.c - MoE dispatch and combine on the gshmem device API
 * (libs/moe), as DeepEP measures them.
 *
 * Shapes (moe_shape_preset):
 *   deepep  DeepEP's low-latency benchmark: 128 tokens per PE, hidden 7168,
 *           top-8, experts = 8 x PEs, fp8 dispatch, bf16 combine
 *   cpu     the same at hidden 2048, small enough for host lanes on 2 cores
 * Each round is dispatch, the toy expert (not timed), combine; each timed
 * phase starts from a barrier (not timed), as in the MPI baseline.  A
 * round's time is the slowest PE's.  Reported,
 * one JSON line each (moe_json_line): median and p99 microseconds of
 * dispatch, of combine, and of their sum ("moe_total"), with GB/s per PE
 * as DeepEP computes it: dispatch bytes = valid selections x (H + 4H/128
 * + 16), combine bytes = selections x 2H, over the median time.  The last
 * round's output is checked against the sequential reference on every PE
 * ("verified"); a wrong result makes the exit status 1.  Also the toy
 * expert's time ("moe_expert", not in the total: where dispatch leaves the
 * payload changes it) and the round's, all three ("moe_layer").
 *
 * Options: -s cpu|deepep (default both), -m ll|normal|both (default both),
 * -r random|skewed|empty|sparse, -n rounds (default 200 cpu, 20 deepep),
 * -w warm-up rounds (default 10 / 2), -c staged: recv_x and expert_y
 * arrays of the caller ("impl":"gshmem_staged"; default zero copy, the
 * expert on the rows in place, "impl":"gshmem").  Build: gshmemcc -O2 -Ilibs/moe
 * perftest/moe_bench.c libs/moe/moe*.c (perftest/moe_compare.sh does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "moe_run.h"

static int run(const char *shape, int mode, int route, int iters, int warmup, int staged,
               const char *path)
{
    moe_shape_t s;
    moe_perf_t p;
    const char *m = mode == MOE_LL ? "ll" : "normal", *impl = staged ? "gshmem_staged" : "gshmem";

    if (moe_shape_preset(shape, shmem_n_pes(), &s))
        return 2;
    if (moe_measure(&s, (moe_mode_t)mode, (moe_route_kind_t)route, 1, warmup, iters, !staged, &p))
        return 1;
    if (shmem_my_pe() == 0) {
        moe_json_line("dispatch", impl, m, path, shape, &s, p.selections, p.dispatch_us, iters,
                      moe_dispatch_bytes(&s, (long)p.selections), p.verified);
        moe_json_line("combine", impl, m, path, shape, &s, p.selections, p.combine_us, iters,
                      moe_combine_bytes(&s, (long)p.selections), p.verified);
        moe_json_line("total", impl, m, path, shape, &s, p.selections, p.total_us, iters, 0,
                      p.verified);
        moe_json_line("expert", impl, m, path, shape, &s, p.selections, p.expert_us, iters, 0,
                      p.verified);
        moe_json_line("layer", impl, m, path, shape, &s, p.selections, p.layer_us, iters, 0,
                      p.verified);
        if (!p.verified)
            fprintf(stderr, "moe_bench: %s %s: the output differs from the reference\n", shape, m);
    }
    iters = !p.verified;
    moe_perf_free(&p);
    return iters;
}

int main(int argc, char **argv)
{
    const char *shape = NULL, *modes = "both", *path;
    int route = MOE_ROUTE_RANDOM, iters = 0, warmup = -1, staged = 0, opt, rc = 0, mode, sh;

    shmem_init();
    while ((opt = getopt(argc, argv, "s:m:r:n:w:c")) != -1) {
        switch (opt) {
        case 's': shape = optarg; break;
        case 'm': modes = optarg; break;
        case 'r': route = moe_route_parse(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        case 'c': staged = 1; break;
        default: route = -1;
        }
    }
    if (route < 0) {
        if (shmem_my_pe() == 0)
            fprintf(stderr,
                    "usage: %s [-s cpu|deepep] [-m ll|normal|both] "
                    "[-r random|skewed|empty|sparse] [-n iters] [-w warmup] [-c]\n",
                    argv[0]);
        shmem_finalize();
        return 2;
    }
    path = moe_path_name();
    for (sh = 0; sh < 2; sh++) {
        const char *name = sh == 0 ? "cpu" : "deepep";

        if (shape && strcmp(shape, name))
            continue;
        for (mode = MOE_LL; mode <= MOE_NORMAL; mode++) {
            if (strcmp(modes, "both") && strcmp(modes, mode == MOE_LL ? "ll" : "normal"))
                continue;
            rc |= run(name, mode, route,
                      iters     ? iters
                      : sh == 0 ? 200
                                : 20,
                      warmup >= 0 ? warmup
                      : sh == 0   ? 10
                                  : 2,
                      staged, path);
        }
    }
    shmem_finalize();
    return rc;
}
