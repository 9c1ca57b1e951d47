/*
 * tests/unit/ring.c - the proxy channel protocol under load: the producer
 * side (device/gsd/proxy.h, the code device kernels run) against the real
 * consumer (src/gpu/proxy.c: its threads, its batching, its quiet), with a
 * recording transport in place of the network.
 *
 * Every descriptor a producer pushes names the producer (pe) and its own
 * sequence number (offset), so the transport sees whether any was lost,
 * executed twice or out of order.  The ring is tiny, so it wraps all the
 * time and producers keep waiting for credit.
 *
 * The quiet words are split (gsd/channel.h, "Who writes which word"): the
 * lanes ask for a quiet through quiet_req only, a host drain through
 * quiet_host only, and the consumer answers either.  The tests below check
 * each side leaves the other's word alone, alone and while both run.
 *
 * GSHMEM_RING_TEST_COUNT sets the total of the big test (default 10^7).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/devmem.h"
#include "gpu/proxy.h"
#include "gsd/proxy.h"

#define MAX_PRODUCERS 16
#define ROUND_TRIP_EVERY 1024 /* a fetching AMO or a g, and its reply */
#define QUIET_EVERY 8192      /* a quiet, then: all of this producer's work is done */

/* ---- the recording transport ------------------------------------------------ */

static struct {
    uint64_t next[MAX_PRODUCERS];     /* next sequence number expected (consumer only) */
    uint64_t executed[MAX_PRODUCERS]; /* read by the producers after a quiet */
    uint64_t total, fences, quiets;
} rec;

/* A lost descriptor would leave its producer waiting for ever (for its
 * reply, or its quiet): the first disorder ends the test at once. */
static void record(int pe, size_t offset)
{
    if (pe < 0 || pe >= MAX_PRODUCERS || offset != rec.next[pe]) {
        fprintf(stderr,
                "ring test: producer %d: descriptor %llu executed where %llu was "
                "expected (lost, duplicated or reordered)\n",
                pe, (unsigned long long)offset,
                pe >= 0 && pe < MAX_PRODUCERS ? (unsigned long long)rec.next[pe] : 0ull);
        abort();
    }
    rec.next[pe] = offset + 1;
    __atomic_store_n(&rec.executed[pe], offset + 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&rec.total, 1, __ATOMIC_RELEASE);
}

static gsi_status_t rec_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    (void)region, (void)src, (void)len;
    record(pe, offset);
    return GSI_OK;
}

/* A g: the value is a function of where it was read. */
static uint64_t g_value(int pe, size_t offset)
{
    return (uint64_t)offset * 1000003u + (uint64_t)pe;
}

static gsi_status_t rec_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    uint64_t v = g_value(pe, offset);

    (void)region;
    memcpy(dst, &v, len < sizeof(v) ? len : sizeof(v));
    record(pe, offset);
    return GSI_OK;
}

/* A fetching AMO: the old value is a function of the operand. */
static gsi_status_t rec_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched)
{
    uint64_t v = 0;

    (void)region, (void)op, (void)compare;
    memcpy(&v, operand, size);
    v = v * 3 + 1;
    if (fetched)
        memcpy(fetched, &v, size);
    record(pe, offset);
    return GSI_OK;
}

static gsi_status_t rec_fence(void)
{
    rec.fences++;
    return GSI_OK;
}

static gsi_status_t rec_quiet(void)
{
    __atomic_fetch_add(&rec.quiets, 1, __ATOMIC_RELAXED);
    return GSI_OK;
}

static const gst_ops_t rec_ops = {
    .name = "recording",
    .put = rec_put,
    .get = rec_get,
    .amo = rec_amo,
    .fence = rec_fence,
    .quiet = rec_quiet,
};

/* ---- producers -------------------------------------------------------------- */

typedef struct producer {
    pthread_t thread;
    gsd_channel_t *chan;
    int pe;
    uint64_t count;
    uint64_t errors; /* wrong replies, incomplete quiets */
    char first_error[160];
} producer_t;

static void fail(producer_t *p, const char *what, uint64_t got, uint64_t expected)
{
    if (!p->errors++)
        snprintf(p->first_error, sizeof(p->first_error),
                 "producer %d: %s: got %llu, expected %llu", p->pe, what,
                 (unsigned long long)got, (unsigned long long)expected);
}

