/* src/gpu/lanes.c - the host-lane launcher: a "kernel" of grid x block lanes
 * runs as that many host threads of this PE, all at once (they may wait for
 * each other), each knowing its thread and block indices through
 * gshmemi_lane_self (device/gsd/arch.h).
 *
 * Threads are pooled: a launch wakes the first n pooled threads (creating
 * more when the pool is smaller) and waits until each has run the kernel.
 * A second launch while one runs (another host thread of the PE) runs on
 * threads of its own.
 *
 * Block and warp barriers count arrivals and flip a generation word: a
 * waiter polls a few times, then yields, then sleeps on the word (futex),
 * so hundreds of lanes over a few cores still make progress. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gpu/lanes.h"
#include "base/log.h"
#include "core/liveness.h"
#include "core/pe.h"
#include "core/wait.h"

#pragma GCC visibility push(default)
#include "gsd/arch.h"
#include "gsd/fatal.h"
#include "gsd/kernel.h"
#include "gsd/region.h"
#pragma GCC visibility pop

#define GSHMEM_LANES_MAX 4096 /* threads of one launch, over all its blocks */
#define LANE_STACK (1u << 20) /* bytes of stack per lane */
#define BAR_SPIN 64           /* barrier polls before yielding */
#define BAR_YIELDS 8          /* yields before sleeping on the futex */

static const char launch_fn[] = "gshmemx_hostlane_launch";

__attribute__((visibility("default"))) __thread gsd_lane_t *gshmemi_lane_self;
__attribute__((visibility("default"))) __thread uint64_t gshmemi_lane_any_next;

/* ---- barriers ------------------------------------------------------------- */

typedef struct lane_bar {
    _Alignas(64) unsigned n; /* lanes that meet here */
    unsigned arrived;
    unsigned gen; /* bumped by the last arrival; the futex word */
    unsigned sleepers;
} lane_bar_t;

struct gsd_lane_block {
    lane_bar_t bar;      /* the block's */
    lane_bar_t *warp;    /* [warps] */
    lane_bar_t *wgroup;  /* [warpgroups] */
    gsd_region_t region; /* the block's RMA region (gsd/region.h); zero at launch */
};

/* A host thread's own RMA region (gsd/region.h); a lane uses its block's. */
static __thread gsd_region_t host_region;
static uint64_t region_handles;

__attribute__((visibility("default"))) gsd_region_t *gshmemi_region_self(void)
{
    return gshmemi_lane_self ? &gshmemi_lane_self->block->region : &host_region;
}

__attribute__((visibility("default"))) uint64_t gshmemi_region_next(void)
{
    return __atomic_add_fetch(&region_handles, 1, __ATOMIC_RELAXED);
}

static void lane_in_bar(int in);
static void lane_napped(unsigned polls);

static void bar_wait(lane_bar_t *b)
{
    unsigned gen, polls = 0;

    if (b->n <= 1) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == b->n) {
        __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->gen, gen + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
            syscall(SYS_futex, &b->gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
        return;
    }
    while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) {
        if (++polls <= BAR_SPIN) {
            gsi_cpu_relax();
        } else if (polls <= BAR_SPIN + BAR_YIELDS) {
            sched_yield();
        } else {
            __atomic_add_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
            lane_in_bar(1);
            /* Returns at once when gen has moved on already. */
            syscall(SYS_futex, &b->gen, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
            lane_in_bar(0);
            __atomic_sub_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
        }
    }
}

void gshmemi_lane_syncthreads(void)
{
    gsd_lane_t *l = gshmemi_lane_self;

    if (!l || !l->block) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    bar_wait(&l->block->bar);
}

void gshmemi_lane_syncwarp(void)
{
    gsd_lane_t *l = gshmemi_lane_self;

    if (!l || !l->block) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    bar_wait(&l->block->warp[l->tid / GSD_WARP_SIZE]);
}

void gshmemi_lane_syncwarpgroup(void)
{
    gsd_lane_t *l = gshmemi_lane_self;

    if (!l || !l->block) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    bar_wait(&l->block->wgroup[l->tid / GSD_WARPGROUP_SIZE]);
}

uint64_t gshmemi_lane_clock_ns(void)
{
    return gsi_now_ns();
}

void gshmemi_lane_progress(void)
{
    if (gsi_pe.net_progress)
        gsi_pe.net_progress();
}

void gshmemi_lane_nap(unsigned polls)
{
    struct timespec ts = {0, 10000};

    lane_napped(polls);
    nanosleep(&ts, NULL);
}

