/* src/transport_ucx.c - the network transport over UCX.
 *
 * One UCP context and worker per PE.  Endpoints to every network peer are
 * created at init, not lazily: every PE of an OpenSHMEM job typically
 * talks to every other, and init-time creation keeps the data path free of
 * a lock and a branch.  The heap and the static data are registered once
 * (ucp_mem_map) and their rkeys exchanged through the bootstrap; when no
 * PE maps them by load/store they first move onto UCX's own shared memory
 * where UCX has it (src/ucx_rehome.h), so UCX's posix and sysv transports
 * put, get and update them directly.  RMA is ucp_put_nbx/ucp_get_nbx,
 * except to peers UCX reaches with no RMA lane (TCP): there small puts,
 * gets and every atomic are active messages of our own that the target
 * applies without acknowledging each (src/ucx_am.h);
 * every AMO of OpenSHMEM is 4 or 8 bytes wide and maps onto
 * ucp_atomic_op_nbx (fetch = add 0, set = swap; AND/OR/XOR on UCX's shared
 * memory by compare-and-swap, see bitwise_by_cswap).  quiet is a worker
 * flush and fence a worker fence.  Over software transports (TCP, shared
 * memory UCX did not allocate, reached through active messages) the
 * target's worker must run for remote operations to land, so a progress
 * thread drives it whenever the PE itself has not for 1 to 4 ms (see
 * progress_main). */
#include "config.h"
#include "transport.h"

#ifdef GSHMEM_HAVE_UCX

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>
#include <unistd.h>

#include "ucx_am.h"
#include "ucx_rehome.h"

#define MAX_REGIONS GST_MAX_REGIONS

/* A region added after init (map_region): registered in chunks as it grows;
 * chunk c covers offsets [c ? end[c - 1] : 0, end[c]) on every PE. */
typedef struct ucx_extra {
    int n_chunks, cap;
    size_t *end;            /* [cap] */
    ucp_mem_h *mem;         /* [cap] */
    ucp_rkey_h **rkey;      /* [cap][n_pes] NULL for peers reached otherwise */
    uint64_t *peer_base;    /* [n_pes] */
    void *base;
} ucx_extra_t;

static struct {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_mem_h mem[MAX_REGIONS];
    ucp_ep_h *ep;           /* [n_pes] NULL for peers reached otherwise */
    ucp_rkey_h *rkey;       /* [n_pes * n_regions] */
    uint64_t *peer_base;    /* [n_pes * n_regions] where UCX reaches each PE's regions */
    char *moved;            /* [n_pes * n_regions] 1: that region is on UCX's shared memory */
    char *am_peer;          /* [n_pes] 1: small operations go as our active messages */
    int am_on;              /* gst_ucx_am_init ran */
    /* An RMA operation went to an am_peer since the last worker flush: it
     * is not ordered with the active messages, so a fence must be a quiet
     * and an active message that reads must flush first. */
    int rma_to_am_peer;
    /* A fence found active messages in flight: RMA to a peer they went to
     * must wait for them (gst_ucx_am_flush) until the next quiet. */
    int am_fenced;
    int n_pes, n_regions;
    pthread_t progress;
    int progress_running;
    volatile int stopping;
    int wake_fd[2];         /* writes wake the progress thread to stop */
    unsigned long progressed; /* worker progress calls made by the PE's own threads */
    int (*allgather)(const void *in, void *out, size_t len); /* for map_region */
    ucx_extra_t extra[MAX_REGIONS]; /* regions n_regions.. added after init */
} ucx;

/* The worker runs in single-thread mode unless the program asked for
 * SHMEM_THREAD_MULTIPLE: a lock of our own, taken by the PE's calls and
 * only tried by the progress thread, is cheaper than UCX's, and the thread
 * never makes a PE that communicates wait for it. */
static int ucx_lock;