static void *produce(void *arg)
{
    producer_t *p = arg;
    gsd_channel_t *c = p->chan;

    for (uint64_t s = 0; s < p->count; s++) {
        /* Zero-valued apart from the op, pe and sequence: legal. */
        gsd_desc_t d = {0};

        d.op = GSD_DESC_OP(GSD_OP_PUT, 0, 0, 0);
        d.pe = p->pe;
        d.offset = s;
        if (s % ROUND_TRIP_EVERY == ROUND_TRIP_EVERY - 1) {
            uint64_t r = gsd_ret_take(c), v;

            d.ret = r;
            if (s / ROUND_TRIP_EVERY % 2) {
                d.op = GSD_DESC_OP(GSD_OP_AMO, 0, 0, GSD_AMO_FADD);
                d.len = 8;
                d.value = s ^ 0x5a5a;
                gsd_chan_push(c, &d);
                v = gsd_ret_wait(c, r, "ring test");
                if (v != (s ^ 0x5a5a) * 3 + 1)
                    fail(p, "fetching AMO reply", v, (s ^ 0x5a5a) * 3 + 1);
            } else {
                d.op = GSD_DESC_OP(GSD_OP_GET, 0, 0, 0);
                d.len = 8;
                gsd_chan_push(c, &d);
                v = gsd_ret_wait(c, r, "ring test");
                if (v != g_value(p->pe, s))
                    fail(p, "g reply", v, g_value(p->pe, s));
            }
        } else {
            gsd_chan_push(c, &d);
        }
        if (s % QUIET_EVERY == QUIET_EVERY - 1) {
            uint64_t done;

            gsd_chan_quiet(c);
            done = __atomic_load_n(&rec.executed[p->pe], __ATOMIC_ACQUIRE);
            if (done != s + 1)
                fail(p, "descriptors executed when quiet returned", done, s + 1);
        }
    }
    gsd_chan_quiet(c);
    return NULL;
}

/* A host thread that drains every channel while the producers run, as the
 * runtime's device_drain hook does from a host thread (shmem_free). */
typedef struct drainer {
    pthread_t thread;
    gsi_proxy_chan_t *chans;
    int n_chan;
    int stop;
    uint64_t drains;
} drainer_t;

static void *drain_loop(void *arg)
{
    drainer_t *dr = arg;

    while (!__atomic_load_n(&dr->stop, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < dr->n_chan; i++)
            gsi_proxy_chan_drain(&dr->chans[i], "ring test drainer");
        dr->drains++;
    }
    return NULL;
}

