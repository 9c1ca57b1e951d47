/*
 * gshmem_moe.c - the public MoE API (include/gshmem_moe.h) over the kernels
 * of moe.h: it checks the arguments, stages the caller's arrays into the
 * library's symmetric buffers, and after a dispatch packs what each local
 * expert received into the caller's recv_x in a fixed order (source PE, then
 * source token), which the kernels do not give (LL slots are taken by
 * atomics, normal records come per stream).  The layout it found is kept
 * per call parity, so combine puts each expert row where the combine kernel
 * reads it.
 *
 * Zero copy: a caller that passes no recv_x to dispatch reads each row
 * where it landed and writes its expert's output straight into the row the
 * combine kernel reads (gshmem_moe_expert_rows, then combine with no
 * expert_y), as DeepEP's zero-copy combine buffer does.  On host lanes
 * (libgshmem_moe.so) the kernels also read the caller's x and write its out
 * in place: those are host memory there, like the kernels' own buffers.
 * So on host lanes a zero-copy round moves every byte once, as the kernels
 * alone do; the staged copies cost as much again (issue 26).
 */
#include "gshmem_moe.h"

#include "moe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__CUDACC__)
#define MOE_IN_PLACE 0 /* x and out are host arrays: staged */
#else
#define MOE_IN_PLACE 1 /* host lanes: the kernels use the caller's x and out */
#endif

/* One received (token, local expert): where it came from, its message
 * (header + payload) and the row its expert output goes to. */
typedef struct moe_entry {
    int32_t src, token;
    const unsigned char *msg;
    moe_bf16_t *row;
} moe_entry_t;

struct gshmem_moe {
    uint32_t magic; /* MOE_LIVE from create to destroy (moe_live) */
    moe_t m;
    gshmem_moe_config_t cfg;
    int L, P, N, H, K;
    int32_t *idx[2];           /* symmetric [N][K] per call parity (the LL combine reads its own) */
    int32_t *idx_host;         /* [N][K] staging, -1 padded */
    float *w_host;             /* [N][K] staging, zero padded */
    moe_entry_t *lay[2];       /* [L][P * N] per parity, sorted */
    gshmem_moe_row_t *rows[2]; /* [L][P * N] per parity: lay's rows as the caller sees them */
    int32_t *lay_n[2];         /* [L] */
    moe_entry_t *scratch;      /* [N]: one (le, src) list while sorting */
    uint32_t combined;         /* epoch of the last combine */
    uint32_t tag;              /* its handles' .buffer: this process's count of creates */
    int sent[2];               /* per parity: the tokens the dispatch took */
    long *cvote;               /* symmetric [2]: combine's vote, source and result (moe_vote) */
    int *dvote;                /* symmetric [2], in cvote's allocation: dispatch's vote */
};

/* Tags of buffers made in this process, so that a handle names its buffer
 * (a destroyed buffer's tag is never reused). */
static uint32_t moe_tags;

static char moe_err[512];

const char *gshmem_moe_error(void)
{
    return moe_err;
}

