/* src/net/ucx/ucx.c - the network transport over UCX: setup, teardown,
 * the progress thread and the ops table (src/net/ucx/ucx_state.h lists the other
 * files of the transport).
 *
 * One UCP context and worker per PE.  Endpoints to every network peer are
 * created at init, not lazily: every PE of an OpenSHMEM job typically
 * talks to every other, and init-time creation keeps the data path free of
 * a lock and a branch.  The heap and the static data are registered once
 * (ucp_mem_map) and their rkeys exchanged through the bootstrap; when no
 * PE maps them by load/store they first move onto UCX's own shared memory
 * where UCX has it (src/net/ucx/ucx_rehome.h), so UCX's posix and sysv transports
 * put, get and update them directly.  The data path is src/net/ucx/ucx_rma.c.
 * Over software transports (TCP, shared memory UCX did not allocate,
 * reached through active messages) the target's worker must run for
 * remote operations to land, so a progress thread drives it whenever the
 * PE itself has not for 1 to 4 ms (see progress_main). */
#include "config.h"
#include "net/transport.h"

#ifdef GSHMEM_HAVE_UCX

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>
#include <uct/api/uct.h>
#include <unistd.h>

#include "net/ucx/ucx_am.h"
#include "net/ucx/ucx_private.h"
#include "net/ucx/ucx_rehome.h"
#include "net/ucx/ucx_state.h"

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
    struct pollfd wake = {.fd = gst_ucx.wake_fd[0], .events = POLLIN};
    unsigned long seen = (unsigned long)-1;
    int period = PROGRESS_MIN_MS;

    (void)arg;
    /* Relaxed: the flag carries no data; the join orders what follows. */
    while (!__atomic_load_n(&gst_ucx.stopping, __ATOMIC_RELAXED)) {
        unsigned long now = __atomic_load_n(&gst_ucx.progressed, __ATOMIC_RELAXED);

        if (now != seen) {
            period = period * 2 > PROGRESS_MAX_MS ? PROGRESS_MAX_MS : period * 2;
        } else {
            period = PROGRESS_MIN_MS;
            if (gst_ucx_try_lock()) {
                while (ucp_worker_progress(gst_ucx.worker))
                    ;
                gst_ucx_unlock();
            }
        }
        seen = __atomic_load_n(&gst_ucx.progressed, __ATOMIC_RELAXED);
        poll(&wake, 1, period);
    }
    return NULL;
}

static gsi_status_t open_worker(const gst_init_args_t *args, char *err, size_t errlen)
{
    ucp_params_t params = {0};
    ucp_worker_params_t wparams = {0};
    ucp_config_t *config;
    ucs_status_t status;
    gsi_status_t gst;

    /* What UCX makes in this process is made this user's alone before
     * anyone learns of it (ucx_private.h). */
    gst = gst_ucx_private_begin(err, errlen);
    if (gst != GSI_OK)
        return gst;
    status = ucp_config_read(NULL, NULL, &config);
    if (status != UCS_OK)
        return gst_ucx_failed(err, errlen, "ucp_config_read", status);
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM;
    params.mt_workers_shared = 1;
    status = ucp_init(&params, config, &gst_ucx.context);
    ucp_config_release(config);
    if (status != UCS_OK)
        return gst_ucx_failed(err, errlen, "ucp_init", status);
    wparams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    /* Our lock serializes the PE and its progress thread (see gst_ucx_lock()). */
    wparams.thread_mode = args->thread_multiple ? UCS_THREAD_MODE_MULTI
                                                : UCS_THREAD_MODE_SERIALIZED;
    status = ucp_worker_create(gst_ucx.context, &wparams, &gst_ucx.worker);
    if (status != UCS_OK)
        return gst_ucx_failed(err, errlen, "ucp_worker_create", status);
    return gst_ucx_private_seal(err, errlen);
}