/* with_drainer: a host thread drains all the time (quiet_host in use). */
static void run(int n_chan, int n_threads, int n_producers, uint32_t size, uint32_t n_ret,
                uint64_t total, int with_drainer)
{
    gsi_proxy_chan_t chans[4];
    gsi_proxy_group_t *group;
    producer_t prod[MAX_PRODUCERS];
    drainer_t dr = {.n_chan = n_chan};
    uint64_t expected_total = 0;

    memset(&rec, 0, sizeof(rec));
    for (int i = 0; i < n_chan; i++)
        cr_assert_eq(gsi_proxy_chan_create(&gsi_devmem_host, size, n_ret, i, &chans[i]),
                     GSI_OK);
    cr_assert_eq(gsi_proxy_group_start(chans, n_chan, n_threads, &rec_ops, &group), GSI_OK);
    for (int i = 0; i < n_producers; i++) {
        prod[i] = (producer_t){.chan = &chans[i % n_chan].dev,
                               .pe = i,
                               .count = total / n_producers + (i < (int)(total % n_producers))};
        expected_total += prod[i].count;
        cr_assert_eq(pthread_create(&prod[i].thread, NULL, produce, &prod[i]), 0);
    }
    dr.chans = chans;
    if (with_drainer)
        cr_assert_eq(pthread_create(&dr.thread, NULL, drain_loop, &dr), 0);
    for (int i = 0; i < n_producers; i++)
        pthread_join(prod[i].thread, NULL);
    if (with_drainer) {
        __atomic_store_n(&dr.stop, 1, __ATOMIC_RELEASE);
        pthread_join(dr.thread, NULL);
        cr_expect_gt(dr.drains, 0, "the drainer never finished a drain");
    }
    gsi_proxy_group_stop(group);

    for (int i = 0; i < n_producers; i++) {
        cr_expect_eq(prod[i].errors, 0, "%s (%llu errors)", prod[i].first_error,
                     (unsigned long long)prod[i].errors);
        cr_expect_eq(rec.next[i], prod[i].count,
                     "producer %d: %llu of %llu descriptors executed", i,
                     (unsigned long long)rec.next[i], (unsigned long long)prod[i].count);
    }
    cr_expect_eq(rec.total, expected_total, "%llu descriptors executed, %llu pushed",
                 (unsigned long long)rec.total, (unsigned long long)expected_total);
    for (int i = 0; i < n_chan; i++) {
        uint64_t head = *chans[i].dev.head, tail = *chans[i].host.tail;

        cr_expect_eq(tail, head, "channel %d: tail %llu, head %llu", i,
                     (unsigned long long)tail, (unsigned long long)head);
        cr_expect_eq(*chans[i].host.done, head, "channel %d: done %llu, head %llu", i,
                     (unsigned long long)*chans[i].host.done, (unsigned long long)head);
        /* Each quiet word holds a frontier its own side asked for, never more. */
        cr_expect_leq(*chans[i].host.quiet_req, head, "channel %d: quiet_req %llu, head %llu",
                      i, (unsigned long long)*chans[i].host.quiet_req,
                      (unsigned long long)head);
        cr_expect_leq(*chans[i].host.quiet_host, head, "channel %d: quiet_host %llu, head %llu",
                      i, (unsigned long long)*chans[i].host.quiet_host,
                      (unsigned long long)head);
        if (!with_drainer)
            cr_expect_eq(*chans[i].host.quiet_host, 0,
                         "channel %d: quiet_host %llu with no host drain: the lanes wrote it",
                         i, (unsigned long long)*chans[i].host.quiet_host);
        gsi_proxy_chan_destroy(&gsi_devmem_host, &chans[i]);
    }
}

static uint64_t big_count(void)
{
    const char *env = getenv("GSHMEM_RING_TEST_COUNT");

    return env ? strtoull(env, NULL, 0) : 10000000ull;
}

/* The acceptance load: 8 producers, one 16-slot channel, 10^7 descriptors. */
Test(ring, eight_producers_one_tiny_channel, .timeout = 300)
{
    run(1, 1, 8, 16, 16, big_count(), 0);
}

/* Thread k serves channels k, k + 2, ...: three channels, two threads. */
Test(ring, channels_shared_by_two_threads, .timeout = 120)
{
    run(3, 2, 6, 32, 4, 600000, 0);
}

/* Lanes quiet (quiet_req) while a host thread drains (quiet_host) the same
 * channels: every quiet and every drain still completes. */
Test(ring, lane_quiets_and_host_drains_together, .timeout = 120)
{
    run(3, 2, 6, 16, 4, 600000, 1);
}

/* A single slot of return memory is handed round every producer. */
Test(ring, one_return_slot, .timeout = 120)
{
    run(1, 1, 4, 16, 1, 4 * 4 * ROUND_TRIP_EVERY, 0);
}

/* One 16-descriptor channel and its one consumer thread, the record cleared. */
static gsi_proxy_group_t *start_one(gsi_proxy_chan_t *ch)
{
    gsi_proxy_group_t *group;

    memset(&rec, 0, sizeof(rec));
    cr_assert_eq(gsi_proxy_chan_create(&gsi_devmem_host, 16, 16, 0, ch), GSI_OK);
    cr_assert_eq(gsi_proxy_group_start(ch, 1, 1, &rec_ops, &group), GSI_OK);
    return group;
}

static void stop_one(gsi_proxy_group_t *group, gsi_proxy_chan_t *ch)
{
    gsi_proxy_group_stop(group);
    gsi_proxy_chan_destroy(&gsi_devmem_host, ch);
}

