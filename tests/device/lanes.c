/*
 * tests/device/lanes.c - what a kernel sees of itself: gshmemx_thread_id,
 * _block_threads, _block_id, _grid_blocks, gshmem_my_pe and _n_pes in every
 * lane; gshmemx_syncthreads as a barrier of the block (rounds of write,
 * sync, read every other lane's write); the launch shapes 1 x 1, one
 * block, several blocks, a partial warp; and GSHMEM_LAUNCH called again
 * and again (the launcher's threads come and go cleanly).
 */
#include "dev_test.h"

#define ROUNDS 8

typedef struct lane_args {
    uint64_t *fails;
    uint64_t *seen;  /* [blocks * threads]: one word per lane */
    uint64_t *board; /* [blocks * threads]: the syncthreads rounds */
    unsigned blocks, threads;
    int me, npes;
} lane_args_t;

GSHMEM_KERNEL(lane_kernel, lane_args_t, a)
{
    unsigned t = gshmemx_thread_id(), b = gshmemx_block_id(), nt = gshmemx_block_threads();
    uint64_t *mine = a.board + (size_t)b * nt;
    unsigned r, i;

    DT_CHECK(a.fails, "gshmemx_block_threads", "in block", b, a.threads, nt);
    DT_CHECK(a.fails, "gshmemx_grid_blocks", "in block", b, a.blocks, gshmemx_grid_blocks());
    DT_CHECK_TRUE(a.fails, "gshmemx_thread_id", "is below block_threads, in block", b, t < nt);
    DT_CHECK_TRUE(a.fails, "gshmemx_block_id", "is below grid_blocks, thread", t,
                  b < gshmemx_grid_blocks());
    DT_CHECK(a.fails, "gshmem_my_pe", "in lane", b * nt + t, a.me, gshmem_my_pe());
    DT_CHECK(a.fails, "gshmem_n_pes", "in lane", b * nt + t, a.npes, gshmem_n_pes());
    /* every (block, thread) runs exactly once */
    gsd_fetch_add(&a.seen[(size_t)b * nt + t], 1);

    for (r = 1; r <= ROUNDS; r++) {
        mine[t] = (uint64_t)r << 32 | t;
        gshmemx_syncthreads();
        for (i = 0; i < nt; i++)
            if (mine[i] != ((uint64_t)r << 32 | i))
                DT_CHECK(a.fails, "gshmemx_syncthreads",
                         "another lane's write (round*4096+lane)", r * 4096 + i,
                         (uint64_t)r << 32 | i, mine[i]);
        gshmemx_syncthreads(); /* nobody writes round r + 1 before all read round r */
    }
}

int main(void)
{
    static const unsigned shape[][2] = {{1, 1}, {1, 32}, {1, 48}, {2, 16}, {3, 5}, {2, 64}};
    unsigned s, rep, i;
    lane_args_t a;

    dt_start();
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.seen = (uint64_t *)dt_malloc(128 * sizeof(uint64_t));
    a.board = (uint64_t *)dt_malloc(128 * sizeof(uint64_t));
    for (s = 0; s < sizeof shape / sizeof shape[0]; s++)
        for (rep = 0; rep < 3; rep++) {
            unsigned n = shape[s][0] * shape[s][1];
            uint64_t h[128];

            if (dt_npes > 2 && n > 64)
                continue; /* 4 PEs x 64 lanes at most */
            a.blocks = shape[s][0];
            a.threads = shape[s][1];
            dt_fill(a.seen, 0, 128 * sizeof(uint64_t));
            DT_LAUNCH(lane_kernel, a.blocks, a.threads, a);
            dt_from_dev(h, a.seen, sizeof h);
            for (i = 0; i < 128; i++)
                PT_CHECK_EQ_F("GSHMEM_LAUNCH", i < n ? 1 : 0, h[i],
                              "runs of lane %u of a %u x %u launch", i, a.blocks, a.threads);
        }
    shmem_barrier_all();
    gshmem_free(a.board);
    gshmem_free(a.seen);
    return dt_finish();
}