/* ---- what UCX can do on each kind of memory (the caps op) -------------------
 *
 * Host memory: everything; a peer UCX reaches with no RMA lane (TCP) gets
 * gshmem's active messages or UCX's emulation, which the target's CPU
 * applies.  CUDA memory: only what a UCX transport can do on it.  A UCX
 * built without CUDA (Debian's) cannot even register it; with CUDA, puts
 * and gets work through cuda_copy, cuda_ipc or GPUDirect RDMA, but
 * cuda_copy and cuda_ipc have no atomics and an emulated atomic would have
 * the target's CPU dereference a GPU address: atomics need an RDMA
 * transport (rc, dc) whose NIC updates GPU memory through GPUDirect RDMA.
 * UCX 1.13 cannot say which transport will serve a peer, so its memory
 * domains are asked instead: can one of the RDMA component ("ib") register
 * CUDA memory?  (That memory domain does so only where nvidia_peermem is
 * loaded.  It does not see UCX_TLS: a job that excludes rc and dc there is
 * answered "yes" and fails at its first atomic, as it did before.) */
static struct {
    unsigned cuda;      /* GST_CAP_* on CUDA memory */
    char cuda_why[200]; /* what lacks, in the transport's words */
} ucx_caps_state;

/* Compiled, not run: reached only where UCX supports CUDA memory. */
static int md_registers_cuda(uct_component_h comp, const char *md_name)
{
    uct_md_config_t *config;
    uct_md_attr_t attr;
    uct_md_h md;
    int yes = 0;

    if (uct_md_config_read(comp, NULL, NULL, &config) != UCS_OK)
        return 0;
    if (uct_md_open(comp, md_name, config, &md) == UCS_OK) {
        yes = uct_md_query(md, &attr) == UCS_OK && (attr.cap.flags & UCT_MD_FLAG_REG) &&
              (attr.cap.reg_mem_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA));
        uct_md_close(md);
    }
    uct_config_release(config);
    return yes;
}

static int rdma_registers_cuda(void)
{
    uct_component_h *comps;
    unsigned n_comps;
    int yes = 0;

    if (uct_query_components(&comps, &n_comps) != UCS_OK)
        return 0;
    for (unsigned c = 0; c < n_comps && !yes; c++) {
        uct_component_attr_t attr = {.field_mask = UCT_COMPONENT_ATTR_FIELD_NAME |
                                                   UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT};
        uct_md_resource_desc_t *mds;

        if (uct_component_query(comps[c], &attr) != UCS_OK || strcmp(attr.name, "ib") != 0 ||
            attr.md_resource_count == 0)
            continue;
        mds = calloc(attr.md_resource_count, sizeof(*mds));
        attr.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
        attr.md_resources = mds;
        if (mds && uct_component_query(comps[c], &attr) == UCS_OK)
            for (unsigned m = 0; m < attr.md_resource_count && !yes; m++)
                yes = md_registers_cuda(comps[c], mds[m].md_name);
        free(mds);
    }
    uct_release_component_list(comps);
    return yes;
}

static void learn_caps(void)
{
    ucp_context_attr_t attr = {.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES};

    ucx_caps_state.cuda = 0;
    if (ucp_context_query(gst_ucx.context, &attr) != UCS_OK ||
        !(attr.memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA))) {
        snprintf(ucx_caps_state.cuda_why, sizeof(ucx_caps_state.cuda_why),
                 "this UCX has no CUDA support");
        return;
    }
    ucx_caps_state.cuda = GST_CAP_PUT | GST_CAP_GET;
    if (rdma_registers_cuda())
        ucx_caps_state.cuda |= GST_CAP_AMO;
    else
        snprintf(ucx_caps_state.cuda_why, sizeof(ucx_caps_state.cuda_why),
                 "UCX's cuda_copy and cuda_ipc have no atomics, and no RDMA device here "
                 "registers CUDA memory (GPUDirect RDMA: nvidia_peermem)");
}

static unsigned ucx_caps(gst_mem_type_t mem_type, char *why, size_t whylen)
{
    if (mem_type == GST_MEM_HOST)
        return GST_CAP_ALL;
    snprintf(why, whylen, "%s", ucx_caps_state.cuda_why);
    return ucx_caps_state.cuda;
}