/* A lane's quiet writes quiet_req only; a host drain writes quiet_host only. */
Test(ring, each_side_asks_through_its_own_word)
{
    gsi_proxy_chan_t ch;
    gsi_proxy_group_t *group;
    gsd_desc_t d = {0};

    group = start_one(&ch);
    d.op = GSD_DESC_OP(GSD_OP_PUT, 0, 0, 0);
    for (d.offset = 0; d.offset < 3; d.offset++)
        gsd_chan_push(&ch.dev, &d);
    gsd_chan_quiet(&ch.dev);
    cr_expect_eq(*ch.host.done, 3, "done %llu after a lane's quiet of 3",
                 (unsigned long long)*ch.host.done);
    cr_expect_eq(*ch.host.quiet_req, 3, "quiet_req %llu after a lane's quiet of 3",
                 (unsigned long long)*ch.host.quiet_req);
    cr_expect_eq(*ch.host.quiet_host, 0,
                 "quiet_host %llu: a lane's quiet wrote the host's word",
                 (unsigned long long)*ch.host.quiet_host);
    for (; d.offset < 8; d.offset++)
        gsd_chan_push(&ch.dev, &d);
    gsi_proxy_chan_drain(&ch, "ring test");
    cr_expect_eq(*ch.host.done, 8, "done %llu after a host drain of 8",
                 (unsigned long long)*ch.host.done);
    cr_expect_eq(rec.executed[0], 8, "executed %llu after a host drain of 8",
                 (unsigned long long)rec.executed[0]);
    cr_expect_eq(*ch.host.quiet_host, 8, "quiet_host %llu after a host drain of 8",
                 (unsigned long long)*ch.host.quiet_host);
    cr_expect_eq(*ch.host.quiet_req, 3, "quiet_req %llu: a host drain wrote the lanes' word",
                 (unsigned long long)*ch.host.quiet_req);
    stop_one(group, &ch);
}

/* Nothing pushed: quiet returns at once; one descriptor: quiet waits for it. */
Test(ring, quiet_waits_for_what_was_pushed)
{
    gsi_proxy_chan_t ch;
    gsi_proxy_group_t *group;
    gsd_desc_t d = {0};

    group = start_one(&ch);
    gsd_chan_quiet(&ch.dev);
    cr_expect_eq(rec.quiets, 0, "a quiet with nothing outstanding reached the transport");
    d.op = GSD_DESC_OP(GSD_OP_FENCE, 0, 0, 0);
    gsd_chan_push(&ch.dev, &d);
    d.op = GSD_DESC_OP(GSD_OP_P, 0, 0, 0);
    d.len = 8;
    gsd_chan_push(&ch.dev, &d);
    gsd_chan_quiet(&ch.dev);
    cr_expect_eq(rec.fences, 1, "fences executed: %llu", (unsigned long long)rec.fences);
    cr_expect_eq(rec.executed[0], 1, "p executed: %llu", (unsigned long long)rec.executed[0]);
    cr_expect_geq(rec.quiets, 1, "the transport's quiet was not called");
    cr_expect_eq(*ch.host.done, 2, "done %llu after two descriptors",
                 (unsigned long long)*ch.host.done);
    stop_one(group, &ch);
}

/* The consumer on its own: what is not published is not executed. */
Test(ring, unpublished_slot_is_not_consumed)
{
    gsi_proxy_chan_t ch;
    gsd_desc_t d = {0};
    uint64_t t0, t1;

    memset(&rec, 0, sizeof(rec));
    cr_assert_eq(gsi_proxy_chan_create(&gsi_devmem_host, 16, 16, 0, &ch), GSI_OK);
    d.op = GSD_DESC_OP(GSD_OP_PUT, 0, 0, 0);
    t0 = gsd_chan_reserve(&ch.dev);
    t1 = gsd_chan_reserve(&ch.dev);
    d.offset = 1;
    gsd_chan_publish(&ch.dev, t1, &d); /* ticket 1 before ticket 0 */
    cr_expect_eq(gsi_proxy_poll(&ch, &rec_ops, 100), 0, "ticket 1 ran before ticket 0");
    d.offset = 0;
    gsd_chan_publish(&ch.dev, t0, &d);
    cr_expect_eq(gsi_proxy_poll(&ch, &rec_ops, 100), 2, "both tickets should run now");
    cr_expect_eq(*ch.host.tail, 2, "tail %llu", (unsigned long long)*ch.host.tail);
    gsi_proxy_chan_destroy(&gsi_devmem_host, &ch);
}