void gshmemi_lane_fatal(const char *fn, const char *fmt, ...)
{
    char msg[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    gsi_fatal(fn, "%s", msg);
}

/* ---- one launch ------------------------------------------------------------ */

typedef struct launch {
    gshmemx_kernel_fn_t fn;
    void **args;
    unsigned remaining; /* lanes still running */
    sem_t done;         /* posted by the last lane */
} launch_t;

typedef struct lane_worker {
    pthread_t thread;
    sem_t go;
    int quit;
    gsd_lane_t lane;
    launch_t *job;
    /* The stuck watch's view of the lane (written by the lane, read by the
     * launching thread): waits counts the device waits that reached a nap,
     * nap_ns is the last nap's time, in_bar says it sleeps in a block or
     * warp barrier, done that it has returned from the kernel. */
    uint64_t waits, nap_ns;
    int in_bar, done;
} lane_worker_t;

/* The worker running on this thread, NULL on others. */
static lane_worker_t *self_worker(void)
{
    gsd_lane_t *l = gshmemi_lane_self;

    return l ? (lane_worker_t *)(void *)((char *)l - offsetof(lane_worker_t, lane)) : NULL;
}

static void lane_in_bar(int in)
{
    lane_worker_t *w = self_worker();

    if (w)
        __atomic_store_n(&w->in_bar, in, __ATOMIC_RELAXED);
}

/* A new wait at its first nap, and when the lane last napped (its wait
 * goes on): what the stuck watch below reads. */
static void lane_napped(unsigned polls)
{
    lane_worker_t *w = self_worker();

    if (!w)
        return;
    if (polls == GSD_PAUSE_FIRST_NAP)
        __atomic_add_fetch(&w->waits, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&w->nap_ns, gsi_now_ns(), __ATOMIC_RELAXED);
}

/* ---- the stuck watch ------------------------------------------------------ */

/* Failure propagation (src/core/liveness.c) watches the waits of the init
 * thread.  While a kernel runs on host lanes that thread only waits for the
 * lanes, and counts as busy (gsi_pe.live_busy): a kernel whose lanes all
 * wait for a peer that finalized or died would hang until the device wait
 * timeout (issue 29).  So the launching thread looks at its lanes every
 * WATCH_NS: when every lane still running has napped in a device wait in
 * the last STUCK_NS (or sleeps in a block barrier, waiting for those), and
 * none has begun a new wait since the last look, the kernel can only move
 * when a peer does, and the thread takes part in failure propagation as a
 * waiter in the launch; any new wait or a lane that stops napping makes it
 * busy again. */
#define WATCH_NS (50 * 1000000ull)
#define STUCK_NS (50 * 1000000ull)

/* Whether the n lanes (pw[i], or arr[i] when pw is NULL) are stuck, and
 * the sum of their wait counts in *sig. */
static int lanes_stuck(lane_worker_t *const *pw, lane_worker_t *arr, unsigned n, uint64_t now,
                       uint64_t *sig)
{
    unsigned waiting = 0;

    *sig = 0;
    for (unsigned i = 0; i < n; i++) {
        lane_worker_t *w = pw ? pw[i] : &arr[i];
        uint64_t nap = __atomic_load_n(&w->nap_ns, __ATOMIC_RELAXED);

        if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&w->in_bar, __ATOMIC_RELAXED))
            continue;
        /* Signed: a lane may nap after now was read, and that nap is
         * fresh, not 584 years old. */
        if (nap == 0 || (int64_t)(now - nap) > (int64_t)STUCK_NS)
            return 0;
        *sig += __atomic_load_n(&w->waits, __ATOMIC_RELAXED);
        waiting++;
    }
    return waiting > 0;
}

/* Wait until the launch's lanes are done, under the stuck watch. */
static void wait_lanes(launch_t *job, lane_worker_t *const *pw, lane_worker_t *arr, unsigned n)
{
    static const char what[] = "its kernel, whose lanes all wait in device waits";
    uint64_t sig = 0, cur;
    int watching = 0;

    for (;;) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)WATCH_NS;
        if (ts.tv_nsec >= 1000000000L)
            ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        if (sem_timedwait(&job->done, &ts) == 0)
            break;
        if (errno != ETIMEDOUT)
            continue; /* EINTR */
        uint64_t now = gsi_now_ns();

        if (!lanes_stuck(pw, arr, n, now, &cur)) {
            if (watching)
                __atomic_add_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
            watching = 0;
            continue;
        }
        if (!watching)
            __atomic_sub_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
        gsi_live_check(now, !watching || cur != sig, 1, launch_fn, what);
        watching = 1, sig = cur;
    }
    if (watching)
        __atomic_add_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
}

static void run_lane(lane_worker_t *w)
{
    launch_t *job = w->job;

    gshmemi_lane_self = &w->lane;
    job->fn(job->args);
    gshmemi_lane_self = NULL;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    if (__atomic_sub_fetch(&job->remaining, 1, __ATOMIC_ACQ_REL) == 0)
        sem_post(&job->done);
}