static gsi_status_t connect_peers(const gst_init_args_t *args, char *err, size_t errlen)
{
    ucp_address_t *address;
    size_t address_len, stride;
    char *addresses;
    ucs_status_t status;
    gsi_status_t gst;

    status = ucp_worker_get_address(gst_ucx.worker, &address, &address_len);
    if (status != UCS_OK)
        return gst_ucx_failed(err, errlen, "ucp_worker_get_address", status);
    gst = gst_ucx_gather_blobs(args, address, address_len, &addresses, &stride);
    ucp_worker_release_address(gst_ucx.worker, address);
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
        status = ucp_ep_create(gst_ucx.worker, &ep_params, &gst_ucx.ep[pe]);
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
 * allowed and UCX allocates such memory (src/net/ucx/ucx_rehome.h), registered as
 * it is otherwise.  *ucx_base is where remote PEs address it. */
static gsi_status_t map_region_memory(const gst_init_args_t *args, int r, uint64_t *ucx_base,
                                      char *err, size_t errlen)
{
    ucp_mem_map_params_t mp = {0};
    ucs_status_t status;
    void *moved;
    int rehomed = -1;

    if (args->private_regions)
        rehomed = gst_ucx_rehome(gst_ucx.context, args->base[r], args->size[r], &gst_ucx.mem[r],
                                 &moved, err, errlen);
    if (rehomed == 0) {
        *ucx_base = (uint64_t)(uintptr_t)moved;
        return GSI_OK;
    }
    if (rehomed == -2)
        return GSI_ERR_SYSTEM;
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = args->base[r];
    mp.length = args->size[r];
    *ucx_base = (uint64_t)(uintptr_t)args->base[r];
    status = ucp_mem_map(gst_ucx.context, &mp, &gst_ucx.mem[r]);
    return status == UCS_OK ? GSI_OK : gst_ucx_failed(err, errlen, "ucp_mem_map", status);
}

/* Where UCX's shared-memory transports reach PE pe's region r, which moved
 * onto their memory (src/net/ucx/ucx_rehome.h), they map it into this process as
 * well: its puts, gets and atomics are then plain copies and atomic
 * instructions on that mapping (src/net/ucx/ucx_rma.c), with no UCX call and no
 * lock.  A put ping-pong over posix took 68 ns through ucp_put_nbx.
 * (Other transports: ucp_rkey_ptr fails, and UCX carries the operations.) */
static void map_direct(int pe, int r)
{
    size_t i = (size_t)pe * (size_t)gst_ucx.n_regions + (size_t)r;
    void *p;

    if (gst_ucx.moved[i] && ucp_rkey_ptr(gst_ucx.rkey[i], gst_ucx.peer_base[i], &p) == UCS_OK)
        gst_ucx.direct[i] = p;
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

        gst = map_region_memory(args, r, &ucx_base, err, errlen);
        if (gst != GSI_OK)
            return gst;
        status = ucp_rkey_pack(gst_ucx.context, gst_ucx.mem[r], &packed, &packed_len);
        if (status != UCS_OK)
            return gst_ucx_failed(err, errlen, "ucp_rkey_pack", status);
        blob = malloc(sizeof(ucx_base) + packed_len);
        if (!blob) {
            ucp_rkey_buffer_release(packed);
            snprintf(err, errlen, "out of memory for a %zu-byte rkey", packed_len);
            return GSI_ERR_NOMEM;
        }
        memcpy(blob, &ucx_base, sizeof(ucx_base));
        memcpy(blob + sizeof(ucx_base), packed, packed_len);
        ucp_rkey_buffer_release(packed);
        gst = gst_ucx_gather_blobs(args, blob, sizeof(ucx_base) + packed_len, &all, &stride);
        free(blob);
        if (gst != GSI_OK) {
            snprintf(err, errlen, "exchanging UCX rkeys failed");
            return gst;
        }
        for (int pe = 0; pe < args->n_pes; pe++) {
            if (!gst_ucx.ep[pe])
                continue;
            memcpy(&gst_ucx.peer_base[pe * args->n_regions + r], all + (size_t)pe * stride,
                   sizeof(uint64_t));
            gst_ucx.moved[pe * args->n_regions + r] = gst_ucx.peer_base[pe * args->n_regions + r] !=
                                                      args->peer_base[pe * args->n_regions + r];
            status = ucp_ep_rkey_unpack(gst_ucx.ep[pe],
                                        all + (size_t)pe * stride + sizeof(uint64_t),
                                        &gst_ucx.rkey[pe * args->n_regions + r]);
            if (status != UCS_OK) {
                free(all);
                return gst_ucx_failed(err, errlen, "ucp_ep_rkey_unpack", status);
            }
            map_direct(pe, r);
        }
        free(all);
    }
    return GSI_OK;
}