/* The GPUDirect flush (gsi_proxy_flush) follows a get into the lanes'
 * memory, once, at the quiet after it; a quiet after puts alone does not
 * flush (issue 30: it ran at every quiet). */
static int flushes;

static void count_flush(void)
{
    flushes++;
}

static void push_and_quiet(gsi_proxy_chan_t *ch, unsigned kind, uint64_t offset, void *local)
{
    gsd_desc_t d = {0};

    d.op = GSD_DESC_OP(kind, 0, 0, 0);
    d.offset = offset;
    d.len = 8;
    d.local = (uint64_t)(uintptr_t)local;
    d.ret = GSD_NO_RET;
    gsd_chan_push(&ch->dev, &d);
    __atomic_store_n(ch->host.quiet_host, offset + 1, __ATOMIC_RELEASE);
    cr_assert_eq(gsi_proxy_poll(ch, &rec_ops, 100), 1, "the descriptor did not run");
    cr_assert_eq(*ch->host.done, offset + 1, "done %llu", (unsigned long long)*ch->host.done);
}

Test(ring, flush_only_after_a_get)
{
    gsi_proxy_chan_t ch;
    uint64_t word = 0, src = 0;
    void (*saved)(void) = gsi_proxy_flush;

    memset(&rec, 0, sizeof(rec));
    gsi_proxy_flush = count_flush;
    flushes = 0;
    cr_assert_eq(gsi_proxy_chan_create(&gsi_devmem_host, 16, 16, 0, &ch), GSI_OK);
    push_and_quiet(&ch, GSD_OP_PUT, 0, &src);
    cr_expect_eq(flushes, 0, "a quiet after a put flushed (%d)", flushes);
    push_and_quiet(&ch, GSD_OP_GET, 1, &word);
    cr_expect_eq(flushes, 1, "a quiet after a get: %d flushes, expected 1", flushes);
    push_and_quiet(&ch, GSD_OP_PUT, 2, &src);
    cr_expect_eq(flushes, 1, "the next quiet after a put alone flushed again (%d)", flushes);
    gsi_proxy_chan_destroy(&gsi_devmem_host, &ch);
    gsi_proxy_flush = saved;
}

/* A host lane checks for credit before it takes a ticket, against a head it
 * read earlier: by the time it compares, other lanes may have pushed and the
 * proxy consumed past that head.  The slot is free then; an unsigned
 * difference called it 2^64 - 1 descriptors away and the lane waited for
 * ever (proxy_rate.sh hung one run in three). */
Test(ring, credit_for_a_head_the_proxy_has_passed, .timeout = 30)
{
    gsi_proxy_chan_t ch;
    uint64_t stale, src = 0;

    memset(&rec, 0, sizeof(rec));
    cr_assert_eq(gsi_proxy_chan_create(&gsi_devmem_host, 16, 16, 0, &ch), GSI_OK);
    stale = __atomic_load_n(ch.dev.head, __ATOMIC_RELAXED);
    for (uint64_t i = 0; i < 40; i++) /* over two laps of the ring */
        push_and_quiet(&ch, GSD_OP_PUT, i, &src);
    /* tail (40) and tail_cache (the last tail a ticket waited for) are past
     * the head read before. */
    cr_assert_gt(*ch.dev.tail_cache, stale + 16, "tail_cache %llu",
                 (unsigned long long)*ch.dev.tail_cache);
    gsd_chan_credit(&ch.dev, stale);
    /* The slow path, which reads the consumer's tail: a cache 16 behind. */
    *ch.dev.tail_cache = 4;
    gsd_chan_credit(&ch.dev, 20);
    cr_assert_eq(*ch.dev.tail_cache, 40, "the tail seen on the slow path");
    cr_assert_eq(gsd_chan_reserve(&ch.dev), 40, "the next ticket");
    gsi_proxy_chan_destroy(&gsi_devmem_host, &ch);
}

/* ---- the consumer's sleep ------------------------------------------------- */