/* Report: one line on stderr, kept for gshmem_moe_error (Python raises it). */
static int moe_fail(int status, const char *fn, const char *fmt, ...)
{
    int n, pe = 0, init = 0;
    va_list ap;

    shmem_query_initialized(&init);
    if (init)
        pe = shmem_my_pe();
    n = snprintf(moe_err, sizeof moe_err, "gshmem: PE %d: %s: ", pe, fn);
    va_start(ap, fmt);
    vsnprintf(moe_err + n, sizeof moe_err - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", moe_err);
    return status;
}

#define MOE_LIVE 0x6d6f6531u /* "moe1" */

/* The live buffers, looked up before a handle is read at all: a garbage
 * pointer, even one into unmapped memory, is refused without a load
 * through it (as libs/kv's engine table does).  The live word stays as a
 * second check.  The library is called from one thread per PE (its calls
 * are collective), so the table needs no lock. */
#define MOE_MAX_BUFFERS 64
static gshmem_moe_t *moe_table[MOE_MAX_BUFFERS];

static void moe_release(gshmem_moe_t *b);

/* A free slot's index, or -1. */
static int moe_table_free(void)
{
    for (int i = 0; i < MOE_MAX_BUFFERS; i++)
        if (moe_table[i] == NULL)
            return i;
    return -1;
}

static void moe_table_remove(const gshmem_moe_t *b)
{
    for (int i = 0; i < MOE_MAX_BUFFERS; i++)
        if (moe_table[i] == b)
            moe_table[i] = NULL;
}

static int moe_in_table(const gshmem_moe_t *b)
{
    for (int i = 0; b != NULL && i < MOE_MAX_BUFFERS; i++)
        if (moe_table[i] == b)
            return 1;
    return 0;
}

/* Whether b is a buffer from gshmem_moe_create not yet destroyed; else one
 * line. */
static int moe_live(const gshmem_moe_t *b, const char *fn)
{
    if (moe_in_table(b) && b->magic == MOE_LIVE)
        return 1;
    if (b)
        moe_fail(0, fn, "buffer %p is not a live gshmem_moe_t (destroyed, or never created)",
                 (const void *)b);
    else
        moe_fail(0, fn, "buffer is NULL");
    return 0;
}

static int check_config(const gshmem_moe_config_t *c, int npes)
{
    const char *fn = "gshmem_moe_create";

    if (c == NULL)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "config is NULL");
    if (c->hidden < MOE_SCALE_BLOCK || c->hidden % MOE_SCALE_BLOCK)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "hidden %d is not a positive multiple of 128",
                        c->hidden);
    if (c->num_experts < npes || c->num_experts % npes)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                        "num_experts %d is not a positive multiple of the %d PEs", c->num_experts,
                        npes);
    if (c->topk < 1 || c->topk > MOE_MAX_TOPK || c->topk > c->num_experts)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "topk %d is not 1 to min(32, num_experts %d)",
                        c->topk, c->num_experts);
    if (c->max_tokens_per_pe < 1)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "max_tokens_per_pe %d is not at least 1",
                        c->max_tokens_per_pe);
    if (c->format != GSHMEM_MOE_FP8 && c->format != GSHMEM_MOE_BF16)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "format %d is neither fp8 (0) nor bf16 (1)",
                        (int)c->format);
    if (c->mode != GSHMEM_MOE_LOW_LATENCY && c->mode != GSHMEM_MOE_NORMAL)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                        "mode %d is neither low latency (0) nor normal (1)", (int)c->mode);
    return 0;
}

/* What a PE passed to gshmem_moe_create, as its peers see it. */
#define MOE_CARD_FIELDS 6
typedef struct moe_card {
    int32_t ok; /* the config passed check_config and out is set */
    int32_t v[MOE_CARD_FIELDS];
} moe_card_t;

static const char *const card_field[MOE_CARD_FIELDS] = {"hidden", "num_experts",
                                                        "topk",   "max_tokens_per_pe",
                                                        "format", "mode"};

/* Creation is collective: one exchange of every PE's config, so that a
 * config refused on one PE, or different on two, fails on every PE with a
 * line naming the PE and both values, and no PE is left waiting in
 * moe_init's symmetric allocations (issue 29, point 2).  0: all agree. */
