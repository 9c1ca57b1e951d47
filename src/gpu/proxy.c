/* src/gpu/proxy.c - the proxy: host threads that drain the device API's
 * channels (device/gsd/channel.h) and carry each descriptor out through
 * the network transport.
 *
 * Each channel has one consumer, so descriptors of a channel are executed
 * in ticket order.  Fetches complete before the transport returns, so a
 * fetched value is written to its return slot at once; everything else is
 * complete only after the transport's quiet.
 *
 * Idle policy: the proxy shares the node's cores with the PEs and their
 * lanes.  IDLE_SPIN tight polls, then sched_yield until IDLE_YIELD_NS
 * after the last descriptor: a yield returns at once when no other thread
 * wants the core and hands it over when one does, so for a millisecond
 * after traffic the next burst is picked up within microseconds.  Then:
 *   - host lanes (the channels' memory is host memory): the proxy sleeps
 *     on a futex that a lane's publish or quiet wakes (gsd/channel.h,
 *     "sleep").  Worker 0's sleep still ends after IDLE_WAKE_NS where the
 *     transport has a progress call, to progress it for peers' operations
 *     on this PE while the PE's own threads compute (their waits, host and
 *     lanes', progress it themselves); the other sleeps have no timeout.
 *     The GPU's timed sleeps (below) meant 5000 wake-ups a second on the
 *     PE's core, which cost its 1 MiB puts over UCX shared memory a tenth
 *     of their bandwidth (perftest put_bw, GSHMEM_DISABLE_P2P=1: median
 *     40 GB/s; 47 with 5 ms sleeps).
 *   - GPU threads cannot wake a host thread: sleeps of idle / 256 (10 us
 *     to 200 us), so a burst after a long idle waits 200 us at most.
 *
 * Completion: PUT, P, non-fetching AMO, PUT_SIGNAL and the strided ops are
 * issued through the transport's non-blocking forms (transport.h) and
 * completed by its quiet, which runs only for a channel that issued
 * something since its last one; what the transport packs is posted at the
 * end of each pass. */
#define _GNU_SOURCE
#include "config.h"
#include "gpu/proxy.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "core/pe.h"
#include "core/wait.h"
#include "gpu/devmem.h"
#include "topo/topo.h"

/* gshmemi_proxy_wake is called from the host lanes' inline code
 * (gsd/proxy.h's gsd_chan_wake, which a host drain calls too). */
#pragma GCC visibility push(default)
#include "gsd/proxy.h"
#pragma GCC visibility pop

#define LINE 64                    /* each counter on its own cache line */
#define IDLE_SPIN 64               /* tight polls before yielding */
#define IDLE_YIELD_NS 1000000ull   /* then yield this long */
#define IDLE_SLEEP_MIN_NS 10000ull /* then sleep idle/256, within these */
#define IDLE_SLEEP_MAX_NS 200000ull
#define IDLE_WAKE_NS 5000000ull /* the sleep when producers wake the proxy */
#define BATCH 256               /* descriptors per channel per pass */

static const char proxy_fn[] = "gshmem proxy";

/* ---- channels ----------------------------------------------------------- */

static size_t mapped_size(uint32_t size, uint32_t n_ret)
{
    return (size_t)size * sizeof(gsd_desc_t) + 4 * LINE + (size_t)n_ret * sizeof(gsd_ret_t);
}

/* Point c's words into the mapped block m and the device block d.
 * quiet_req (GPU atomics) and quiet_host (CPU atomics) are two words on two
 * lines: over PCIe the two sides' atomics on one word would not be atomic
 * with respect to each other (gsd/channel.h, "Who writes which word"). */
