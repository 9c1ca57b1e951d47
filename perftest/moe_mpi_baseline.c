/*
 * moe_mpi_baseline.c - the MoE dispatch and combine of libs/moe done
 * the textbook way, with MPI_Alltoallv: the same data (moe_make_tokens,
 * moe_route_make), the same messages (16-byte header + fp8 payload with
 * scales, bf16 rows back), the same expert and the same reduction, so the
 * outputs are bit-identical to gshmem's and to the reference.
 *
 *   dispatch: count the messages per expert, exchange the counts
 *             (MPI_Alltoall), pack each token once quantized and copied
 *             to each of its experts' places in the send buffer (grouped by
 *             destination PE, then local expert, in token order), then
 *             MPI_Alltoallv; each PE receives [source PE][local expert][i]
 *   combine:  MPI_Alltoallv of the expert rows back in the order received
 *             (no packing needed), then each token's weighted sum over its
 *             top-k rows, located by where it was packed
 *
 * Output: the JSON lines of perftest/moe_bench with "impl":"mpi_alltoallv"
 * (moe_json_line).  Build: mpicc -O2 -Ilibs/moe perftest/moe_mpi_baseline.c
 * libs/moe/moe_data.c (no gshmem).  Options as moe_bench: -s cpu|deepep
 * (default both), -r routing, -n iterations, -w warm-up rounds.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "moe_data.h"

typedef struct base {
    moe_shape_t s;
    int me, L;
    size_t msg, row;
    moe_bf16_t *x, *out;
    int32_t *idx;
    float *w;
    int *cnt, *rcnt;                        /* [E] messages to each expert; [P][L] from each PE */
    int *scount, *sdispl, *rcount, *rdispl; /* Alltoallv, in bytes */
    int *ccount, *cdispl, *crcount, *crdispl;
    long *pos; /* [N][K] message index in the send order */
    long *at;  /* [E] scratch: next message index per expert */
    unsigned char *sendbuf, *recvbuf;
    moe_bf16_t *ybuf, *cbuf; /* expert rows (received order); rows back (send order) */
    int nrecv;
} base_t;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void dispatch(base_t *b)
{
    const moe_shape_t *s = &b->s;
    const int N = s->tokens, K = s->topk, P = s->npes, L = b->L, E = s->experts;
    int e, q, t, k, l;
    long off = 0, *at = b->at;

    memset(b->cnt, 0, sizeof(int) * (size_t)E);
    for (t = 0; t < N * K; t++)
        if (b->idx[t] >= 0)
            b->cnt[b->idx[t]]++;
    MPI_Alltoall(b->cnt, L, MPI_INT, b->rcnt, L, MPI_INT, MPI_COMM_WORLD);

    /* Send order = global expert order (PE, then local expert), tokens in order. */
    for (e = 0; e < E; e++)
        at[e] = off, off += b->cnt[e];
    for (t = 0; t < N; t++) {
        unsigned char *m0 = NULL;

        for (k = 0; k < K; k++) {
            int ex = b->idx[(size_t)t * K + k];
            unsigned char *m;

            if (ex < 0)
                continue;
            b->pos[(size_t)t * K + k] = at[ex];
            m = b->sendbuf + (size_t)at[ex]++ * b->msg;
            if (m0 == NULL)
                moe_pack_token(s, b->x, t, m0 = m); /* quantize once, copy to the others */
            else
                memcpy(m, m0, b->msg);
        }
    }
    for (q = 0, off = 0; q < P; q++) {
        long n = 0, r = 0;
        for (l = 0; l < L; l++)
            n += b->cnt[q * L + l], r += b->rcnt[q * L + l];
        b->scount[q] = (int)(n * (long)b->msg);
        b->ccount[q] = (int)(n * (long)b->row);
        b->rcount[q] = (int)(r * (long)b->msg);
        b->crcount[q] = (int)(r * (long)b->row);
    }
    b->sdispl[0] = b->rdispl[0] = b->cdispl[0] = b->crdispl[0] = 0;
    for (q = 1; q < P; q++) {
        b->sdispl[q] = b->sdispl[q - 1] + b->scount[q - 1];
        b->rdispl[q] = b->rdispl[q - 1] + b->rcount[q - 1];
        b->cdispl[q] = b->cdispl[q - 1] + b->ccount[q - 1];
        b->crdispl[q] = b->crdispl[q - 1] + b->crcount[q - 1];
    }
    b->nrecv = (b->rdispl[P - 1] + b->rcount[P - 1]) / (int)b->msg;
    MPI_Alltoallv(b->sendbuf, b->scount, b->sdispl, MPI_BYTE, b->recvbuf, b->rcount, b->rdispl,
                  MPI_BYTE, MPI_COMM_WORLD);
}