static int agree(const gshmem_moe_config_t *cfg, int ok)
{
    const char *fn = "gshmem_moe_create";
    int n = shmem_n_pes(), rc = 0;
    moe_card_t *all = (moe_card_t *)shmem_malloc((size_t)n * sizeof *all);
    moe_card_t *mine = (moe_card_t *)shmem_malloc(sizeof *mine);

    if (all == NULL || mine == NULL) {
        shmem_free(all), shmem_free(mine);
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "out of symmetric memory for %d configs", n);
    }
    memset(mine, 0, sizeof *mine);
    mine->ok = ok;
    if (cfg != NULL) {
        mine->v[0] = cfg->hidden, mine->v[1] = cfg->num_experts, mine->v[2] = cfg->topk;
        mine->v[3] = cfg->max_tokens_per_pe, mine->v[4] = (int32_t)cfg->format;
        mine->v[5] = (int32_t)cfg->mode;
    }
    shmem_fcollectmem(SHMEM_TEAM_WORLD, all, mine, sizeof *mine);
    for (int pe = 0; pe < n && rc == 0; pe++) {
        if (!all[pe].ok) {
            /* The refusing PE said why; the others say who. */
            rc = ok ? moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                               "PE %d refused its config (its own line says why), so every PE "
                               "fails",
                               pe)
                    : GSHMEM_MOE_ERR_INVALID;
            break;
        }
        for (int f = 0; f < MOE_CARD_FIELDS && pe > 0; f++)
            if (all[pe].v[f] != all[0].v[f]) {
                rc = moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                              "PE %d has %s %d, PE 0 %d: every PE must pass the same config", pe,
                              card_field[f], (int)all[pe].v[f], (int)all[0].v[f]);
                break;
            }
    }
    shmem_free(mine);
    shmem_free(all);
    return rc;
}

int gshmem_moe_create(const gshmem_moe_config_t *cfg, gshmem_moe_t **out)
{
    const char *fn = "gshmem_moe_create";
    gshmem_moe_t *b;
    moe_shape_t s;
    size_t NK, LPN;
    int init = 0, rc, agreed;

    shmem_query_initialized(&init);
    if (!init)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "called before shmem_init");
    rc = out == NULL ? moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "out is NULL")
                     : check_config(cfg, shmem_n_pes());
    if (rc == 0 && moe_table_free() < 0)
        rc = moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "%d buffers are live already: destroy one first",
                      MOE_MAX_BUFFERS);
    agreed = agree(cfg, rc == 0); /* by every PE, even one that refused */
    if (rc != 0 || (rc = agreed) != 0)
        return rc;
    b = (gshmem_moe_t *)calloc(1, sizeof *b);
    if (b == NULL)
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "out of memory");
    b->magic = MOE_LIVE;
    b->tag = __atomic_add_fetch(&moe_tags, 1, __ATOMIC_RELAXED);
    if (b->tag == 0) /* after 2^32 creates */
        b->tag = __atomic_add_fetch(&moe_tags, 1, __ATOMIC_RELAXED);
    b->cfg = *cfg;
    b->P = shmem_n_pes(), b->N = cfg->max_tokens_per_pe, b->H = cfg->hidden, b->K = cfg->topk;
    b->L = cfg->num_experts / b->P;
    s.tokens = b->N, s.hidden = b->H, s.topk = b->K, s.experts = cfg->num_experts;
    s.npes = b->P, s.dtype = cfg->format == GSHMEM_MOE_FP8 ? MOE_FP8 : MOE_BF16;
    if (moe_init(&b->m, &s, cfg->mode == GSHMEM_MOE_LOW_LATENCY ? MOE_LL : MOE_NORMAL) != 0) {
        free(b);
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "could not make the buffers (see above)");
    }
    NK = (size_t)b->N * (size_t)b->K, LPN = (size_t)b->L * (size_t)b->P * (size_t)b->N;
    b->idx[0] = b->m.a.b.idx;
    b->idx[1] = (int32_t *)gshmem_malloc(NK * 4);      /* collective, like moe_init's */
    b->cvote = (long *)shmem_malloc(4 * sizeof(long)); /* moe_vote's; dvote in its second half */
    b->dvote = b->cvote ? (int *)(void *)(b->cvote + 2) : NULL;
    b->idx_host = (int32_t *)malloc(NK * 4);
    b->w_host = (float *)calloc(NK, 4);
    b->scratch = (moe_entry_t *)malloc((size_t)b->N * sizeof(moe_entry_t));
    for (rc = 0; rc < 2; rc++) {
        b->lay[rc] = (moe_entry_t *)calloc(LPN, sizeof(moe_entry_t));
        b->rows[rc] = (gshmem_moe_row_t *)calloc(LPN, sizeof(gshmem_moe_row_t));
        b->lay_n[rc] = (int32_t *)calloc((size_t)b->L, 4);
    }
    if (!b->idx[1] || !b->cvote || !b->idx_host || !b->w_host || !b->scratch || !b->lay[0] ||
        !b->lay[1] || !b->rows[0] || !b->rows[1] || !b->lay_n[0] || !b->lay_n[1]) {
        moe_release(b);
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "out of memory (symmetric or private)");
    }
    moe_table[moe_table_free()] = b; /* a slot was free before the exchange */
    *out = b;
    return 0;
}