static void lay_out(gsd_channel_t *c, char *m, char *d, uint32_t size, uint32_t n_ret)
{
    char *counters = m + (size_t)size * sizeof(gsd_desc_t);

    c->ring = (gsd_desc_t *)(void *)m;
    c->tail = (uint64_t *)(void *)counters;
    c->done = (uint64_t *)(void *)(counters + LINE);
    c->quiet_req = (uint64_t *)(void *)(counters + 2 * LINE);
    c->quiet_host = (uint64_t *)(void *)(counters + 3 * LINE);
    c->ret = (gsd_ret_t *)(void *)(counters + 4 * LINE);
    c->head = (uint64_t *)(void *)d;
    c->tail_cache = (uint64_t *)(void *)(d + LINE);
    c->ret_head = (uint64_t *)(void *)(d + 2 * LINE);
    c->size = size;
    c->n_ret = n_ret;
}

gsi_status_t gsi_proxy_chan_create(const gsi_devmem_ops_t *mem, uint32_t size, uint32_t n_ret,
                                   int index, gsi_proxy_chan_t *ch)
{
    gsi_proxy_chan_t made = {.index = index};
    void *mapped_dev = NULL;

    if (size < 2 || (size & (size - 1)) || n_ret < 1 || (n_ret & (n_ret - 1)))
        return GSI_ERR_INVALID;
    made.mapped = mem->alloc_mapped(mapped_size(size, n_ret), &mapped_dev);
    if (!made.mapped)
        return GSI_ERR_NOMEM;
    made.device = mem->alloc_device(3 * LINE);
    if (!made.device)
        goto err_free_mapped;
    /* The proxy never touches the device words; the host view keeps their
     * device addresses too, for the tests that produce from host threads. */
    lay_out(&made.host, made.mapped, made.device, size, n_ret);
    lay_out(&made.dev, mapped_dev, made.device, size, n_ret);
    /* Host memory: the producers are host lanes (or host threads), which
     * can wake a sleeping consumer; the group points wake at its word. */
    made.wakeable = mem == &gsi_devmem_host;
    /* Return slot i is free for ticket i. */
    for (uint32_t i = 0; i < n_ret; i++)
        made.host.ret[i].seq = 2 * (uint64_t)i;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    *ch = made;
    return GSI_OK;

err_free_mapped:
    mem->free_mapped(made.mapped);
    return GSI_ERR_NOMEM;
}

void gsi_proxy_chan_destroy(const gsi_devmem_ops_t *mem, gsi_proxy_chan_t *ch)
{
    if (ch->mapped)
        mem->free_mapped(ch->mapped);
    if (ch->device)
        mem->free_device(ch->device);
    memset(ch, 0, sizeof(*ch));
}

/* ---- executing one descriptor -------------------------------------------- */

static const char *op_name(unsigned kind)
{
    switch (kind) {
    case GSD_OP_PUT: return "put";
    case GSD_OP_GET: return "get";
    case GSD_OP_P: return "p";
    case GSD_OP_AMO: return "atomic";
    case GSD_OP_PUT_SIGNAL: return "put-with-signal";
    case GSD_OP_FENCE: return "fence";
    case GSD_OP_IPUT: return "iput";
    case GSD_OP_IGET: return "iget";
    }
    return "?";
}

static _Noreturn __attribute__((cold)) void bad_desc(const gsi_proxy_chan_t *ch, uint64_t t,
                                                     const gsd_desc_t *d, const char *what)
{
    gsi_fatal(proxy_fn, "channel %d, descriptor %llu (op word %#x, PE %d, %llu bytes): %s",
              ch->index, (unsigned long long)t, (unsigned)d->op, (int)d->pe,
              (unsigned long long)d->len, what);
}

static _Noreturn __attribute__((cold)) void net_failed(const gst_ops_t *net, unsigned kind,
                                                       const gsd_desc_t *d, gsi_status_t status)
{
    gsi_fatal(proxy_fn, "transport %s: %s of %llu bytes to PE %d failed: %s", net->name,
              op_name(kind), (unsigned long long)d->len, (int)d->pe, gsi_status_str(status));
}

/* The transport's non-blocking forms where it has them, else the blocking
 * ones.  Either way the operation is complete only after the transport's
 * quiet (which a channel's quiet or a drain calls): a put that returned
 * has only left its source. */