/* Which peers get small operations as our active messages (src/net/ucx/ucx_am.h):
 * args->am_rma -1 those UCX reaches with no RMA lane, 1 every peer, 0
 * none.  The handlers are installed whatever this PE chose: peers may
 * send to it. */
static gsi_status_t start_am(const gst_init_args_t *args, char *err, size_t errlen)
{
    gst_ucx_am_args_t am = {.worker = gst_ucx.worker,
                            .ep = gst_ucx.ep,
                            .my_pe = args->my_pe,
                            .n_pes = args->n_pes,
                            .n_regions = args->n_regions,
                            .base = args->base,
                            .size = args->size};
    gsi_status_t status = gst_ucx_am_init(&am, err, errlen);

    if (status != GSI_OK)
        return status;
    gst_ucx.am_on = 1;
    for (int pe = 0; pe < args->n_pes; pe++)
        gst_ucx.am_peer[pe] = gst_ucx.ep[pe] && args->am_rma != 0 &&
                              (args->am_rma > 0 || gst_ucx_am_wanted(gst_ucx.ep[pe]));
    return GSI_OK;
}

static void ucx_teardown(void);

static gsi_status_t ucx_init(const gst_init_args_t *args, char *err, size_t errlen)
{
    size_t cells = (size_t)args->n_pes * (size_t)args->n_regions;
    gsi_status_t status;

    if (args->n_regions > GST_MAX_REGIONS) {
        snprintf(err, errlen, "UCX transport: %d regions, at most %d", args->n_regions,
                 GST_MAX_REGIONS);
        return GSI_ERR_INVALID;
    }
    memset(&gst_ucx, 0, sizeof(gst_ucx));
    gst_ucx.n_pes = args->n_pes;
    gst_ucx.n_regions = args->n_regions;
    gst_ucx.wake_fd[0] = gst_ucx.wake_fd[1] = -1;
    gst_ucx.ep = calloc((size_t)args->n_pes, sizeof(*gst_ucx.ep));
    gst_ucx.rkey = calloc(cells, sizeof(*gst_ucx.rkey));
    gst_ucx.peer_base = malloc(cells * sizeof(*gst_ucx.peer_base));
    gst_ucx.moved = calloc(cells, 1);
    gst_ucx.am_peer = calloc((size_t)args->n_pes, 1);
    gst_ucx.direct = calloc(cells, sizeof(*gst_ucx.direct));
    gst_ucx.fin_gather = malloc((size_t)args->n_pes);
    if (!gst_ucx.ep || !gst_ucx.rkey || !gst_ucx.peer_base || !gst_ucx.moved || !gst_ucx.am_peer ||
        !gst_ucx.direct || !gst_ucx.fin_gather) {
        snprintf(err, errlen, "out of memory for %d PEs", args->n_pes);
        status = GSI_ERR_NOMEM;
        goto err_finalize;
    }
    memcpy(gst_ucx.peer_base, args->peer_base, cells * sizeof(*gst_ucx.peer_base));
    gst_ucx.allgather = args->allgather;
    status = open_worker(args, err, errlen);
    if (status == GSI_OK) {
        learn_caps();
        status = connect_peers(args, err, errlen);
    }
    if (status == GSI_OK)
        status = register_regions(args, err, errlen);
    if (status == GSI_OK)
        status = start_am(args, err, errlen);
    /* Anything UCX made since (none is expected) is closed as well. */
    if (status == GSI_OK)
        status = gst_ucx_private_seal(err, errlen);
    gst_ucx_private_end();
    if (status != GSI_OK)
        goto err_finalize;
    if (args->progress_thread != 0) {
        if (pipe(gst_ucx.wake_fd) != 0 ||
            pthread_create(&gst_ucx.progress, NULL, progress_main, NULL) != 0) {
            snprintf(err, errlen, "cannot start the progress thread: %s", strerror(errno));
            status = GSI_ERR_SYSTEM;
            goto err_finalize;
        }
        gst_ucx.progress_running = 1;
    }
    return GSI_OK;

err_finalize:
    ucx_teardown();
    return status;
}