/* Everything create made, in a buffer that is in the table or never was. */
static void moe_release(gshmem_moe_t *b)
{
    moe_table_remove(b);
    b->magic = 0;
    b->m.a.b.idx = b->idx[0]; /* moe_fini frees the one moe_init made */
    moe_fini(&b->m);
    gshmem_free(b->idx[1]);
    shmem_free(b->cvote);
    free(b->idx_host), free(b->w_host), free(b->scratch);
    free(b->lay[0]), free(b->lay[1]), free(b->lay_n[0]), free(b->lay_n[1]);
    free(b->rows[0]), free(b->rows[1]);
    free(b);
}

void gshmem_moe_destroy(gshmem_moe_t *b)
{
    if (b != NULL && moe_live(b, "gshmem_moe_destroy"))
        moe_release(b);
}

int gshmem_moe_local_experts(const gshmem_moe_t *b)
{
    return b && moe_live(b, "gshmem_moe_local_experts") ? b->L : 0;
}

int gshmem_moe_recv_rows(const gshmem_moe_t *b)
{
    return b && moe_live(b, "gshmem_moe_recv_rows") ? b->P * b->N : 0;
}

static int32_t dev_i32(const int32_t *p)
{
    int32_t v;

    gshmemx_memcpy_from_device(&v, p, sizeof v);
    return v;
}

static int by_token(const void *a, const void *b)
{
    const moe_entry_t *x = (const moe_entry_t *)a, *y = (const moe_entry_t *)b;

    return (x->token > y->token) - (x->token < y->token);
}

/* Append one (le, src) list, sorted by token, to parity p's layout. */
static void lay_append(gshmem_moe_t *b, int p, int le, moe_entry_t *e, int n)
{
    qsort(e, (size_t)n, sizeof *e, by_token);
    memcpy(b->lay[p] + (size_t)le * b->P * b->N + b->lay_n[p][le], e, (size_t)n * sizeof *e);
    b->lay_n[p][le] += n;
}

/* LL: recv[parity][le][src][slot], n = recv_n. */
static void layout_ll(gshmem_moe_t *b, int p)
{
    moe_t *m = &b->m;
    int le, src, i;

    for (le = 0; le < b->L; le++)
        for (src = 0; src < b->P; src++) {
            int n = moe_recv_count(m, le, src);

            for (i = 0; i < n; i++) {
                moe_entry_t *e = &b->scratch[i];
                moe_hdr_t h;

                e->src = src, e->msg = moe_recv_msg(m, le, src, i);
                e->row = moe_expert_row(m, le, src, i);
                gshmemx_memcpy_from_device(&h, e->msg, sizeof h);
                e->token = h.token;
            }
            lay_append(b, p, le, b->scratch, n);
        }
}

/* Normal: every record from src lists the local experts it is for (low 16
 * bits of each selection word); its rows are expert_out[src][token][j].
 * One pass over the records, each appended to its experts' lists: src by
 * src, and within a src in token order, since stream (src, c) carries
 * channel c's tokens (a range below channel c + 1's) in the order src
 * packed them.  (One pass per expert read every record L times: as long as
 * the dispatch kernel at the cpu shape.)  Out of order all the same: sort. */
static int by_src_token(const void *a, const void *b)
{
    const moe_entry_t *x = (const moe_entry_t *)a, *y = (const moe_entry_t *)b;

    return x->src != y->src ? (x->src > y->src) - (x->src < y->src) : by_token(a, b);
}

