/*
 * moe.c - the host side of the MoE library: buffers (symmetric, from
 * gshmem_calloc), the launch shape, and the calls that pick the mode.
 */
#include "moe.h"

#include <stdio.h>
#include <stdlib.h>

/* moe_ll.c, moe_normal.c */
int moe_ll_dispatch(moe_t *m);
int moe_ll_expert(moe_t *m);
int moe_ll_combine(moe_t *m);
int moe_nm_dispatch(moe_t *m);
int moe_nm_expert(moe_t *m);
int moe_nm_combine(moe_t *m);
void moe_default_launch(moe_mode_t mode, unsigned *blocks, unsigned *threads);
int moe_quiet(void);

#define MOE_MAX_WARPS 8192

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 0) : fallback;
}

/* Zeroed symmetric memory; every PE makes the same calls (collective). */
static void *moe_alloc(moe_t *m, size_t bytes, int *failed)
{
    void *p;

    if (*failed)
        return NULL;
    if (m->n_allocs == (int)(sizeof m->allocs / sizeof m->allocs[0])) {
        fprintf(stderr, "moe: too many buffers (moe_t.allocs)\n");
        *failed = 1;
        return NULL;
    }
    p = gshmem_calloc(1, bytes ? bytes : 8);
    if (p == NULL) {
        fprintf(stderr,
                "moe: PE %d: gshmem_calloc(%zu) failed: the symmetric heap is too small "
                "(SHMEM_SYMMETRIC_SIZE)\n",
                shmem_my_pe(), bytes);
        *failed = 1;
        return NULL;
    }
    m->allocs[m->n_allocs++] = p;
    return p;
}

static int moe_check_shape(const moe_shape_t *s)
{
    const char *why = NULL;

    if (s->tokens < 1)
        why = "tokens must be at least 1";
    else if (s->hidden < MOE_SCALE_BLOCK || s->hidden % MOE_SCALE_BLOCK)
        why = "hidden must be a positive multiple of 128";
    else if (s->topk < 1 || s->topk > MOE_MAX_TOPK)
        why = "topk must be 1 to 32";
    else if (s->npes < 1 || s->experts < s->npes || s->experts % s->npes)
        why = "experts must be a positive multiple of the PE count";
    if (why)
        fprintf(stderr, "moe: bad shape: %s\n", why);
    return why ? -1 : 0;
}