static inline void lock(void)
{
    while (__atomic_exchange_n(&ucx_lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static inline int try_lock(void)
{
    return !__atomic_exchange_n(&ucx_lock, 1, __ATOMIC_ACQUIRE);
}

static inline void unlock(void)
{
    __atomic_store_n(&ucx_lock, 0, __ATOMIC_RELEASE);
}

static gsi_status_t failed(char *err, size_t errlen, const char *what, ucs_status_t status)
{
    snprintf(err, errlen, "UCX %s: %s", what, ucs_status_string(status));
    return GSI_ERR_SYSTEM;
}

/* Polls of a request before its waiter yields the CPU: with more PEs than
 * cores the peer that must answer may need this core. */
#define WAIT_SPIN 64

/* One poll of a wait: progress the worker, and yield once it has found
 * nothing to do WAIT_SPIN times. */
static inline void wait_poll(unsigned *polls)
{
    __atomic_store_n(&ucx.progressed, ucx.progressed + 1, __ATOMIC_RELAXED);
    if (!ucp_worker_progress(ucx.worker) && ++*polls > WAIT_SPIN)
        sched_yield();
}

/* Wait for a request to complete; progress the worker meanwhile. */
static gsi_status_t wait_request(ucs_status_ptr_t req)
{
    ucs_status_t status;
    unsigned polls = 0;

    if (req == NULL)
        return GSI_OK;
    if (UCS_PTR_IS_ERR(req))
        return GSI_ERR_SYSTEM;
    while ((status = ucp_request_check_status(req)) == UCS_INPROGRESS)
        wait_poll(&polls);
    ucp_request_free(req);
    return status == UCS_OK ? GSI_OK : GSI_ERR_SYSTEM;
}

/* Wait for *done (set by a handler or a callback); for src/ucx_am.c. */
static void wait_done(const volatile int *done)
{
    unsigned polls = 0;

    while (!*done)
        wait_poll(&polls);
}

/* The progress thread wakes every period and drives the worker only if no
 * thread of the PE has done so since its last look: a PE that waits or
 * communicates progresses the worker itself (and must not fight a second
 * thread for its lock), while a PE that computes still serves its peers'
 * operations within a period.  The period is PROGRESS_MIN_MS after a look
 * that found the PE idle and doubles, up to PROGRESS_MAX_MS, after each
 * that found it progressing: waking every millisecond cost a busy PE 3% on
 * a TCP put ping-pong (12.0 against 11.6 us), every 4 ms nothing
 * measurable, and a PE that stops progressing is served after 4 ms at
 * most. */
#define PROGRESS_MIN_MS 1
#define PROGRESS_MAX_MS 4

static void *progress_main(void *arg)
{
    struct pollfd wake = {.fd = ucx.wake_fd[0], .events = POLLIN};
    unsigned long seen = (unsigned long)-1;
    int period = PROGRESS_MIN_MS;

    (void)arg;
    while (!ucx.stopping) {
        unsigned long now = __atomic_load_n(&ucx.progressed, __ATOMIC_RELAXED);

        if (now != seen) {
            period = period * 2 > PROGRESS_MAX_MS ? PROGRESS_MAX_MS : period * 2;
        } else {
            period = PROGRESS_MIN_MS;
            if (try_lock()) {
                while (ucp_worker_progress(ucx.worker))
                    ;
                unlock();
            }
        }
        seen = __atomic_load_n(&ucx.progressed, __ATOMIC_RELAXED);
        poll(&wake, 1, period);
    }
    return NULL;
}

/* Gather variable-length blobs: sizes first, then blobs padded to the max. */
static gsi_status_t gather_blobs(const gst_init_args_t *args, const void *mine, size_t len,
                                 char **all, size_t *stride)
{
    uint64_t my_len = len, *lens, max = 0;
    char *padded;

    lens = calloc((size_t)args->n_pes, sizeof(*lens));
    if (!lens)
        return GSI_ERR_NOMEM;
    if (args->allgather(&my_len, lens, sizeof(my_len)) != 0) {
        free(lens);
        return GSI_ERR_BOOTSTRAP;
    }
    for (int pe = 0; pe < args->n_pes; pe++)
        if (lens[pe] > max)
            max = lens[pe];
    free(lens);
    padded = calloc(1, (size_t)max);
    *all = calloc((size_t)args->n_pes, (size_t)max);
    if (!padded || !*all) {
        free(padded);
        free(*all);
        return GSI_ERR_NOMEM;
    }
    memcpy(padded, mine, len);
    if (args->allgather(padded, *all, (size_t)max) != 0) {
        free(padded);
        free(*all);
        return GSI_ERR_BOOTSTRAP;
    }
    free(padded);
    *stride = (size_t)max;
    return GSI_OK;
}

static gsi_status_t open_worker(const gst_init_args_t *args, char *err, size_t errlen)
{
    ucp_params_t params = {0};
    ucp_worker_params_t wparams = {0};
    ucp_config_t *config;
    ucs_status_t status;

    status = ucp_config_read(NULL, NULL, &config);
    if (status != UCS_OK)
        return failed(err, errlen, "ucp_config_read", status);
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM;
    params.mt_workers_shared = 1;
    status = ucp_init(&params, config, &ucx.context);
    ucp_config_release(config);
    if (status != UCS_OK)
        return failed(err, errlen, "ucp_init", status);
    wparams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    /* Our lock serializes the PE and its progress thread (see lock()). */
    wparams.thread_mode = args->thread_multiple ? UCS_THREAD_MODE_MULTI
                                                : UCS_THREAD_MODE_SERIALIZED;
    status = ucp_worker_create(ucx.context, &wparams, &ucx.worker);
    if (status != UCS_OK)
        return failed(err, errlen, "ucp_worker_create", status);
    return GSI_OK;
}

static gsi_status_t connect_peers(const gst_init_args_t *args, char *err, size_t errlen)
{
    ucp_address_t *address;
    size_t address_len, stride;
    char *addresses;
    ucs_status_t status;
    gsi_status_t gst;

    status = ucp_worker_get_address(ucx.worker, &address, &address_len);
    if (status != UCS_OK)
        return failed(err, errlen, "ucp_worker_get_address", status);
    gst = gather_blobs(args, address, address_len, &addresses, &stride);
    ucp_worker_release_address(ucx.worker, address);
    if (gst != GSI_OK) {
        snprintf(err, errlen, "exchanging UCX worker addresses failed");
        return gst;
    }
    for (int pe = 0; pe < args->n_pes; pe++) {
        ucp_ep_params_t ep_params = {0};

        if (!args->net_peer[pe])
            continue;
        ep_params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
        ep_params.address = (const ucp_address_t *)(addresses + (size_t)pe * stride);
        status = ucp_ep_create(ucx.worker, &ep_params, &ucx.ep[pe]);
        if (status != UCS_OK) {
            free(addresses);
            snprintf(err, errlen, "UCX ucp_ep_create to PE %d: %s", pe, ucs_status_string(status));
            return GSI_ERR_SYSTEM;
        }
    }
    free(addresses);
    return GSI_OK;
}

/* Maps region r for UCX: moved onto UCX's own shared memory where that is
 * allowed and UCX allocates such memory (src/ucx_rehome.h), registered as
 * it is otherwise.  *ucx_base is where remote PEs address it. */
static ucs_status_t map_region_memory(const gst_init_args_t *args, int r, uint64_t *ucx_base)
{
    ucp_mem_map_params_t mp = {0};
    void *moved;

    if (args->private_regions &&
        gst_ucx_rehome(ucx.context, args->base[r], args->size[r], &ucx.mem[r], &moved) == 0) {
        *ucx_base = (uint64_t)(uintptr_t)moved;
        return UCS_OK;
    }
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = args->base[r];
    mp.length = args->size[r];
    *ucx_base = (uint64_t)(uintptr_t)args->base[r];
    return ucp_mem_map(ucx.context, &mp, &ucx.mem[r]);
}

/* Each PE's blob for region r: the address UCX knows it by, then its packed rkey. */
static gsi_status_t register_regions(const gst_init_args_t *args, char *err, size_t errlen)
{
    for (int r = 0; r < args->n_regions; r++) {
        void *packed;
        size_t packed_len, stride;
        char *all, *blob;
        uint64_t ucx_base;
        ucs_status_t status;
        gsi_status_t gst;

        status = map_region_memory(args, r, &ucx_base);
        if (status != UCS_OK)
            return failed(err, errlen, "ucp_mem_map", status);
        status = ucp_rkey_pack(ucx.context, ucx.mem[r], &packed, &packed_len);
        if (status != UCS_OK)
            return failed(err, errlen, "ucp_rkey_pack", status);
        blob = malloc(sizeof(ucx_base) + packed_len);
        if (!blob) {
            ucp_rkey_buffer_release(packed);
            snprintf(err, errlen, "out of memory for a %zu-byte rkey", packed_len);
            return GSI_ERR_NOMEM;
        }
        memcpy(blob, &ucx_base, sizeof(ucx_base));
        memcpy(blob + sizeof(ucx_base), packed, packed_len);
        ucp_rkey_buffer_release(packed);
        gst = gather_blobs(args, blob, sizeof(ucx_base) + packed_len, &all, &stride);
        free(blob);
        if (gst != GSI_OK) {
            snprintf(err, errlen, "exchanging UCX rkeys failed");
            return gst;
        }
        for (int pe = 0; pe < args->n_pes; pe++) {
            if (!ucx.ep[pe])
                continue;
            memcpy(&ucx.peer_base[pe * args->n_regions + r], all + (size_t)pe * stride,
                   sizeof(uint64_t));
            ucx.moved[pe * args->n_regions + r] =
                ucx.peer_base[pe * args->n_regions + r] != args->peer_base[pe * args->n_regions + r];
            status = ucp_ep_rkey_unpack(ucx.ep[pe], all + (size_t)pe * stride + sizeof(uint64_t),
                                        &ucx.rkey[pe * args->n_regions + r]);
            if (status != UCS_OK) {
                free(all);
                return failed(err, errlen, "ucp_ep_rkey_unpack", status);
            }
        }
        free(all);
    }
    return GSI_OK;
}

/* Which peers get small operations as our active messages (src/ucx_am.h):
 * args->am_rma -1 those UCX reaches with no RMA lane, 1 every peer, 0
 * none.  The handlers are installed whatever this PE chose: peers may
 * send to it. */
static gsi_status_t start_am(const gst_init_args_t *args, char *err, size_t errlen)
{
    gst_ucx_am_args_t am = {.worker = ucx.worker, .ep = ucx.ep, .my_pe = args->my_pe,
                            .n_pes = args->n_pes, .n_regions = args->n_regions,
                            .base = args->base, .size = args->size, .wait = wait_done};
    gsi_status_t status = gst_ucx_am_init(&am, err, errlen);

    if (status != GSI_OK)
        return status;
    ucx.am_on = 1;
    for (int pe = 0; pe < args->n_pes; pe++)
        ucx.am_peer[pe] = ucx.ep[pe] && args->am_rma != 0 &&
                          (args->am_rma > 0 || gst_ucx_am_wanted(ucx.ep[pe]));
    return GSI_OK;
}

static void ucx_finalize(void);
static void extra_release(int region);

static gsi_status_t ucx_init(const gst_init_args_t *args, char *err, size_t errlen)
{
    size_t cells = (size_t)args->n_pes * (size_t)args->n_regions;
    gsi_status_t status;

    if (args->n_regions > MAX_REGIONS) {
        snprintf(err, errlen, "UCX transport: %d regions, at most %d", args->n_regions,
                 MAX_REGIONS);
        return GSI_ERR_INVALID;
    }
    memset(&ucx, 0, sizeof(ucx));
    ucx.n_pes = args->n_pes;
    ucx.n_regions = args->n_regions;
    ucx.wake_fd[0] = ucx.wake_fd[1] = -1;
    ucx.ep = calloc((size_t)args->n_pes, sizeof(*ucx.ep));
    ucx.rkey = calloc(cells, sizeof(*ucx.rkey));
    ucx.peer_base = malloc(cells * sizeof(*ucx.peer_base));
    ucx.moved = calloc(cells, 1);
    ucx.am_peer = calloc((size_t)args->n_pes, 1);
    if (!ucx.ep || !ucx.rkey || !ucx.peer_base || !ucx.moved || !ucx.am_peer) {
        snprintf(err, errlen, "out of memory for %d PEs", args->n_pes);
        status = GSI_ERR_NOMEM;
        goto err_finalize;
    }
    memcpy(ucx.peer_base, args->peer_base, cells * sizeof(*ucx.peer_base));
    ucx.allgather = args->allgather;
    status = open_worker(args, err, errlen);
    if (status == GSI_OK)
        status = connect_peers(args, err, errlen);
    if (status == GSI_OK)
        status = register_regions(args, err, errlen);
    if (status == GSI_OK)
        status = start_am(args, err, errlen);
    if (status != GSI_OK)
        goto err_finalize;
    if (args->progress_thread != 0) {
        if (pipe(ucx.wake_fd) != 0 ||
            pthread_create(&ucx.progress, NULL, progress_main, NULL) != 0) {
            snprintf(err, errlen, "cannot start the progress thread: %s", strerror(errno));
            status = GSI_ERR_SYSTEM;
            goto err_finalize;
        }
        ucx.progress_running = 1;
    }
    return GSI_OK;

err_finalize:
    ucx_finalize();
    return status;
}

static void ucx_finalize(void)
{
    if (ucx.progress_running) {
        ucx.stopping = 1;
        if (write(ucx.wake_fd[1], "x", 1) < 0)
            ucx.stopping = 1;
        pthread_join(ucx.progress, NULL);
        ucx.progress_running = 0;
    }
    for (int fd = 0; fd < 2; fd++)
        if (ucx.wake_fd[fd] >= 0)
            close(ucx.wake_fd[fd]);
    for (size_t i = 0; ucx.rkey && i < (size_t)ucx.n_pes * (size_t)ucx.n_regions; i++)
        if (ucx.rkey[i])
            ucp_rkey_destroy(ucx.rkey[i]);
    for (int r = 0; r < MAX_REGIONS; r++)
        extra_release(r);
    if (ucx.am_on)
        gst_ucx_am_finalize();
    for (int pe = 0; ucx.ep && pe < ucx.n_pes; pe++) {
        if (!ucx.ep[pe])
            continue;
        {
            ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                     .flags = UCP_EP_CLOSE_FLAG_FORCE};
            wait_request(ucp_ep_close_nbx(ucx.ep[pe], &p));
        }
    }
    for (int r = 0; r < ucx.n_regions; r++)
        if (ucx.mem[r])
            ucp_mem_unmap(ucx.context, ucx.mem[r]);
    if (ucx.worker)
        ucp_worker_destroy(ucx.worker);
    if (ucx.context)
        ucp_cleanup(ucx.context);
    free(ucx.ep);
    free(ucx.rkey);
    free(ucx.peer_base);
    free(ucx.moved);
    free(ucx.am_peer);
    memset(&ucx, 0, sizeof(ucx));
}

static unsigned progress_locked(void)
{
    __atomic_store_n(&ucx.progressed, ucx.progressed + 1, __ATOMIC_RELAXED);
    return ucp_worker_progress(ucx.worker);
}

static inline uint64_t remote(int pe, int region, size_t offset)
{
    return ucx.peer_base[pe * ucx.n_regions + region] + offset;
}

static inline ucp_rkey_h rkey_of(int pe, int region)
{
    return ucx.rkey[pe * ucx.n_regions + region];
}

/* Where (pe, region, offset) is for UCX: remote address, rkey, and how many
 * bytes from there one operation may cover (a chunk of an added region). */
typedef struct ucx_target {
    uint64_t addr;
    ucp_rkey_h rkey;
    size_t span;
} ucx_target_t;

static gsi_status_t target_of(int pe, int region, size_t offset, ucx_target_t *t)
{
    const ucx_extra_t *x;
    int lo, hi;

    if (region < ucx.n_regions) {
        t->addr = remote(pe, region, offset);
        t->rkey = rkey_of(pe, region);
        t->span = (size_t)-1;
        return GSI_OK;
    }
    if (region >= MAX_REGIONS || ucx.extra[region].n_chunks == 0)
        return GSI_ERR_INVALID;
    x = &ucx.extra[region];
    /* The first chunk whose end is past offset. */
    lo = 0, hi = x->n_chunks;
    while (lo < hi) {
        int mid = (lo + hi) / 2;

        if (x->end[mid] <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == x->n_chunks || !x->rkey[lo][pe])
        return GSI_ERR_INVALID;
    t->addr = x->peer_base[pe] + offset;
    t->rkey = x->rkey[lo][pe];
    t->span = x->end[lo] - offset;
    return GSI_OK;
}

/* One operation per chunk: an added region's chunks have keys of their own.
 * put: local -> (pe, region, offset); else the other way. */
static gsi_status_t rma_locked(int put, int pe, int region, size_t offset, void *local,
                               size_t len)
{
    gsi_status_t status = GSI_OK;

    if (!ucx.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    do {
        ucp_request_param_t p = {0};
        ucx_target_t t;
        size_t n;

        status = target_of(pe, region, offset, &t);
        if (status != GSI_OK)
            break;
        n = len < t.span ? len : t.span;
        status = wait_request(put ? ucp_put_nbx(ucx.ep[pe], local, n, t.addr, t.rkey, &p)
                                  : ucp_get_nbx(ucx.ep[pe], local, n, t.addr, t.rkey, &p));
        local = (char *)local + n, offset += n, len -= n;
    } while (status == GSI_OK && len);
    return status;
}

/* 1: this operation on (pe, region) goes as one of our active messages
 * (the core has checked pe). */
static inline int by_am(int pe, int region, size_t len)
{
    return ucx.am_peer[pe] && region < ucx.n_regions && len <= GST_UCX_AM_MAX;
}

/* Before RMA to pe: one that follows a fence must not pass the messages
 * sent to pe before the fence. */
static gsi_status_t rma_to_peer(int pe)
{
    if (!ucx.am_peer[pe])
        return GSI_OK;
    ucx.rma_to_am_peer = 1;
    return ucx.am_fenced ? gst_ucx_am_flush(pe) : GSI_OK;
}

/* Before an active message that reads pe's memory: RMA sent to an am_peer
 * since the last flush may not have landed. */
static gsi_status_t settle_rma(void)
{
    ucp_request_param_t p = {0};

    if (!ucx.rma_to_am_peer)
        return GSI_OK;
    ucx.rma_to_am_peer = 0;
    return wait_request(ucp_worker_flush_nbx(ucx.worker, &p));
}

static gsi_status_t put_locked(int pe, int region, size_t offset, const void *src, size_t len)
{
    gsi_status_t status;

    if (by_am(pe, region, len))
        return gst_ucx_am_put(pe, region, offset, src, len);
    status = rma_to_peer(pe);
    return status != GSI_OK ? status : rma_locked(1, pe, region, offset, (void *)(uintptr_t)src, len);
}

static gsi_status_t get_locked(void *dst, int pe, int region, size_t offset, size_t len)
{
    gsi_status_t status;

    /* Our messages carry only the gets that must stay behind messages
     * still in flight to pe: a get waits for its answer either way, and
     * UCX's own emulation answers sooner (10.3 against 11.1 us over TCP). */
    if (by_am(pe, region, len) && gst_ucx_am_unflushed(pe)) {
        status = settle_rma();
        return status == GSI_OK ? gst_ucx_am_get(dst, pe, region, offset, len) : status;
    }
    /* A get through RMA must see the messages sent to pe before it. */
    status = gst_ucx_am_flush(pe);
    return status == GSI_OK ? rma_locked(0, pe, region, offset, dst, len) : status;
}

static gsi_status_t amo_locked(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched);

static uint64_t bits_of(const void *v, size_t size)
{
    uint32_t v32;
    uint64_t v64;

    if (size == 4) {
        memcpy(&v32, v, 4);
        return v32;
    }
    memcpy(&v64, v, 8);
    return v64;
}

static void bits_to(void *v, uint64_t bits, size_t size)
{
    uint32_t v32 = (uint32_t)bits;

    if (size == 4)
        memcpy(v, &v32, 4);
    else
        memcpy(v, &bits, 8);
}

/* AND, OR and XOR as a compare-and-swap loop.  UCX 1.13's shared-memory
 * transports apply the wrong one of the three (an OR of 1 into 0 leaves
 * 0), so a region on UCX's shared memory (ucx.moved) gets them this way;
 * its CSWAP, SWAP and ADD are right. */
static gsi_status_t bitwise_by_cswap(int pe, int region, size_t offset, gst_amo_op_t op,
                                     size_t size, const void *operand, void *fetched)
{
    uint64_t v = bits_of(operand, size), mask = size == 4 ? UINT32_MAX : UINT64_MAX;
    uint64_t expect = 0, next;
    unsigned char e[8], n[8], seen[8];
    gsi_status_t status;

    for (;;) {
        next = (op == GST_AMO_FAND ? expect & v : op == GST_AMO_FOR ? expect | v : expect ^ v) & mask;
        bits_to(e, expect, size);
        bits_to(n, next, size);
        status = amo_locked(pe, region, offset, GST_AMO_CSWAP, size, n, e, seen);
        if (status != GSI_OK)
            return status;
        if (bits_of(seen, size) == expect)
            break;
        expect = bits_of(seen, size);
    }
    if (fetched)
        bits_to(fetched, expect, size);
    return GSI_OK;
}

static gsi_status_t amo_locked(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                             .datatype = ucp_dt_make_contig(size)};
    uint64_t zero = 0, reply = 0, scratch;
    const void *buffer = operand;
    ucp_atomic_op_t opcode;
    gsi_status_t status;
    ucx_target_t t;

    if (!ucx.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    if (size != 4 && size != 8)
        return GSI_ERR_UNSUPPORTED;
    /* As for gets (get_locked): a fetching atomic goes as our message only
     * behind messages still in flight to pe.  Both kinds run on the target
     * inside its worker's progress, so they are atomic with each other. */
    if (by_am(pe, region, size) && (!fetched || gst_ucx_am_unflushed(pe))) {
        status = fetched ? settle_rma() : GSI_OK;
        return status == GSI_OK ? gst_ucx_am_amo(pe, region, offset, op, size, operand, compare,
                                                 fetched)
                                : status;
    }
    /* A fetching atomic is complete when it returns: nothing to order. */
    status = fetched ? GSI_OK : rma_to_peer(pe);
    if (status != GSI_OK)
        return status;
    if ((op == GST_AMO_FAND || op == GST_AMO_FOR || op == GST_AMO_FXOR) &&
        region < ucx.n_regions && ucx.moved[pe * ucx.n_regions + region])
        return bitwise_by_cswap(pe, region, offset, op, size, operand, fetched);
    status = target_of(pe, region, offset, &t);
    if (status != GSI_OK)
        return status;
    switch (op) {
    case GST_AMO_FETCH: opcode = UCP_ATOMIC_OP_ADD; buffer = &zero; break;
    case GST_AMO_SET:
    case GST_AMO_SWAP: opcode = UCP_ATOMIC_OP_SWAP; break;
    case GST_AMO_CSWAP:
        /* UCX: compare value in buffer, new value in (and old value out of)
         * the reply buffer. */
        opcode = UCP_ATOMIC_OP_CSWAP;
        buffer = compare;
        memcpy(&reply, operand, size);
        break;
    case GST_AMO_FADD: opcode = UCP_ATOMIC_OP_ADD; break;
    case GST_AMO_FAND: opcode = UCP_ATOMIC_OP_AND; break;
    case GST_AMO_FOR: opcode = UCP_ATOMIC_OP_OR; break;
    case GST_AMO_FXOR: opcode = UCP_ATOMIC_OP_XOR; break;
    default: return GSI_ERR_UNSUPPORTED;
    }
    /* SET, SWAP and CSWAP always take a reply buffer in UCX. */
    if (fetched || op == GST_AMO_SET || op == GST_AMO_SWAP || op == GST_AMO_CSWAP ||
        op == GST_AMO_FETCH) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = op == GST_AMO_CSWAP ? (void *)&reply : (void *)&scratch;
    }
    status = wait_request(ucp_atomic_op_nbx(ucx.ep[pe], opcode, buffer, 1, t.addr, t.rkey, &p));
    if (status == GSI_OK && fetched)
        memcpy(fetched, op == GST_AMO_CSWAP ? (void *)&reply : (void *)&scratch, size);
    return status;
}

static gsi_status_t quiet_locked(void)
{
    ucp_request_param_t p = {0};
    gsi_status_t status = gst_ucx_am_flush(-1);

    if (status != GSI_OK)
        return status;
    ucx.rma_to_am_peer = ucx.am_fenced = 0;
    return wait_request(ucp_worker_flush_nbx(ucx.worker, &p));
}

/* One peer's active messages are applied in order, so only RMA needs the
 * worker fence.  RMA and messages to one peer are ordered only by
 * completing the earlier: everything, if RMA went first; the messages to
 * that peer, when RMA to it follows (rma_to_peer). */
static gsi_status_t fence_locked(void)
{
    if (ucx.rma_to_am_peer)
        return quiet_locked();
    ucx.am_fenced |= gst_ucx_am_unflushed(-1);
    return ucp_worker_fence(ucx.worker) == UCS_OK ? GSI_OK : GSI_ERR_SYSTEM;
}

static unsigned ucx_progress(void)
{
    unsigned n;

    lock();
    n = progress_locked();
    unlock();
    return n;
}

static gsi_status_t ucx_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    gsi_status_t status;

    lock();
    status = put_locked(pe, region, offset, src, len);
    unlock();
    return status;
}

static gsi_status_t ucx_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    gsi_status_t status;

    lock();
    status = get_locked(dst, pe, region, offset, len);
    unlock();
    return status;
}

static gsi_status_t ucx_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched)
{
    gsi_status_t status;

    lock();
    status = amo_locked(pe, region, offset, op, size, operand, compare, fetched);
    unlock();
    return status;
}