static void layout_normal(gshmem_moe_t *b, int p)
{
    const moe_args_t *a = &b->m.a;
    const int C = a->streams, per = (b->N + C - 1) / C;
    const size_t pay = moe_payload_bytes(b->H, a->s.dtype);
    int le, src, c, r, j, unsorted = 0;

    for (src = 0; src < b->P; src++)
        for (c = 0; c < C; c++) {
            int nr = dev_i32(&a->b.rec_n[src * C + c]);

            for (r = 0; r < nr; r++) {
                int t = dev_i32(&a->b.rec_list[((size_t)src * C + c) * per + r]);
                const unsigned char *rec = a->b.rec + ((size_t)src * b->N + t) * a->drec, *msg;
                int32_t sel[MOE_MAX_TOPK];
                moe_hdr_t h;

                gshmemx_memcpy_from_device(&h, rec, sizeof h);
                gshmemx_memcpy_from_device(sel, rec + MOE_HDR_BYTES + pay,
                                           (size_t)h.reserved[0] * 4);
                msg = moe_nm_msg(&b->m, src, h.token, rec);
                for (j = 0; j < h.reserved[0]; j++) {
                    moe_entry_t *lst = b->lay[p] + (size_t)(sel[j] & 0xffff) * b->P * b->N;
                    int32_t *n = &b->lay_n[p][sel[j] & 0xffff];

                    if (*n > 0 && lst[*n - 1].src == src && lst[*n - 1].token > h.token)
                        unsorted = 1;
                    lst[*n].src = src, lst[*n].token = h.token;
                    lst[*n].msg = msg;
                    lst[*n].row =
                        a->b.expert_out +
                        (((size_t)src * b->N + (size_t)h.token) * a->sel_max + (size_t)j) * b->H;
                    ++*n;
                }
            }
        }
    for (le = 0; unsorted && le < b->L; le++)
        qsort(b->lay[p] + (size_t)le * b->P * b->N, (size_t)b->lay_n[p][le], sizeof(moe_entry_t),
              by_src_token);
}

/* topk_idx as the caller holds it: int32 (gshmem_moe_dispatch) or int64
 * (gshmem_moe_dispatch_i64, DeepEP's and torch's index type), read here
 * so that such a caller need not range-check and narrow a copy first. */
typedef struct routing {
    const void *idx;
    int wide; /* int64 */
} routing_t;

static int64_t route_at(routing_t r, size_t i)
{
    return r.wide ? ((const int64_t *)r.idx)[i] : (int64_t)((const int32_t *)r.idx)[i];
}

static int check_routing(const gshmem_moe_t *b, const char *fn, routing_t idx, int ntokens)
{
    int t, k, j;

    for (t = 0; t < ntokens; t++)
        for (k = 0; k < b->K; k++) {
            int64_t e = route_at(idx, (size_t)t * b->K + k);

            if (e < -1 || e >= b->cfg.num_experts)
                return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                                "topk_idx[%d][%d] = %lld is not -1 or an expert 0 to %d", t, k,
                                (long long)e, b->cfg.num_experts - 1);
            for (j = 0; j < k && e >= 0; j++)
                if (route_at(idx, (size_t)t * b->K + j) == e)
                    return moe_fail(
                        GSHMEM_MOE_ERR_INVALID, fn,
                        "token %d selects expert %lld twice (topk_idx[%d][%d] and [%d])", t,
                        (long long)e, t, j, k);
        }
    return 0;
}

/* Dispatch and combine are collective: a PE that refuses its arguments
 * (a routing past num_experts, a count out of range, a stale handle) must
 * not leave the others waiting for its tokens (issue 29, point 2).  So,
 * after its checks and before anything is sent, every PE says whether it
 * refused, in one max reduction over the world (the highest refusing PE
 * + 1, else 0), and if any did, every PE returns the error and none
 * sends: the buffer stays as it was, and the call can be made again.  The
 * refusing PE has said why; the others name it.  Dispatch votes with an
 * int and combine with a long reduction, so that a PE in one while its
 * peers are in the other is named by the reductions' own check instead of
 * the two pairing up.  A few microseconds on a call of milliseconds. */