int moe_init(moe_t *m, const moe_shape_t *s, moe_mode_t mode)
{
    const size_t N = (size_t)s->tokens, H = (size_t)s->hidden, K = (size_t)s->topk;
    const size_t E = (size_t)s->experts, P = (size_t)s->npes, L = E / (s->npes ? P : 1);
    moe_bufs_t *b = &m->a.b;
    int failed = 0;
    unsigned warps;

    memset(m, 0, sizeof *m);
    if (moe_check_shape(s))
        return -1;
    m->mode = mode;
    m->a.s = *s;
    m->a.my_pe = shmem_my_pe();
    m->a.local_experts = (int)L;
    m->a.msg = moe_msg_bytes(s->hidden, s->dtype);

    moe_default_launch(mode, &m->blocks, &m->threads);
    m->blocks = (unsigned)env_long("MOE_BLOCKS", m->blocks);
    m->threads = (unsigned)env_long("MOE_THREADS", m->threads);
    warps = m->blocks * ((m->threads + 31) / 32);
    if (m->blocks < 1 || m->threads < 1 || warps > MOE_MAX_WARPS) {
        fprintf(stderr, "moe: bad launch shape %u x %u\n", m->blocks, m->threads);
        return -1;
    }
    if (m->threads > MOE_MAX_THREADS) {
        fprintf(stderr,
                "moe: bad launch shape %u x %u: more threads than the kernels' launch bound %d\n",
                m->blocks, m->threads, MOE_MAX_THREADS);
        return -1;
    }

    b->x = (moe_bf16_t *)moe_alloc(m, N * H * 2, &failed);
    b->idx = (int32_t *)moe_alloc(m, N * K * 4, &failed);
    b->w = (float *)moe_alloc(m, N * K * 4, &failed);
    b->out = (moe_bf16_t *)moe_alloc(m, N * H * 2, &failed);
    /* LL: by call parity, as recv is (moe_ll.c says why) */
    b->send = (unsigned char *)moe_alloc(m, (mode == MOE_LL ? 2 : 1) * N * m->a.msg, &failed);
    b->done = (uint32_t *)moe_alloc(m, 16 * sizeof(uint32_t), &failed);
    b->warp_word = (uint64_t *)moe_alloc(m, (size_t)warps * 8, &failed);

    m->a.push = env_long("MOE_PUSH", 0) != 0;
#if defined(__CUDACC__)
    m->a.pull = 0; /* a GPU expert reads its own memory: dispatch pushes over NVLink */
#else
    m->a.pull = !m->a.push; /* host lanes: one memory, so a copy only moves bytes */
#endif
    m->a.live = s->tokens;
    if (mode == MOE_LL) {
        b->recv = (unsigned char *)moe_alloc(m, 2 * L * P * N * m->a.msg, &failed);
        b->recv_tok = (int32_t *)moe_alloc(m, 2 * L * P * N * 4, &failed);
        b->recv_sig = (uint64_t *)moe_alloc(m, 2 * L * P * 8, &failed);
        b->recv_arrive = (uint64_t *)moe_alloc(m, 2 * L * P * 8, &failed);
        b->comb_recv = (moe_bf16_t *)moe_alloc(m, 2 * E * N * H * 2, &failed);
        b->comb_arrive = (uint64_t *)moe_alloc(m, 2 * P * 8, &failed);
        b->expert_out = (moe_bf16_t *)moe_alloc(m, 2 * L * P * N * H * 2, &failed);
        b->slot_of = (int32_t *)moe_alloc(m, 2 * N * K * 4, &failed);
        b->recv_n = (int32_t *)moe_alloc(m, 2 * L * P * 4, &failed);
        b->recv_cum = (uint64_t *)moe_alloc(m, 2 * L * P * 8, &failed);
        b->comb_cum = (uint64_t *)moe_alloc(m, 2 * P * 8, &failed);
        b->slot_ctr = (uint32_t *)moe_alloc(m, E * 4, &failed);
        b->sent_pe = (uint32_t *)moe_alloc(m, 2 * P * 4, &failed);
    } else {
        size_t C, S, J;

        m->a.streams = (int)env_long("MOE_STREAMS", 4);
        m->a.ring_slots = (int)env_long("MOE_RING_SLOTS", 64);
        m->a.chunk = (int)env_long("MOE_CHUNK", 8);
        if (m->a.streams < 1 || m->a.ring_slots < 1 || m->a.chunk < 1 ||
            m->a.chunk > m->a.ring_slots) {
            fprintf(stderr, "moe: bad MOE_STREAMS / MOE_RING_SLOTS / MOE_CHUNK\n");
            return -1;
        }
        if (m->a.streams > s->tokens)
            m->a.streams = s->tokens;
        C = (size_t)m->a.streams, S = (size_t)m->a.ring_slots;
        J = K < L ? K : L;
        m->a.sel_max = (int)J;
        m->a.drec = moe_align16(MOE_HDR_BYTES + moe_payload_bytes(s->hidden, s->dtype) + 4 * K);
        m->a.crec = moe_align16(MOE_HDR_BYTES + moe_comb_bytes(s->hidden));
        b->d_ring = (unsigned char *)moe_alloc(m, P * C * S * m->a.drec, &failed);
        b->d_tail = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->d_fin = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->d_head = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->d_ack = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->d_stage = (unsigned char *)moe_alloc(m, P * C * S * m->a.drec, &failed);
        b->c_ring = (unsigned char *)moe_alloc(m, P * C * S * m->a.crec, &failed);
        b->c_tail = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->c_head = (uint64_t *)moe_alloc(m, P * C * 8, &failed);
        b->c_ready = (uint64_t *)moe_alloc(m, P * 8, &failed);
        b->c_stage = (unsigned char *)moe_alloc(m, P * C * S * m->a.crec, &failed);
        b->cnt = (uint64_t *)moe_alloc(m, 4 * P * C * 8, &failed);
        b->rec = (unsigned char *)moe_alloc(m, P * N * m->a.drec, &failed);
        b->rec_list = (int32_t *)moe_alloc(m, P * C * ((N + C - 1) / C) * 4, &failed);
        b->rec_n = (int32_t *)moe_alloc(m, P * C * 4, &failed);
        b->comb_rows = (moe_bf16_t *)moe_alloc(m, N * K * H * 2, &failed);
        b->expert_out = (moe_bf16_t *)moe_alloc(m, P * N * J * H * 2, &failed);
        b->st = (moe_stream_t *)moe_alloc(m, 2 * P * C * sizeof(moe_stream_t), &failed);
    }
    if (failed) {
        moe_fini(m);
        return -1;
    }
    m->x = b->x, m->out = b->out, m->idx = b->idx, m->w = b->w;
    return 0;
}

/* The last calls' signals may still be in a proxy channel (a receiver's
 * credit, on its way to the sender): they must land before any PE frees,
 * or one lands in what the next allocation holds.  Every PE quiets, then
 * gshmem_free's barrier. */
void moe_fini(moe_t *m)
{
    if (m->n_allocs > 0 && moe_quiet() != 0)
        fprintf(stderr, "moe: the quiet kernel did not run; freeing anyway\n");
    while (m->n_allocs > 0)
        gshmem_free(m->allocs[--m->n_allocs]);
}