static gsi_status_t ucx_fence(void)
{
    gsi_status_t status;

    lock();
    status = fence_locked();
    unlock();
    return status;
}

static gsi_status_t ucx_quiet(void)
{
    gsi_status_t status;

    lock();
    status = quiet_locked();
    unlock();
    return status;
}

/* ---- regions added after init ---------------------------------------------- */

static void extra_release(int region)
{
    ucx_extra_t *x = &ucx.extra[region];

    for (int c = 0; c < x->n_chunks; c++) {
        for (int pe = 0; x->rkey[c] && pe < ucx.n_pes; pe++)
            if (x->rkey[c][pe])
                ucp_rkey_destroy(x->rkey[c][pe]);
        free(x->rkey[c]);
        if (x->mem[c])
            ucp_mem_unmap(ucx.context, x->mem[c]);
    }
    free(x->end);
    free(x->mem);
    free(x->rkey);
    free(x->peer_base);
    memset(x, 0, sizeof(*x));
}

/* Room for one more chunk. */
static gsi_status_t extra_reserve(ucx_extra_t *x)
{
    int cap = x->cap ? 2 * x->cap : 8;
    size_t *end;
    ucp_mem_h *mem;
    ucp_rkey_h **rkey;

    if (x->n_chunks < x->cap)
        return GSI_OK;
    end = realloc(x->end, (size_t)cap * sizeof(*end));
    if (end)
        x->end = end;
    mem = realloc(x->mem, (size_t)cap * sizeof(*mem));
    if (mem)
        x->mem = mem;
    rkey = realloc(x->rkey, (size_t)cap * sizeof(*rkey));
    if (rkey)
        x->rkey = rkey;
    if (!end || !mem || !rkey)
        return GSI_ERR_NOMEM;
    x->cap = cap;
    return GSI_OK;
}