static int moe_vote(gshmem_moe_t *b, const char *fn, int rc, int combine)
{
    const char *what = combine ? "combined" : "dispatched";
    int mine = rc ? shmem_my_pe() + 1 : 0, refused;

    if (combine) {
        b->cvote[0] = mine;
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, &b->cvote[1], &b->cvote[0], 1);
        refused = (int)b->cvote[1];
    } else {
        b->dvote[0] = mine;
        shmem_int_max_reduce(SHMEM_TEAM_WORLD, &b->dvote[1], &b->dvote[0], 1);
        refused = b->dvote[1];
    }
    if (refused == 0 || rc != 0)
        return rc;
    return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                    "PE %d refused its arguments (its own line says why), so no PE %s", refused - 1,
                    what);
}

int gshmem_moe_refuse(gshmem_moe_t *b, int combine)
{
    const char *fn = combine ? "gshmem_moe_combine" : "gshmem_moe_dispatch";

    if (!moe_live(b, "gshmem_moe_refuse"))
        return GSHMEM_MOE_ERR_INVALID;
    return moe_vote(b, fn, GSHMEM_MOE_ERR_INVALID, combine != 0);
}

static int dispatch(gshmem_moe_t *b, const char *fn, const uint16_t *x, routing_t topk_idx,
                    int ntokens, void *recv_x, float *recv_scales, int32_t *recv_count,
                    gshmem_moe_handle_t *handle)
{
    size_t rowb, vb;
    uint32_t in_flight;
    int fp8, p, le, r, rc;

    if (!moe_live(b, fn))
        return GSHMEM_MOE_ERR_INVALID;
    fp8 = b->cfg.format == GSHMEM_MOE_FP8;
    in_flight = b->cfg.mode == GSHMEM_MOE_LOW_LATENCY ? 2 : 1;
    if (ntokens < 0 || ntokens > b->N)
        rc = moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "ntokens %d is not 0 to max_tokens_per_pe %d",
                      ntokens, b->N);
    else if ((ntokens > 0 && (!x || !topk_idx.idx)) || !recv_count || !handle ||
             (fp8 && recv_x && !recv_scales))
        rc = moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                      "a NULL array (x, topk_idx, recv_count, handle, or recv_scales for fp8 "
                      "with recv_x)");
    else if (b->m.epoch_dispatch - b->combined >= in_flight)
        rc = moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                      "%u dispatches wait for their combine; %s mode allows %u",
                      b->m.epoch_dispatch - b->combined, in_flight == 2 ? "low-latency" : "normal",
                      in_flight);
    else
        rc = check_routing(b, fn, topk_idx, ntokens);
    if ((rc = moe_vote(b, fn, rc, 0)) != 0)
        return rc;

    p = (int)((b->m.epoch_dispatch + 1) & 1u);
    for (r = 0; r < b->N * b->K; r++)
        b->idx_host[r] = r < ntokens * b->K ? (int32_t)route_at(topk_idx, (size_t)r) : -1;
    b->m.a.b.idx = b->m.idx = b->idx[p];
    gshmemx_memcpy_to_device(b->idx[p], b->idx_host, (size_t)b->N * b->K * 4);
    b->m.a.live = ntokens;
    if (MOE_IN_PLACE)
        b->m.a.b.x = ntokens > 0 ? (moe_bf16_t *)(uintptr_t)x : b->m.x;
    else if (ntokens > 0)
        gshmemx_memcpy_to_device(b->m.a.b.x, x, (size_t)ntokens * b->H * 2);
    rc = moe_dispatch(&b->m);
    b->m.a.b.x = b->m.x;
    if (rc != 0)
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "the dispatch kernel did not run");

    memset(b->lay_n[p], 0, (size_t)b->L * 4);
    if (b->cfg.mode == GSHMEM_MOE_LOW_LATENCY)
        layout_ll(b, p);
    else
        layout_normal(b, p);

    vb = fp8 ? 1 : 2, rowb = (size_t)b->H * vb;
    for (le = 0; le < b->L; le++) {
        const moe_entry_t *e = b->lay[p] + (size_t)le * b->P * b->N;

        gshmem_moe_row_t *v = b->rows[p] + (size_t)le * b->P * b->N;

        recv_count[le] = b->lay_n[p][le];
        for (r = 0; r < b->lay_n[p][le]; r++) {
            size_t row = (size_t)le * b->P * b->N + (size_t)r;
            const unsigned char *pay = e[r].msg + MOE_HDR_BYTES;

            v[r].x = pay;
            v[r].scales = fp8 ? (const float *)(const void *)(pay + rowb) : NULL;
            v[r].y = e[r].row;
            if (!recv_x)
                continue; /* zero copy: the caller reads the rows in place */
            gshmemx_memcpy_from_device((unsigned char *)recv_x + row * rowb, pay, rowb);
            if (fp8)
                gshmemx_memcpy_from_device(recv_scales + row * (b->H / MOE_SCALE_BLOCK), pay + rowb,
                                           (size_t)(b->H / MOE_SCALE_BLOCK) * 4);
        }
    }
    handle->epoch = b->m.epoch_dispatch;
    handle->num_tokens = ntokens;
    handle->buffer = b->tag;
    b->sent[b->m.epoch_dispatch & 1u] = ntokens;
    return 0;
}