static inline gsi_status_t put_nbi(const gst_ops_t *net, int pe, int region, uint64_t offset,
                                   const void *src, size_t len)
{
    return net->put_nbi ? net->put_nbi(pe, region, offset, src, len)
                        : net->put(pe, region, offset, src, len);
}

static inline gsi_status_t get_nbi(const gst_ops_t *net, void *dst, int pe, int region,
                                   uint64_t offset, size_t len)
{
    return net->get_nbi ? net->get_nbi(dst, pe, region, offset, len)
                        : net->get(dst, pe, region, offset, len);
}

/* The value goes by value: nothing of the descriptor is read later. */
static inline gsi_status_t p_nbi(const gst_ops_t *net, int pe, int region, uint64_t offset,
                                 uint64_t value, size_t len)
{
    /* The low-order bytes of value (little-endian hosts). */
    return net->p_nbi ? net->p_nbi(pe, region, offset, value, len)
                      : net->put(pe, region, offset, &value, len);
}

/* An atomic without a result; SWAP, CSWAP and FETCH are not among them. */
static inline gsi_status_t amo_nbi(const gst_ops_t *net, int pe, int region, uint64_t offset,
                                   gst_amo_op_t op, size_t size, uint64_t operand)
{
    return net->amo_nbi ? net->amo_nbi(pe, region, offset, op, size, operand)
                        : net->amo(pe, region, offset, op, size, &operand, NULL, NULL);
}

void (*gsi_proxy_flush)(void) = gsi_cuda_flush_remote_writes;

/* A strided iput or iget (GSD_OP_IPUT/IGET): one transport call per element,
 * none waited for; the lane's quiet completes them. */
static gsi_status_t strided(const gst_ops_t *net, unsigned kind, const gsd_desc_t *d, int region,
                            size_t size)
{
    int64_t sym_st = (int64_t)d->value, loc_st = (int64_t)d->aux;
    uint64_t offset = d->offset;
    char *local = (char *)(uintptr_t)d->local;
    gsi_status_t status = GSI_OK;

    for (uint64_t i = 0; i < d->len && status == GSI_OK; i++) {
        status = kind == GSD_OP_IPUT ? put_nbi(net, d->pe, region, offset, local, size)
                                     : get_nbi(net, local, d->pe, region, offset, size);
        offset += (uint64_t)sym_st;
        local += loc_st;
    }
    return status;
}