/* Register [from, size) of region as its next chunk and learn every peer's
 * key for it.  The registration, packing and allgather run without our lock
 * (the context is shared among workers, and the allgather may take long);
 * the keys are unpacked and the chunk made visible under it. */
static gsi_status_t extra_add_chunk(int region, size_t from, size_t size, gst_mem_type_t mem_type,
                                    char *err, size_t errlen)
{
    ucx_extra_t *x = &ucx.extra[region];
    gst_init_args_t gather = {.n_pes = ucx.n_pes, .allgather = ucx.allgather};
    ucp_mem_map_params_t mp = {0};
    ucp_rkey_h *keys;
    ucp_mem_h mem;
    void *packed;
    size_t packed_len, stride;
    char *all;
    ucs_status_t status;
    gsi_status_t gst;

    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                    UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
    mp.address = (char *)x->base + from;
    mp.length = size - from;
    mp.memory_type = mem_type == GST_MEM_CUDA ? UCS_MEMORY_TYPE_CUDA : UCS_MEMORY_TYPE_HOST;
    status = ucp_mem_map(ucx.context, &mp, &mem);
    if (status != UCS_OK) {
        snprintf(err, errlen, "UCX ucp_mem_map of %zu bytes of %s memory: %s%s", size - from,
                 mem_type == GST_MEM_CUDA ? "CUDA" : "host", ucs_status_string(status),
                 mem_type == GST_MEM_CUDA ? " (is UCX built with CUDA support, and is GPUDirect "
                                            "RDMA (nvidia_peermem) loaded?)" : "");
        return GSI_ERR_SYSTEM;
    }
    status = ucp_rkey_pack(ucx.context, mem, &packed, &packed_len);
    if (status != UCS_OK) {
        ucp_mem_unmap(ucx.context, mem);
        return failed(err, errlen, "ucp_rkey_pack", status);
    }
    gst = gather_blobs(&gather, packed, packed_len, &all, &stride);
    ucp_rkey_buffer_release(packed);
    if (gst != GSI_OK) {
        ucp_mem_unmap(ucx.context, mem);
        snprintf(err, errlen, "exchanging UCX rkeys failed");
        return gst;
    }
    keys = calloc((size_t)ucx.n_pes, sizeof(*keys));
    lock();
    gst = keys ? extra_reserve(x) : GSI_ERR_NOMEM;
    for (int pe = 0; gst == GSI_OK && pe < ucx.n_pes; pe++) {
        if (!ucx.ep[pe])
            continue;
        status = ucp_ep_rkey_unpack(ucx.ep[pe], all + (size_t)pe * stride, &keys[pe]);
        if (status != UCS_OK)
            gst = failed(err, errlen, "ucp_ep_rkey_unpack", status);
    }
    if (gst == GSI_OK) {
        x->end[x->n_chunks] = size;
        x->mem[x->n_chunks] = mem;
        x->rkey[x->n_chunks] = keys;
        x->n_chunks++;
    }
    unlock();
    free(all);
    if (gst != GSI_OK) {
        for (int pe = 0; keys && pe < ucx.n_pes; pe++)
            if (keys[pe])
                ucp_rkey_destroy(keys[pe]);
        free(keys);
        ucp_mem_unmap(ucx.context, mem);
        if (gst == GSI_ERR_NOMEM)
            snprintf(err, errlen, "out of memory for the keys of %d PEs", ucx.n_pes);
    }
    return gst;
}