/* The toy expert over [source PE][local expert][i]. */
static void expert(base_t *b)
{
    const int P = b->s.npes, L = b->L;
    int q, l, i = 0;

    for (q = 0; q < P; q++)
        for (l = 0; l < L; l++) {
            int n = b->rcnt[q * L + l];
            moe_expert_run(&b->s, b->me * L + l, b->recvbuf + (size_t)i * b->msg, b->msg, n,
                           b->ybuf + (size_t)i * b->s.hidden, b->row);
            i += n;
        }
}

static void combine(base_t *b)
{
    const int N = b->s.tokens, K = b->s.topk, H = b->s.hidden;
    const moe_bf16_t *rows[32];
    int t, k;

    /* The rows go back in the order they came: crcount/crdispl send, ccount/cdispl receive. */
    MPI_Alltoallv(b->ybuf, b->crcount, b->crdispl, MPI_BYTE, b->cbuf, b->ccount, b->cdispl,
                  MPI_BYTE, MPI_COMM_WORLD);
    for (t = 0; t < N; t++) {
        for (k = 0; k < K; k++)
            rows[k] = b->idx[(size_t)t * K + k] >= 0
                          ? b->cbuf + (size_t)b->pos[(size_t)t * K + k] * H
                          : b->cbuf;
        moe_combine_span(b->idx + (size_t)t * K, b->w + (size_t)t * K, K, rows,
                         b->out + (size_t)t * H, 0, H);
    }
}