/* d is the ring's own slot: it stays the proxy's until tail moves past it. */
static void execute(gsi_proxy_chan_t *ch, const gst_ops_t *net, const gsd_desc_t *d, uint64_t t)
{
    unsigned kind = GSD_DESC_KIND(d->op), region = GSD_DESC_REGION(d->op);
    unsigned aux2 = GSD_DESC_AUX2(d->op);
    int fetch = d->ret != GSD_NO_RET;
    uint64_t fetched = 0;
    gsi_status_t status = GSI_OK;

    switch (kind) {
    case GSD_OP_PUT:
        status = put_nbi(net, d->pe, (int)region, d->offset, (const void *)(uintptr_t)d->local,
                         d->len);
        break;
    case GSD_OP_P:
        if (d->len != 1 && d->len != 2 && d->len != 4 && d->len != 8)
            bad_desc(ch, t, d, "a p of other than 1, 2, 4 or 8 bytes");
        status = p_nbi(net, d->pe, (int)region, d->offset, d->value, d->len);
        break;
    case GSD_OP_GET:
        if (fetch && d->len > sizeof(fetched))
            bad_desc(ch, t, d, "a get into a return slot of more than 8 bytes");
        if (fetch)
            status = net->get(&fetched, d->pe, (int)region, d->offset, d->len);
        else
            status = get_nbi(net, (void *)(uintptr_t)d->local, d->pe, (int)region, d->offset,
                             d->len);
        ch->unflushed |= !fetch; /* bytes into the lane's memory, maybe the GPU's */
        break;
    case GSD_OP_AMO:
        if (d->len != 4 && d->len != 8)
            bad_desc(ch, t, d, "an atomic of other than 4 or 8 bytes");
        if (aux2 > GSD_AMO_FXOR)
            bad_desc(ch, t, d, "an unknown atomic operation");
        if (!fetch && aux2 != GSD_AMO_SWAP && aux2 != GSD_AMO_CSWAP && aux2 != GSD_AMO_FETCH)
            status = amo_nbi(net, d->pe, (int)region, d->offset, (gst_amo_op_t)aux2, d->len,
                             d->value);
        else
            status = net->amo(d->pe, (int)region, d->offset, (gst_amo_op_t)aux2, d->len, &d->value,
                              &d->aux, fetch ? &fetched : NULL);
        break;
    case GSD_OP_PUT_SIGNAL:
        if (aux2 != GSD_SIGNAL_SET && aux2 != GSD_SIGNAL_ADD)
            bad_desc(ch, t, d, "a signal operation other than SET or ADD");
        /* The fence orders the signal after the data without waiting for
         * the data to land (UCX: ucp_worker_fence; packed messages: their
         * order). */
        status = put_nbi(net, d->pe, (int)region, d->offset, (const void *)(uintptr_t)d->local,
                         d->len);
        if (status == GSI_OK)
            status = net->fence();
        if (status == GSI_OK)
            status = amo_nbi(net, d->pe, (int)GSD_DESC_SIG_REGION(d->op), d->aux,
                             aux2 == GSD_SIGNAL_SET ? GST_AMO_SET : GST_AMO_FADD, sizeof(d->value),
                             d->value);
        break;
    case GSD_OP_IPUT:
    case GSD_OP_IGET:
        if (aux2 == 0)
            bad_desc(ch, t, d, "a strided transfer of 0-byte elements");
        status = strided(net, kind, d, (int)region, aux2);
        ch->unflushed |= kind == GSD_OP_IGET;
        break;
    case GSD_OP_FENCE: status = net->fence(); break;
    default: bad_desc(ch, t, d, "unknown operation");
    }
    if (status != GSI_OK)
        net_failed(net, kind, d, status);
    if (fetch && (kind == GSD_OP_GET || kind == GSD_OP_AMO)) {
        gsd_ret_t *r = &ch->host.ret[d->ret & (ch->host.n_ret - 1)];

        r->value = fetched;
        __atomic_store_n(&r->seq, 2 * d->ret + 1, __ATOMIC_RELEASE);
    } else if (kind != GSD_OP_FENCE) {
        ch->unquiet = 1;
    }
}

/* Is ticket t's descriptor published?  Sequentially consistent (a plain
 * load on x86, like acquire): the sleep's second look needs it ordered
 * after its store of the wake word (gsd/channel.h, "sleep"). */
static inline int published(const gsd_channel_t *c, uint64_t t)
{
    return __atomic_load_n(&c->ring[t & (c->size - 1)].seq, __ATOMIC_SEQ_CST) == t + 1;
}

/* Does a quiet asked by the lanes (quiet_req) or by a host drain
 * (quiet_host, each its own word) wait for the consumer, now at tail t? */
static inline int quiet_due(const gsi_proxy_chan_t *ch, uint64_t t)
{
    uint64_t q = __atomic_load_n(ch->host.quiet_req, __ATOMIC_SEQ_CST);
    uint64_t hq = __atomic_load_n(ch->host.quiet_host, __ATOMIC_SEQ_CST);

    if (hq > q)
        q = hq;
    return q > ch->done && t >= q;
}