int gshmem_moe_dispatch(gshmem_moe_t *b, const uint16_t *x, const int32_t *topk_idx, int ntokens,
                        void *recv_x, float *recv_scales, int32_t *recv_count,
                        gshmem_moe_handle_t *handle)
{
    const routing_t r = {topk_idx, 0};

    return dispatch(b, "gshmem_moe_dispatch", x, r, ntokens, recv_x, recv_scales, recv_count,
                    handle);
}

int gshmem_moe_dispatch_i64(gshmem_moe_t *b, const uint16_t *x, const int64_t *topk_idx,
                            int ntokens, void *recv_x, float *recv_scales, int32_t *recv_count,
                            gshmem_moe_handle_t *handle)
{
    const routing_t r = {topk_idx, 1};

    return dispatch(b, "gshmem_moe_dispatch_i64", x, r, ntokens, recv_x, recv_scales, recv_count,
                    handle);
}

/* 0 when handle was made by b's own dispatch, else a line. */
static int own_handle(const gshmem_moe_t *b, const gshmem_moe_handle_t *handle, const char *fn)
{
    if (handle->buffer == b->tag)
        return 0;
    return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                    "the handle was made by another buffer's dispatch (tag %u, this buffer's %u)",
                    handle->buffer, b->tag);
}

/* combine's own checks of its arguments: 0, or a line. */
static int combine_check(const gshmem_moe_t *b, const char *fn, const float *topk_w,
                         const gshmem_moe_handle_t *handle, const uint16_t *out)
{
    int rc, n;

    if (handle == NULL)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "handle is NULL");
    if ((rc = own_handle(b, handle, fn)) != 0)
        return rc;
    if (handle->epoch != b->combined + 1 || handle->epoch > b->m.epoch_dispatch)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                        "handle of dispatch %u, but the next to combine is dispatch %u (of %u)",
                        handle->epoch, b->combined + 1, b->m.epoch_dispatch);
    n = handle->num_tokens;
    /* The staging below copies n rows: n is what the dispatch took. */
    if (n != b->sent[handle->epoch & 1u])
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn,
                        "handle says %d tokens, but dispatch %u took %d (a changed handle?)", n,
                        handle->epoch, b->sent[handle->epoch & 1u]);
    if (n > 0 && (!topk_w || !out))
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "a NULL array (topk_w or out)");
    return 0;
}