static gsi_status_t ucx_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                   char *err, size_t errlen)
{
    ucx_extra_t *x;
    size_t from;

    if (region < ucx.n_regions || region >= MAX_REGIONS) {
        snprintf(err, errlen, "UCX transport: region %d cannot be added (%d at init, at most %d)",
                 region, ucx.n_regions, MAX_REGIONS);
        return GSI_ERR_INVALID;
    }
    x = &ucx.extra[region];
    if (size == 0) {
        lock();
        extra_release(region);
        unlock();
        return GSI_OK;
    }
    if (!ucx.context) {
        snprintf(err, errlen, "UCX transport is not initialized");
        return GSI_ERR_INVALID;
    }
    if (x->n_chunks == 0) {
        uint64_t mine = (uint64_t)(uintptr_t)base;
        uint64_t *bases = calloc((size_t)ucx.n_pes, sizeof(*bases));

        if (!bases) {
            snprintf(err, errlen, "out of memory for %d PEs", ucx.n_pes);
            return GSI_ERR_NOMEM;
        }
        if (ucx.allgather(&mine, bases, sizeof(mine)) != 0) {
            free(bases);
            snprintf(err, errlen, "exchanging region %d's bases failed", region);
            return GSI_ERR_BOOTSTRAP;
        }
        x->peer_base = bases;
        x->base = base;
    } else if (base != x->base) {
        snprintf(err, errlen, "region %d moved from %p to %p", region, x->base, base);
        return GSI_ERR_INVALID;
    }
    from = x->n_chunks ? x->end[x->n_chunks - 1] : 0;
    if (size < from) {
        snprintf(err, errlen, "region %d cannot shrink from %zu to %zu bytes", region, from, size);
        return GSI_ERR_INVALID;
    }
    if (size == from)
        return GSI_OK;
    return extra_add_chunk(region, from, size, mem_type, err, errlen);
}

const gst_ops_t gst_ucx_ops = {
    .name = "ucx",
    .init = ucx_init,
    .finalize = ucx_finalize,
    .progress = ucx_progress,
    .put = ucx_put,
    .get = ucx_get,
    .amo = ucx_amo,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .map_region = ucx_map_region,
};

#endif /* GSHMEM_HAVE_UCX */