static void *pooled_main(void *arg)
{
    lane_worker_t *w = arg;

    for (;;) {
        while (sem_wait(&w->go) != 0)
            ;
        if (__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE))
            return NULL;
        run_lane(w);
    }
}

static void *single_main(void *arg)
{
    run_lane(arg);
    return NULL;
}

static int start_thread(lane_worker_t *w, void *(*main_fn)(void *))
{
    pthread_attr_t attr;
    int rc;

    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, LANE_STACK);
    rc = pthread_create(&w->thread, &attr, main_fn, w);
    pthread_attr_destroy(&attr);
    return rc;
}

/* The lane record of flat lane i of the launch. */
static void set_lane(gsd_lane_t *l, unsigned i, gshmemx_dim3_t grid, gshmemx_dim3_t block,
                     struct gsd_lane_block *blocks)
{
    unsigned ntid = block.x * block.y * block.z, tid = i % ntid, bid = i / ntid;

    memset(l, 0, sizeof(*l));
    l->tid = tid;
    l->ntid = ntid;
    l->bid = bid;
    l->nbid = grid.x * grid.y * grid.z;
    l->tid3[0] = tid % block.x;
    l->tid3[1] = tid / block.x % block.y;
    l->tid3[2] = tid / (block.x * block.y);
    l->ntid3[0] = block.x, l->ntid3[1] = block.y, l->ntid3[2] = block.z;
    l->bid3[0] = bid % grid.x;
    l->bid3[1] = bid / grid.x % grid.y;
    l->bid3[2] = bid / (grid.x * grid.y);
    l->nbid3[0] = grid.x, l->nbid3[1] = grid.y, l->nbid3[2] = grid.z;
    l->block = &blocks[bid];
}

/* Barriers of every block, warp and warpgroup: one array, each block's
 * warps' barriers followed by its warpgroups'. */
static struct gsd_lane_block *make_blocks(unsigned nbid, unsigned ntid)
{
    unsigned warps = (ntid + GSD_WARP_SIZE - 1) / GSD_WARP_SIZE;
    unsigned groups = (ntid + GSD_WARPGROUP_SIZE - 1) / GSD_WARPGROUP_SIZE;
    size_t per = (size_t)warps + groups;
    struct gsd_lane_block *blocks = calloc(nbid, sizeof(*blocks));
    lane_bar_t *bars;

    if (!blocks)
        return NULL;
    if (posix_memalign((void **)&bars, 64, (size_t)nbid * per * sizeof(*bars)) != 0) {
        free(blocks);
        return NULL;
    }
    memset(bars, 0, (size_t)nbid * per * sizeof(*bars));
    for (unsigned b = 0; b < nbid; b++) {
        blocks[b].bar.n = ntid;
        blocks[b].warp = &bars[(size_t)b * per];
        blocks[b].wgroup = blocks[b].warp + warps;
        for (unsigned w = 0; w < warps; w++) {
            unsigned first = w * GSD_WARP_SIZE;

            blocks[b].warp[w].n = ntid - first < GSD_WARP_SIZE ? ntid - first : GSD_WARP_SIZE;
        }
        for (unsigned g = 0; g < groups; g++) {
            unsigned first = g * GSD_WARPGROUP_SIZE;

            blocks[b].wgroup[g].n = ntid - first < GSD_WARPGROUP_SIZE ? ntid - first
                                                                      : GSD_WARPGROUP_SIZE;
        }
    }
    return blocks;
}

static void free_blocks(struct gsd_lane_block *blocks)
{
    if (blocks)
        free(blocks[0].warp);
    free(blocks);
}

/* ---- the pool -------------------------------------------------------------- */

static struct {
    pthread_mutex_t lock; /* held by the launch that uses the pool */
    lane_worker_t **w;
    unsigned n, cap;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int pool_grow(unsigned n)
{
    if (n > pool.cap) {
        lane_worker_t **grown = realloc(pool.w, n * sizeof(*grown));

        if (!grown)
            return ENOMEM;
        pool.w = grown;
        pool.cap = n;
    }
    while (pool.n < n) {
        lane_worker_t *w = calloc(1, sizeof(*w));
        int rc;

        if (!w)
            return ENOMEM;
        sem_init(&w->go, 0, 0);
        rc = start_thread(w, pooled_main);
        if (rc != 0) {
            sem_destroy(&w->go);
            free(w);
            return rc;
        }
        pool.w[pool.n++] = w;
    }
    return 0;
}

/* A worker about to run job: the stuck watch starts from nothing. */
static void watch_reset(lane_worker_t *w, launch_t *job)
{
    w->job = job;
    w->waits = w->nap_ns = 0;
    w->in_bar = w->done = 0;
}

static int launch_pooled(launch_t *job, unsigned n, gshmemx_dim3_t grid, gshmemx_dim3_t block,
                         struct gsd_lane_block *blocks)
{
    int rc = pool_grow(n);

    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < n; i++) {
        set_lane(&pool.w[i]->lane, i, grid, block, blocks);
        watch_reset(pool.w[i], job);
    }
    for (unsigned i = 0; i < n; i++)
        sem_post(&pool.w[i]->go);
    wait_lanes(job, pool.w, NULL, n);
    return 0;
}