static int run(const char *shape, moe_route_kind_t route, int iters, int warmup)
{
    base_t b;
    int P, i, ok;
    double *d, *c, *e, *tot, *lay, sel;
    long nsel;
    size_t N, K, H, maxmsgs;
    moe_bf16_t *ref;

    memset(&b, 0, sizeof b);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (moe_shape_preset(shape, P, &b.s))
        return -1;
    N = (size_t)b.s.tokens, K = (size_t)b.s.topk, H = (size_t)b.s.hidden;
    b.L = b.s.experts / P;
    b.msg = moe_msg_bytes(b.s.hidden, b.s.dtype), b.row = moe_comb_bytes(b.s.hidden);
    maxmsgs = (size_t)P * N * (K < (size_t)b.L ? K : (size_t)b.L); /* most a PE can receive */
    b.x = malloc(N * H * 2), b.out = malloc(N * H * 2), ref = malloc(N * H * 2);
    b.idx = malloc(N * K * 4), b.w = malloc(N * K * 4), b.pos = malloc(N * K * sizeof(long));
    b.cnt = calloc((size_t)b.s.experts, sizeof(int));
    b.rcnt = calloc((size_t)b.s.experts, sizeof(int));
    b.scount = calloc((size_t)P, sizeof(int)), b.sdispl = calloc((size_t)P, sizeof(int));
    b.rcount = calloc((size_t)P, sizeof(int)), b.rdispl = calloc((size_t)P, sizeof(int));
    b.at = calloc((size_t)b.s.experts, sizeof(long));
    b.ccount = calloc((size_t)P, sizeof(int)), b.cdispl = calloc((size_t)P, sizeof(int));
    b.crcount = calloc((size_t)P, sizeof(int)), b.crdispl = calloc((size_t)P, sizeof(int));
    b.sendbuf = malloc(N * K * b.msg), b.recvbuf = malloc(maxmsgs * b.msg);
    b.ybuf = malloc(maxmsgs * b.row), b.cbuf = malloc(N * K * b.row);
    d = calloc((size_t)iters, sizeof(double)), c = calloc((size_t)iters, sizeof(double));
    e = calloc((size_t)iters, sizeof(double));
    tot = calloc((size_t)iters, sizeof(double)), lay = calloc((size_t)iters, sizeof(double));

    moe_make_tokens(&b.s, b.me, 1, b.x);
    moe_route_make(&b.s, route, b.me, 1, b.idx, b.w);
    /* touch every buffer once, as the gshmem side's are (calloc'd and used) */
    memset(b.sendbuf, 0, N * K * b.msg), memset(b.recvbuf, 0, maxmsgs * b.msg);
    memset(b.ybuf, 0, maxmsgs * b.row), memset(b.cbuf, 0, N * K * b.row);

    for (i = -warmup; i < iters; i++) {
        double t0, t1, te0, te1, t2, t3;

        MPI_Barrier(MPI_COMM_WORLD); /* not timed, as in moe_bench (moe_run.c) */
        t0 = now_us();
        dispatch(&b);
        t1 = now_us();
        MPI_Barrier(MPI_COMM_WORLD);
        te0 = now_us();
        expert(&b);
        te1 = now_us();
        MPI_Barrier(MPI_COMM_WORLD);
        t2 = now_us();
        combine(&b);
        t3 = now_us();
        if (i >= 0)
            d[i] = t1 - t0, e[i] = te1 - te0, c[i] = t3 - t2;
    }
    moe_reference(&b.s, b.x, b.idx, b.w, ref);
    ok = moe_first_diff(b.out, ref, (long)(N * H)) < 0;
    nsel = moe_count_selections(&b.s, b.idx);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nsel, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, d, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, c, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, e, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (i = 0; i < iters; i++)
        tot[i] = d[i] + c[i], lay[i] = d[i] + e[i] + c[i];
    sel = (double)nsel / P;
    if (b.me == 0) {
        moe_json_line("dispatch", "mpi_alltoallv", "alltoallv", "mpi", shape, &b.s, sel, d, iters,
                      moe_dispatch_bytes(&b.s, (long)sel), ok);
        moe_json_line("combine", "mpi_alltoallv", "alltoallv", "mpi", shape, &b.s, sel, c, iters,
                      moe_combine_bytes(&b.s, (long)sel), ok);
        moe_json_line("total", "mpi_alltoallv", "alltoallv", "mpi", shape, &b.s, sel, tot, iters, 0,
                      ok);
        moe_json_line("expert", "mpi_alltoallv", "alltoallv", "mpi", shape, &b.s, sel, e, iters, 0,
                      ok);
        moe_json_line("layer", "mpi_alltoallv", "alltoallv", "mpi", shape, &b.s, sel, lay, iters, 0,
                      ok);
    }
    if (!ok && b.me == 0)
        fprintf(stderr, "moe_mpi_baseline: %s: the output differs from the reference\n", shape);
    free(lay), free(tot), free(e), free(c), free(d);
    free(b.cbuf), free(b.ybuf), free(b.recvbuf), free(b.sendbuf);
    free(b.crdispl), free(b.crcount), free(b.cdispl), free(b.ccount);
    free(b.rdispl), free(b.rcount), free(b.sdispl), free(b.scount);
    free(b.rcnt), free(b.cnt), free(b.at), free(b.pos), free(b.w), free(b.idx);
    free(ref), free(b.out), free(b.x);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *shape = NULL;
    int route = MOE_ROUTE_RANDOM, iters = 0, warmup = -1, opt, rc = 0;

    MPI_Init(&argc, &argv);
    while ((opt = getopt(argc, argv, "s:r:n:w:")) != -1) {
        switch (opt) {
        case 's': shape = optarg; break;
        case 'r': route = moe_route_parse(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        default: route = -1;
        }
    }
    if (route < 0) {
        fprintf(stderr,
                "usage: %s [-s cpu|deepep] [-r random|skewed|empty|sparse] [-n iters] "
                "[-w warmup]\n",
                argv[0]);
        MPI_Finalize();
        return 2;
    }
    if (shape == NULL || strcmp(shape, "cpu") == 0)
        rc |= run("cpu", (moe_route_kind_t)route, iters ? iters : 200, warmup >= 0 ? warmup : 10);
    if (shape == NULL || strcmp(shape, "deepep") == 0)
        rc |= run("deepep", (moe_route_kind_t)route, iters ? iters : 20, warmup >= 0 ? warmup : 2);
    MPI_Finalize();
    return rc;
}