size_t gsi_proxy_poll(gsi_proxy_chan_t *ch, const gst_ops_t *net, size_t max)
{
    gsd_channel_t *c = &ch->host;
    uint64_t mask = c->size - 1, t = ch->tail;
    /* Credit flows back at least twice per lap of the ring. */
    size_t publish = c->size / 2 < BATCH ? c->size / 2 : BATCH, n = 0, left = publish;

    /* Per descriptor: one load (plain on x86) and no copy; tail is stored
     * once per `publish`, and once at the end. */
    while (n < max && published(c, t)) {
        execute(ch, net, &c->ring[t & mask], t);
        t++, n++;
        if (--left == 0) {
            left = publish;
            __atomic_store_n(c->tail, t, __ATOMIC_RELEASE);
        }
    }
    if (n) {
        ch->tail = t;
        ch->executed += n;
        __atomic_store_n(c->tail, t, __ATOMIC_RELEASE);
    }
    if (quiet_due(ch, t)) {
        /* Nothing issued since this channel's last quiet (only fetches,
         * which completed as they ran, or fences): no transport quiet. */
        if (ch->unquiet) {
            gsi_status_t status = net->quiet();

            if (status != GSI_OK)
                gsi_fatal(proxy_fn, "transport %s: quiet failed: %s", net->name,
                          gsi_status_str(status));
            ch->unquiet = 0;
        }
        /* Gets into GPU memory since the last flush: visible before done.
         * Puts, AMOs and fetches (their values come back through the
         * mapped return slots) write no GPU memory here: no flush. */
        if (ch->unflushed) {
            gsi_proxy_flush();
            ch->unflushed = 0;
        }
        ch->done = t;
        __atomic_store_n(c->done, t, __ATOMIC_RELEASE);
    }
    return n;
}

void gsi_proxy_chan_drain(gsi_proxy_chan_t *ch, const char *fn)
{
    gsd_channel_t *c = &ch->host;
    uint64_t mask = c->size - 1, from = __atomic_load_n(c->tail, __ATOMIC_ACQUIRE), end = from;
    uint64_t q;
    gsi_waiter_t w = GSI_WAITER_INIT;

    while (end - from < c->size &&
           __atomic_load_n(&c->ring[end & mask].seq, __ATOMIC_ACQUIRE) == end + 1)
        end++;
    if (__atomic_load_n(c->done, __ATOMIC_ACQUIRE) >= end)
        return;
    /* Ask through the host's own word: quiet_req takes the GPU's atomics,
     * and a CPU CAS on it would not be atomic with them (gsd/channel.h). */
    q = __atomic_load_n(c->quiet_host, __ATOMIC_ACQUIRE);
    while (q < end && !__atomic_compare_exchange_n(c->quiet_host, &q, end, 0, __ATOMIC_SEQ_CST,
                                                   __ATOMIC_ACQUIRE))
        ;
    /* A sleeping consumer would answer only at its timeout (gsd/channel.h, "sleep"). */
    gsd_chan_wake(c);
    while (__atomic_load_n(c->done, __ATOMIC_ACQUIRE) < end)
        gsi_wait_step(&w, fn, "the proxy to complete what device code queued");
}

/* ---- consumer threads ---------------------------------------------------- */

/* Each worker on its own cache line: producers read `sleep` after every
 * publish, so nothing else written often may share its line. */
typedef struct gsi_proxy_worker {
    uint32_t sleep; /* the futex word: 1 while asleep (gsd/channel.h, "sleep") */
    int wakeable;   /* every channel's producers can wake it */
    pthread_t thread;
    struct gsi_proxy_group *group;
    int k;
    int started;
} __attribute__((aligned(64))) gsi_proxy_worker_t;

struct gsi_proxy_group {
    gsi_proxy_chan_t *chans;
    int n_chan, n_threads;
    const gst_ops_t *net;
    int stop;
    gsi_proxy_worker_t *workers;
};