int moe_dispatch(moe_t *m)
{
    return m->mode == MOE_LL ? moe_ll_dispatch(m) : moe_nm_dispatch(m);
}
int moe_expert_toy(moe_t *m)
{
    return m->mode == MOE_LL ? moe_ll_expert(m) : moe_nm_expert(m);
}
int moe_combine(moe_t *m)
{
    return m->mode == MOE_LL ? moe_ll_combine(m) : moe_nm_combine(m);
}

/* ---- what dispatch delivered (host side, for tests and examples) -------- */

static int32_t dev_i32(const int32_t *p)
{
    int32_t v;
    gshmemx_memcpy_from_device(&v, p, sizeof v);
    return v;
}

static size_t ll_i3(const moe_t *m, int le, int src)
{
    return ((size_t)(m->epoch_dispatch & 1u) * (size_t)m->a.local_experts + (size_t)le) *
               (size_t)m->a.s.npes +
           (size_t)src;
}

/* Normal mode: the i-th record from src that selects local expert le, and
 * the position of le in its selection list. */
static const unsigned char *nm_find(moe_t *m, int le, int src, int i, int *j_out)
{
    const moe_args_t *a = &m->a;
    const int C = a->streams, per = (a->s.tokens + C - 1) / C;
    int c, r, j;

    for (c = 0; c < C; c++) {
        int n = dev_i32(&a->b.rec_n[src * C + c]);
        for (r = 0; r < n; r++) {
            int t = dev_i32(&a->b.rec_list[((size_t)src * C + c) * per + r]);
            const unsigned char *rec = a->b.rec + ((size_t)src * a->s.tokens + t) * a->drec;
            const int32_t *sel = (const int32_t *)(rec + MOE_HDR_BYTES +
                                                   moe_payload_bytes(a->s.hidden, a->s.dtype));
            moe_hdr_t h;

            gshmemx_memcpy_from_device(&h, rec, sizeof h);
            for (j = 0; j < h.reserved[0]; j++)
                if ((dev_i32(&sel[j]) & 0xffff) == le && i-- == 0) {
                    if (j_out)
                        *j_out = j;
                    return rec;
                }
        }
    }
    return NULL;
}

/* moe_dev.h's moe_pulled_send, for the host side. */
static const unsigned char *pulled_send(const moe_t *m, int src)
{
    return m->a.pull ? (const unsigned char *)gshmem_ptr(m->a.b.send, src) : NULL;
}

const unsigned char *moe_nm_msg(const moe_t *m, int src, int t, const unsigned char *rec)
{
    const unsigned char *send = pulled_send(m, src);

    return send ? send + (size_t)t * m->a.msg : rec; /* pulled: moe_normal.c, nm_payload */
}

int moe_recv_count(moe_t *m, int le, int src)
{
    int n = 0;

    if (m->mode == MOE_LL)
        return dev_i32(&m->a.b.recv_n[ll_i3(m, le, src)]);
    while (nm_find(m, le, src, n, NULL))
        n++;
    return n;
}

const unsigned char *moe_recv_msg(moe_t *m, int le, int src, int i)
{
    const moe_args_t *a = &m->a;

    if (m->mode == MOE_LL) {
        size_t at = ll_i3(m, le, src) * (size_t)a->s.tokens + (size_t)i;
        const unsigned char *send = pulled_send(m, src);

        if (send) /* pulled: the message is where src packed it (moe_ll.c, ll_msg) */
            return send + ((size_t)(m->epoch_dispatch & 1u) * (size_t)a->s.tokens +
                           (size_t)dev_i32(&a->b.recv_tok[at])) *
                              a->msg;
        return a->b.recv + at * a->msg;
    }
    {
        const unsigned char *rec = nm_find(m, le, src, i, NULL);
        moe_hdr_t h;

        if (rec == NULL)
            return NULL;
        gshmemx_memcpy_from_device(&h, rec, sizeof h);
        return moe_nm_msg(m, src, h.token, rec);
    }
}

moe_bf16_t *moe_expert_row(moe_t *m, int le, int src, int i)
{
    const moe_args_t *a = &m->a;
    const size_t H = (size_t)a->s.hidden;

    if (m->mode == MOE_LL)
        return a->b.expert_out + ((ll_i3(m, le, src)) * a->s.tokens + (size_t)i) * H;
    {
        int j;
        const unsigned char *rec = nm_find(m, le, src, i, &j);
        moe_hdr_t h;

        if (rec == NULL)
            return NULL;
        gshmemx_memcpy_from_device(&h, rec, sizeof h);
        return a->b.expert_out +
               (((size_t)src * a->s.tokens + (size_t)h.token) * (size_t)a->sel_max + (size_t)j) * H;
    }
}