/* With host lanes as producers, an idle consumer sleeps on a futex
 * (gsd/channel.h, "sleep"), and each way work reaches it must wake it: a
 * publish, a lane's quiet, a host drain, the group's stop.  The recording
 * transport has no progress call, so the sleep has no timeout: a wake that
 * is missing, or lost to a race, hangs the test. */
static void wait_asleep(const gsi_proxy_chan_t *ch)
{
    while (!__atomic_load_n(ch->host.wake, __ATOMIC_SEQ_CST))
        sched_yield();
}

static void wait_executed(uint64_t n)
{
    while (__atomic_load_n(&rec.executed[0], __ATOMIC_ACQUIRE) < n)
        sched_yield();
}

Test(ring, a_sleeping_proxy_wakes_for_publish_quiet_drain_and_stop, .timeout = 30)
{
    gsi_proxy_chan_t ch;
    gsi_proxy_group_t *group;
    gsd_desc_t d = {0};

    group = start_one(&ch);
    cr_assert_not_null(ch.host.wake, "a channel in host memory has no wake word");
    cr_assert_eq(ch.host.wake, ch.dev.wake, "the two views' wake words differ");
    d.op = GSD_DESC_OP(GSD_OP_PUT, 0, 0, 0);
    wait_asleep(&ch);
    gsd_chan_push(&ch.dev, &d); /* a publish wakes it */
    wait_executed(1);
    wait_asleep(&ch); /* the put issued, not yet completed */
    gsd_chan_quiet(&ch.dev);
    cr_expect_eq(*ch.host.done, 1, "done %llu after a lane's quiet",
                 (unsigned long long)*ch.host.done);
    d.offset = 1;
    gsd_chan_push(&ch.dev, &d);
    wait_executed(2);
    wait_asleep(&ch);
    gsi_proxy_chan_drain(&ch, "ring test");
    cr_expect_eq(*ch.host.done, 2, "done %llu after a host drain",
                 (unsigned long long)*ch.host.done);
    wait_asleep(&ch);
    gsi_proxy_group_stop(group);
    cr_expect_null(ch.host.wake, "the wake word outlived the group");
    gsi_proxy_chan_destroy(&gsi_devmem_host, &ch);
}

/* Pushes that land while the consumer goes to sleep: two producers push
 * one descriptor each, wait for it and pause about as long as the consumer
 * stays awake when idle (1 ms), so their pushes meet every phase of the
 * way into the sleep.  A wake lost there leaves a producer's quiet waiting
 * for ever. */
typedef struct napper {
    gsi_proxy_chan_t *ch;
    int pe;
    unsigned seed;
} napper_t;

static void *nap_and_push(void *arg)
{
    napper_t *n = arg;
    gsd_desc_t d = {0};

    d.op = GSD_DESC_OP(GSD_OP_PUT, 0, 0, 0);
    d.pe = n->pe;
    for (d.offset = 0; d.offset < 400; d.offset++) {
        struct timespec ts = {0, 500000 + (long)(rand_r(&n->seed) % 1000000)};

        gsd_chan_push(&n->ch->dev, &d);
        gsd_chan_quiet(&n->ch->dev);
        if (__atomic_load_n(&rec.executed[n->pe], __ATOMIC_ACQUIRE) != d.offset + 1)
            return "a quiet returned before its put ran";
        nanosleep(&ts, NULL);
    }
    return NULL;
}

Test(ring, pushes_meet_the_consumer_going_to_sleep, .timeout = 60)
{
    gsi_proxy_chan_t ch;
    gsi_proxy_group_t *group;
    napper_t n[2];
    pthread_t th[2];
    void *err;

    group = start_one(&ch);
    for (int i = 0; i < 2; i++) {
        n[i] = (napper_t){.ch = &ch, .pe = i, .seed = 12345u + (unsigned)i};
        cr_assert_eq(pthread_create(&th[i], NULL, nap_and_push, &n[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], &err);
        cr_expect_null(err, "producer %d: %s", i, err ? (const char *)err : "");
    }
    cr_expect_eq(rec.executed[0] + rec.executed[1], 800, "executed %llu of 800",
                 (unsigned long long)(rec.executed[0] + rec.executed[1]));
    stop_one(group, &ch);
}