void gshmemi_proxy_wake(uint32_t *word)
{
    /* Of the lanes that saw 1, one makes the call. */
    if (__atomic_exchange_n(word, 0, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Would a pass over w's channels do anything (gsi_proxy_poll's own two
 * tests), or is the group stopping?  The second look of the sleep. */
static int worker_has_work(const gsi_proxy_worker_t *w)
{
    const gsi_proxy_group_t *g = w->group;

    if (__atomic_load_n(&g->stop, __ATOMIC_SEQ_CST))
        return 1;
    for (int c = w->k; c < g->n_chan; c += g->n_threads) {
        const gsi_proxy_chan_t *ch = &g->chans[c];

        if (published(&ch->host, ch->tail) || quiet_due(ch, ch->tail))
            return 1;
    }
    return 0;
}

/* Sleep until a producer wakes w, or for at most ns (0: no limit). */
static void sleep_wakeable(gsi_proxy_worker_t *w, uint64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
                          .tv_nsec = (long)(ns % 1000000000ull)};

    __atomic_store_n(&w->sleep, 1, __ATOMIC_SEQ_CST);
    if (!worker_has_work(w))
        syscall(SYS_futex, &w->sleep, FUTEX_WAIT_PRIVATE, 1, ns ? &ts : NULL, NULL, 0);
    __atomic_store_n(&w->sleep, 0, __ATOMIC_RELAXED);
}

/* One idle pass (nothing was ready on any of the worker's channels). */
static void idle_step(gsi_proxy_worker_t *w, unsigned *idle, uint64_t *idle_since)
{
    uint64_t idle_ns, sleep_ns;
    struct timespec ts;

    if (++*idle <= IDLE_SPIN) {
        gsi_cpu_relax();
        return;
    }
    if (*idle == IDLE_SPIN + 1)
        *idle_since = gsi_now_ns();
    idle_ns = gsi_now_ns() - *idle_since;
    if (idle_ns < IDLE_YIELD_NS) {
        sched_yield();
        return;
    }
    if (w->wakeable) {
        /* Producers wake it: a timeout only where there is progress to make. */
        sleep_wakeable(w, w->k == 0 && w->group->net->progress ? IDLE_WAKE_NS : 0);
        return;
    }
    sleep_ns = idle_ns / 256;
    if (sleep_ns < IDLE_SLEEP_MIN_NS)
        sleep_ns = IDLE_SLEEP_MIN_NS;
    if (sleep_ns > IDLE_SLEEP_MAX_NS)
        sleep_ns = IDLE_SLEEP_MAX_NS;
    ts.tv_sec = 0;
    ts.tv_nsec = (long)sleep_ns;
    nanosleep(&ts, NULL);
}

/* Execute everything published, then complete it. */
static void drain(gsi_proxy_group_t *g, int k)
{
    size_t n;
    int pending = 0, unflushed = 0;

    do {
        n = 0;
        for (int c = k; c < g->n_chan; c += g->n_threads)
            n += gsi_proxy_poll(&g->chans[c], g->net, (size_t)-1);
    } while (n);
    for (int c = k; c < g->n_chan; c += g->n_threads) {
        pending |= g->chans[c].done < g->chans[c].tail;
        unflushed |= g->chans[c].unflushed;
    }
    if (!pending)
        return;
    if (g->net->quiet() != GSI_OK)
        GSI_WARN("%s: transport %s: quiet at finalize failed", proxy_fn, g->net->name);
    if (unflushed)
        gsi_proxy_flush(); /* gets into GPU memory: visible before done */
    for (int c = k; c < g->n_chan; c += g->n_threads) {
        gsi_proxy_chan_t *ch = &g->chans[c];

        ch->unflushed = 0;
        ch->done = ch->tail;
        __atomic_store_n(ch->host.done, ch->tail, __ATOMIC_RELEASE);
    }
}

static void *worker_main(void *arg)
{
    gsi_proxy_worker_t *w = arg;
    gsi_proxy_group_t *g = w->group;
    unsigned idle = 0;
    uint64_t idle_since = 0;

    /* Short sleeps must be short: no timer slack. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    /* On the cores placement chose: near the GPU, off the PEs' own. */
    gsi_topo_bind_proxy_thread();
    /* With a GPU, the transport copies device memory: the context must be
     * current, and the relaxed capture mode keeps its driver calls from
     * invalidating a program's stream capture. */
    gsi_cuda_bind_library_thread();
    while (!__atomic_load_n(&g->stop, __ATOMIC_ACQUIRE)) {
        size_t n = 0;

        for (int c = w->k; c < g->n_chan; c += g->n_threads)
            n += gsi_proxy_poll(&g->chans[c], g->net, BATCH);
        if (n) {
            /* Send what the transport packed in this pass: a lone put
             * waits for no later one. */
            if (g->net->post && g->net->post() != GSI_OK)
                gsi_fatal(proxy_fn, "transport %s: sending packed operations failed", g->net->name);
            /* Device code's operations move: no PE is stuck (core/liveness.c). */
            __atomic_add_fetch(&gsi_pe.live_activity, n, __ATOMIC_RELAXED);
            idle = 0;
        } else {
            /* Software transports (shared memory, TCP) need this side to
             * progress for peers' operations on this PE to land. */
            if (w->k == 0 && g->net->progress && idle >= IDLE_SPIN)
                g->net->progress();
            idle_step(w, &idle, &idle_since);
        }
    }
    drain(g, w->k);
    return NULL;
}

gsi_status_t gsi_proxy_group_start(gsi_proxy_chan_t *chans, int n_chan, int n_threads,
                                   const gst_ops_t *net, gsi_proxy_group_t **out)
{
    gsi_proxy_group_t *g;

    if (n_chan < 1 || n_threads < 1)
        return GSI_ERR_INVALID;
    gsi_topo_decide(); /* the cores they bind to, before they run */
    if (n_threads > n_chan)
        n_threads = n_chan;
    g = calloc(1, sizeof(*g));
    if (!g)
        return GSI_ERR_NOMEM;
    g->workers = aligned_alloc(64, (size_t)n_threads * sizeof(*g->workers));
    if (!g->workers) {
        free(g);
        return GSI_ERR_NOMEM;
    }
    memset(g->workers, 0, (size_t)n_threads * sizeof(*g->workers));
    g->chans = chans;
    g->n_chan = n_chan;
    g->n_threads = n_threads;
    g->net = net;
    /* A worker sleeps on a futex only if every producer of its channels
     * can wake it; their wake pointers are set before any thread runs. */
    for (int k = 0; k < n_threads; k++) {
        gsi_proxy_worker_t *w = &g->workers[k];

        w->wakeable = 1;
        for (int c = k; c < n_chan; c += n_threads)
            w->wakeable &= chans[c].wakeable;
        for (int c = k; c < n_chan; c += n_threads)
            chans[c].host.wake = chans[c].dev.wake = w->wakeable ? &w->sleep : NULL;
    }
    for (int k = 0; k < n_threads; k++) {
        gsi_proxy_worker_t *w = &g->workers[k];
        int rc;

        w->group = g;
        w->k = k;
        rc = pthread_create(&w->thread, NULL, worker_main, w);
        if (rc != 0) {
            GSI_WARN("%s: cannot start proxy thread %d: %s", proxy_fn, k, strerror(rc));
            gsi_proxy_group_stop(g);
            return GSI_ERR_SYSTEM;
        }
        w->started = 1;
        pthread_setname_np(w->thread, "gshmem-proxy");
    }
    *out = g;
    return GSI_OK;
}

void gsi_proxy_group_stop(gsi_proxy_group_t *g)
{
    if (!g)
        return;
    __atomic_store_n(&g->stop, 1, __ATOMIC_SEQ_CST);
    for (int k = 0; k < g->n_threads; k++)
        if (g->workers[k].started) {
            gshmemi_proxy_wake(&g->workers[k].sleep);
            pthread_join(g->workers[k].thread, NULL);
        }
    for (int c = 0; c < g->n_chan; c++)
        g->chans[c].host.wake = g->chans[c].dev.wake = NULL;
    free(g->workers);
    free(g);
}

/* ---- the runtime's channels ---------------------------------------------- */

static struct {
    const gsi_devmem_ops_t *mem;
    gsi_proxy_chan_t *chans;
    int n_chan;
    gsd_channel_t *dev; /* [n_chan] device views, in device memory */
    gsi_proxy_group_t *group;
} proxy;

static void proxy_release(void)
{
    for (int i = 0; i < proxy.n_chan; i++)
        gsi_proxy_chan_destroy(proxy.mem, &proxy.chans[i]);
    if (proxy.dev)
        proxy.mem->free_device(proxy.dev);
    free(proxy.chans);
    memset(&proxy, 0, sizeof(proxy));
}

/* gsi_pe.device_drain while the runtime's channels exist. */
static void drain_runtime(const char *fn)
{
    for (int i = 0; i < proxy.n_chan; i++)
        gsi_proxy_chan_drain(&proxy.chans[i], fn);
}

void gsi_proxy_init(const char *fn, const gsi_devmem_ops_t *mem, gsd_state_t *s)
{
    long long ring = gsi_pe.env.proxy_ring;
    int n = (int)gsi_pe.env.proxy_channels;
    gsi_status_t status;

    /* The table checks the range; the power of two is checked here, on
     * every run, so a bad value fails alike with and without a network. */
    if (ring & (ring - 1))
        gsi_fatal(fn,
                  "GSHMEM_PROXY_RING=%lld is not a power of two (accepted: 16, 32, ... "
                  "1048576)",
                  ring);
    s->chan = NULL;
    s->n_chan = 0;
    s->flags &= ~GSD_HAVE_PROXY;
    if (gsi_pe.net == &gst_none_ops)
        return; /* every peer is P2P: device code never needs the proxy */
    proxy.mem = mem;
    proxy.chans = calloc((size_t)n, sizeof(*proxy.chans));
    if (!proxy.chans)
        gsi_fatal(fn, "out of memory for %d proxy channels", n);
    for (int i = 0; i < n; i++) {
        status = gsi_proxy_chan_create(mem, (uint32_t)ring, (uint32_t)ring, i, &proxy.chans[i]);
        if (status != GSI_OK)
            gsi_fatal(fn,
                      "cannot allocate proxy channel %d of %lld descriptors (%s memory): %s "
                      "(lower GSHMEM_PROXY_CHANNELS or GSHMEM_PROXY_RING)",
                      i, ring, mem->name, gsi_status_str(status));
        proxy.n_chan = i + 1;
    }
    proxy.dev = mem->alloc_device((size_t)n * sizeof(gsd_channel_t));
    if (!proxy.dev)
        gsi_fatal(fn, "out of %s memory for %d proxy channels", mem->name, n);
    status = gsi_proxy_group_start(proxy.chans, n, (int)gsi_pe.env.proxy_threads, gsi_pe.net,
                                   &proxy.group);
    if (status != GSI_OK)
        gsi_fatal(fn, "cannot start the proxy threads (GSHMEM_PROXY_THREADS=%lld): %s",
                  gsi_pe.env.proxy_threads, gsi_status_str(status));
    /* After the start, which sets the channels' wake words. */
    for (int i = 0; i < n; i++)
        mem->copy_to_device(&proxy.dev[i], &proxy.chans[i].dev, sizeof(gsd_channel_t));
    s->chan = proxy.dev;
    s->n_chan = n;
    s->flags |= GSD_HAVE_PROXY;
    gsi_pe.device_drain = drain_runtime;
    GSI_DEBUG("proxy: %d channels of %lld descriptors, %d threads, over %s", n, ring,
              (int)(gsi_pe.env.proxy_threads < n ? gsi_pe.env.proxy_threads : n), gsi_pe.net->name);
}

void gsi_proxy_fini(void)
{
    gsi_pe.device_drain = NULL;
    gsi_proxy_group_stop(proxy.group);
    proxy.group = NULL;
    if (proxy.mem)
        proxy_release();
}