int gshmem_moe_combine(gshmem_moe_t *b, const uint16_t *expert_y, const float *topk_w,
                       const gshmem_moe_handle_t *handle, uint16_t *out)
{
    const char *fn = "gshmem_moe_combine";
    int p, le, r, n = 0, rc;

    if (!moe_live(b, fn))
        return GSHMEM_MOE_ERR_INVALID;
    if ((rc = combine_check(b, fn, topk_w, handle, out)) == 0)
        n = handle->num_tokens;
    if ((rc = moe_vote(b, fn, rc, 1)) != 0)
        return rc;

    p = (int)(handle->epoch & 1u);
    /* No expert_y: the outputs are in place already (gshmem_moe_expert_rows). */
    for (le = 0; expert_y && le < b->L; le++) {
        const moe_entry_t *e = b->lay[p] + (size_t)le * b->P * b->N;

        for (r = 0; r < b->lay_n[p][le]; r++)
            gshmemx_memcpy_to_device(e[r].row,
                                     expert_y + ((size_t)le * b->P * b->N + (size_t)r) * b->H,
                                     (size_t)b->H * 2);
    }
    memset(b->w_host, 0, (size_t)b->N * b->K * 4);
    if (n > 0)
        memcpy(b->w_host, topk_w, (size_t)n * b->K * 4);
    gshmemx_memcpy_to_device(b->m.a.b.w, b->w_host, (size_t)b->N * b->K * 4);
    b->m.a.b.idx = b->m.idx = b->idx[p];
    b->m.a.live = n;
    if (MOE_IN_PLACE && n > 0)
        b->m.a.b.out = out;
    rc = moe_combine(&b->m);
    b->m.a.b.out = b->m.out;
    if (rc != 0)
        return moe_fail(GSHMEM_MOE_ERR_FAILED, fn, "the combine kernel did not run");
    b->combined = handle->epoch;
    if (!MOE_IN_PLACE && n > 0)
        gshmemx_memcpy_from_device(out, b->m.a.b.out, (size_t)n * b->H * 2);
    return 0;
}

/* The call parity of a dispatch not yet combined: 0 and *p, or a line. */
static int live_dispatch(const gshmem_moe_t *b, const gshmem_moe_handle_t *handle, const char *fn,
                         int *p)
{
    if (!moe_live(b, fn))
        return GSHMEM_MOE_ERR_INVALID;
    if (handle == NULL || handle->epoch == 0 || handle->epoch <= b->combined ||
        handle->epoch > b->m.epoch_dispatch)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "no live dispatch for this handle");
    if (own_handle(b, handle, fn) != 0)
        return GSHMEM_MOE_ERR_INVALID;
    *p = (int)(handle->epoch & 1u);
    return 0;
}

int gshmem_moe_expert_rows(const gshmem_moe_t *b, const gshmem_moe_handle_t *handle, int le,
                           const gshmem_moe_row_t **rows, int *count)
{
    const char *fn = "gshmem_moe_expert_rows";
    int p, rc;

    if ((rc = live_dispatch(b, handle, fn, &p)) != 0)
        return rc;
    if (le < 0 || le >= b->L)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "local expert %d is not 0 to %d", le, b->L - 1);
    if (rows == NULL || count == NULL)
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "rows or count is NULL");
    *rows = b->rows[p] + (size_t)le * b->P * b->N;
    *count = b->lay_n[p][le];
    return 0;
}

int gshmem_moe_recv_source(const gshmem_moe_t *b, const gshmem_moe_handle_t *handle, int le, int r,
                           int *src_pe, int *src_token)
{
    const char *fn = "gshmem_moe_recv_source";
    const moe_entry_t *e;
    int p, rc;

    if ((rc = live_dispatch(b, handle, fn, &p)) != 0)
        return rc;
    if (le < 0 || le >= b->L || r < 0 || r >= b->lay_n[p][le])
        return moe_fail(GSHMEM_MOE_ERR_INVALID, fn, "row %d of local expert %d is out of range", r,
                        le);
    e = b->lay[p] + (size_t)le * b->P * b->N + r;
    *src_pe = e->src, *src_token = e->token;
    return 0;
}
