/*
 * tests/device/barrier3_order.c - device barriers order data across every
 * PE, on 3 and 4 PEs, where the dissemination barrier tells a PE of some
 * arrivals only through another PE (with 4, PE x hears of x - 3 only
 * through x - 2's round-1 add).  Many rounds of: every participating lane
 * writes a word of this round into every PE (itself included), the group
 * calls the barrier, and every lane checks that every other PE's words of
 * this round are there.  A barrier whose arrivals do not carry what their
 * PE saw before (issue 17, #8: round k+1's add must be release-ordered)
 * lets a PE read a word of the last round.
 *
 * Forms: the thread, warp and block barrier_all, barrier(TEAM_WORLD) and,
 * over load/store only (a sync orders but does not complete proxy puts),
 * sync_all and team_sync.  Words alternate between two buffers, so one
 * barrier per round is enough: round r + 2 rewrites r's buffer only after
 * barrier r + 1, which every PE reaches only once it has checked round r.
 *
 * Host lanes are x86 threads, where a relaxed add is already ordered, so
 * here this catches barriers that do not order at all or proxy rounds that
 * complete late; the PTX ordering itself is compiled, not run.
 */
#include "dev_test.h"

#define MAXPE 8
#define MAXLANES 48

enum { F_THREAD, F_WARP, F_BLOCK, N_FORMS };
enum { K_BARRIER_ALL, K_BARRIER, K_SYNC_ALL, K_TEAM_SYNC, N_KINDS };

typedef struct bar_args {
    uint64_t *fails;
    uint64_t *buf; /* [2][MAXPE][MAXLANES] */
    int form, kind, rounds, npes;
} bar_args_t;

static const char *const kind_name[N_KINDS] = {"barrier_all", "barrier(TEAM_WORLD)", "sync_all",
                                               "team_sync(TEAM_WORLD)"};

/* What lane `lane` of PE pe writes in round r: never 0, never a neighbour's. */
DT_HD uint64_t word(int r, int pe, unsigned lane)
{
    return (uint64_t)r * 1000003u + (uint64_t)pe * 1009u + lane + 1u;
}

DT_NOINL void one_barrier(int form, int kind)
{
    switch (kind) {
    case K_BARRIER_ALL:
        if (form == F_THREAD)
            gshmem_barrier_all();
        else if (form == F_WARP)
            gshmemx_barrier_all_warp();
        else
            gshmemx_barrier_all_block();
        break;
    case K_BARRIER:
        if (form == F_THREAD)
            gshmem_barrier(GSHMEM_TEAM_WORLD);
        else if (form == F_WARP)
            gshmemx_barrier_warp(GSHMEM_TEAM_WORLD);
        else
            gshmemx_barrier_block(GSHMEM_TEAM_WORLD);
        break;
    case K_SYNC_ALL:
        if (form == F_THREAD)
            gshmem_sync_all();
        else if (form == F_WARP)
            gshmemx_sync_all_warp();
        else
            gshmemx_sync_all_block();
        break;
    default:
        if (form == F_THREAD)
            gshmem_team_sync(GSHMEM_TEAM_WORLD);
        else if (form == F_WARP)
            gshmemx_team_sync_warp(GSHMEM_TEAM_WORLD);
        else
            gshmemx_team_sync_block(GSHMEM_TEAM_WORLD);
        break;
    }
}

GSHMEM_KERNEL(bar_kernel, bar_args_t, a)
{
    unsigned k = gshmemx_thread_id(), nk = gshmemx_block_threads();
    /* The lanes that call the barrier, and write before it. */
    unsigned group = a.form == F_THREAD ? 1u : a.form == F_WARP ? (nk < 32u ? nk : 32u) : nk;
    int me = gshmem_my_pe(), r, q;
    unsigned l;

    for (r = 1; r <= a.rounds; r++) {
        uint64_t *b = a.buf + (size_t)(r & 1) * MAXPE * MAXLANES;

        if (k < group) {
            for (q = 0; q < a.npes; q++)
                gshmem_uint64_p(&b[me * MAXLANES + k], word(r, me, k), (me + q + 1) % a.npes);
            one_barrier(a.form, a.kind);
        }
        /* Every lane checks what the other PEs wrote before their barrier. */
        gshmemx_syncthreads();
        for (q = 0; q < a.npes; q++)
            for (l = k; l < group; l += nk)
                if (b[q * MAXLANES + l] != word(r, q, l))
                    DT_CHECK(a.fails, "gshmem barrier: another PE's word after it",
                             "round*100000+form*10000+kind*1000+pe*100+lane",
                             r * 100000 + a.form * 10000 + a.kind * 1000 + q * 100 + (int)l,
                             word(r, q, l), b[q * MAXLANES + l]);
        gshmemx_syncthreads();
    }
}

int main(void)
{
    bar_args_t a;
    int rounds = dt_proxy_mode() ? 64 : 100;

    dt_start();
    if (dt_npes > MAXPE)
        return pt_skip("more PEs than the test's tables hold");
    a.fails = dt_fails;
    a.npes = dt_npes;
    a.rounds = rounds;
    a.buf = (uint64_t *)dt_malloc(2 * MAXPE * MAXLANES * sizeof(uint64_t));
    for (a.kind = 0; a.kind < N_KINDS; a.kind++) {
        /* A sync only orders: proxy puts before it may still be in flight. */
        if (dt_proxy_mode() && (a.kind == K_SYNC_ALL || a.kind == K_TEAM_SYNC))
            continue;
        for (a.form = 0; a.form < N_FORMS; a.form++) {
            dt_fill(a.buf, 0, 2 * MAXPE * MAXLANES * sizeof(uint64_t));
            shmem_barrier_all(); /* every PE's buffer is reset */
            DT_LAUNCH(bar_kernel, 1, dt_threads(), a);
            if (pt_me == 0 && getenv("BARRIER3_VERBOSE"))
                fprintf(stderr, "barrier3: %s, form %d: %d rounds\n", kind_name[a.kind], a.form,
                        a.rounds);
        }
    }
    return dt_finish();
}