/* Threads of its own, for a launch that finds the pool busy. */
static int launch_own(launch_t *job, unsigned n, gshmemx_dim3_t grid, gshmemx_dim3_t block,
                      struct gsd_lane_block *blocks)
{
    lane_worker_t *w = calloc(n, sizeof(*w));
    unsigned started;
    int rc = 0;

    if (!w)
        return ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        set_lane(&w[i].lane, i, grid, block, blocks);
        watch_reset(&w[i], job);
    }
    for (started = 0; started < n; started++)
        if ((rc = start_thread(&w[started], single_main)) != 0)
            break;
    if (rc != 0) {
        /* The started lanes may wait for the others at a barrier: they
         * cannot be called back, so the job ends. */
        gsi_fatal(launch_fn, "started %u of %u threads, then: %s", started, n, strerror(rc));
    }
    wait_lanes(job, NULL, w, n);
    for (unsigned i = 0; i < n; i++)
        pthread_join(w[i].thread, NULL);
    free(w);
    return 0;
}

int gshmemx_hostlane_launch(gshmemx_kernel_fn_t fn, gshmemx_dim3_t grid, gshmemx_dim3_t block,
                            void **args)
{
    uint64_t nbid = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t ntid = (uint64_t)block.x * block.y * block.z;
    struct gsd_lane_block *blocks;
    launch_t job;
    int rc;

    gsi_check_init(launch_fn);
    if (!fn) {
        gsi_log(GSI_LOG_ERROR, "%s: the kernel is NULL", launch_fn);
        return -1;
    }
    if (nbid == 0 || ntid == 0 || nbid * ntid > GSHMEM_LANES_MAX) {
        gsi_log(GSI_LOG_ERROR,
                "%s: a grid of %ux%ux%u blocks of %ux%ux%u threads: host lanes "
                "run 1 to %d threads per launch",
                launch_fn, grid.x, grid.y, grid.z, block.x, block.y, block.z, GSHMEM_LANES_MAX);
        return -1;
    }
    blocks = make_blocks((unsigned)nbid, (unsigned)ntid);
    if (!blocks) {
        gsi_log(GSI_LOG_ERROR, "%s: out of memory for %llu blocks", launch_fn,
                (unsigned long long)nbid);
        return -1;
    }
    job.fn = fn;
    job.args = args;
    job.remaining = (unsigned)(nbid * ntid);
    sem_init(&job.done, 0, 0);
    /* While the kernel runs it may release this PE's or a peer's wait:
     * failure propagation (core/liveness.c) does not count this PE stuck. */
    __atomic_add_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
    if (pthread_mutex_trylock(&pool.lock) == 0) {
        rc = launch_pooled(&job, (unsigned)(nbid * ntid), grid, block, blocks);
        pthread_mutex_unlock(&pool.lock);
    } else {
        rc = launch_own(&job, (unsigned)(nbid * ntid), grid, block, blocks);
    }
    __atomic_sub_fetch(&gsi_pe.live_busy, 1, __ATOMIC_RELEASE);
    sem_destroy(&job.done);
    free_blocks(blocks);
    if (rc != 0) {
        gsi_log(GSI_LOG_ERROR, "%s: cannot start %llu threads: %s", launch_fn,
                (unsigned long long)(nbid * ntid), strerror(rc));
        return -1;
    }
    return 0;
}

void gsi_lanes_fini(void)
{
    pthread_mutex_lock(&pool.lock);
    for (unsigned i = 0; i < pool.n; i++) {
        __atomic_store_n(&pool.w[i]->quit, 1, __ATOMIC_RELEASE);
        sem_post(&pool.w[i]->go);
    }
    for (unsigned i = 0; i < pool.n; i++) {
        pthread_join(pool.w[i]->thread, NULL);
        sem_destroy(&pool.w[i]->go);
        free(pool.w[i]);
    }
    free(pool.w);
    pool.w = NULL;
    pool.n = pool.cap = 0;
    pthread_mutex_unlock(&pool.lock);
}