/* Releases everything; local (also the way out of a failed init). */
static void ucx_teardown(void)
{
    if (gst_ucx.progress_running) {
        __atomic_store_n(&gst_ucx.stopping, 1, __ATOMIC_RELAXED);
        /* The byte only cuts the thread's sleep short: without it the
         * thread still sees the flag within PROGRESS_MAX_MS. */
        if (write(gst_ucx.wake_fd[1], "x", 1) < 0) {
        }
        pthread_join(gst_ucx.progress, NULL);
        gst_ucx.progress_running = 0;
    }
    for (int fd = 0; fd < 2; fd++)
        if (gst_ucx.wake_fd[fd] >= 0)
            close(gst_ucx.wake_fd[fd]);
    for (size_t i = 0; gst_ucx.rkey && i < (size_t)gst_ucx.n_pes * (size_t)gst_ucx.n_regions; i++)
        if (gst_ucx.rkey[i])
            ucp_rkey_destroy(gst_ucx.rkey[i]);
    for (int r = 0; r < GST_MAX_REGIONS; r++)
        gst_ucx_extra_release(r);
    gst_ucx_local_release();
    if (gst_ucx.am_on)
        gst_ucx_am_finalize();
    for (int pe = 0; gst_ucx.ep && pe < gst_ucx.n_pes; pe++) {
        if (!gst_ucx.ep[pe])
            continue;
        {
            ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                     .flags = UCP_EP_CLOSE_FLAG_FORCE};
            gst_ucx_wait_request(ucp_ep_close_nbx(gst_ucx.ep[pe], &p));
        }
    }
    for (int r = 0; r < gst_ucx.n_regions; r++)
        if (gst_ucx.mem[r])
            ucp_mem_unmap(gst_ucx.context, gst_ucx.mem[r]);
    if (gst_ucx.worker)
        ucp_worker_destroy(gst_ucx.worker);
    if (gst_ucx.context)
        ucp_cleanup(gst_ucx.context);
    free(gst_ucx.ep);
    free(gst_ucx.rkey);
    free(gst_ucx.peer_base);
    free(gst_ucx.moved);
    free(gst_ucx.am_peer);
    free(gst_ucx.direct);
    free(gst_ucx.fin_gather);
    memset(&gst_ucx, 0, sizeof(gst_ucx));
}

/* Collective, after shmem_finalize's barrier.  A PE leaves that barrier
 * once its own flags have arrived; the flags it sent last may still be on
 * their way - in UCX's queues or the socket's buffers (TCP), or owed as a
 * reply to a peer's atomic that UCX emulates with messages.  Closing the
 * endpoints with FORCE, destroying the worker and exiting then drop them
 * (closing a TCP socket that still holds unread bytes even resets the
 * connection, and the peer loses what it had received but not read yet),
 * and a peer waits in the barrier forever: the job printed its results
 * but never exited.  So this PE first completes what it sent, locally (a
 * worker flush: nothing in UCX's queues), and then waits, through the
 * bootstrap, until every PE has done so, which each does only after
 * leaving the barrier; meanwhile the progress thread still answers peers.
 * Only then does any PE tear its transport down. */
static void ucx_finalize(void)
{
    ucp_request_param_t p = {0};
    char mine = 0;

    gst_ucx_lock();
    /* A failure here leaves nothing to do but tear down. */
    if (gst_ucx.am_on)
        (void)gst_ucx_am_post();
    (void)gst_ucx_wait_request(ucp_worker_flush_nbx(gst_ucx.worker, &p));
    gst_ucx_unlock();
    (void)gst_ucx.allgather(&mine, gst_ucx.fin_gather, 1);
    ucx_teardown();
}

const gst_ops_t gst_ucx_ops = {
    .name = "ucx",
    .init = ucx_init,
    .finalize = ucx_finalize,
    .progress = gst_ucx_progress,
    .put = gst_ucx_put,
    .get = gst_ucx_get,
    .amo = gst_ucx_amo,
    .fence = gst_ucx_fence,
    .quiet = gst_ucx_quiet,
    .map_region = gst_ucx_map_region,
    .caps = ucx_caps,
    .mem_reg = gst_ucx_mem_reg,
    .mem_dereg = gst_ucx_mem_dereg,
    .put_nbi = gst_ucx_put_nbi,
    .get_nbi = gst_ucx_get_nbi,
    .p_nbi = gst_ucx_p_nbi,
    .amo_nbi = gst_ucx_amo_nbi,
    .post = gst_ucx_post,
};

#endif /* GSHMEM_HAVE_UCX */
