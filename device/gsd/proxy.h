/*
 * gsd/proxy.h - the producer side of the proxy channels (gsd/channel.h has
 * the protocol).  Any lane may call these; the proxy thread (src/gpu/proxy.c)
 * is the single consumer of each channel.
 */
#ifndef GSD_PROXY_H
#define GSD_PROXY_H

#include <stdint.h>

#include "channel.h"
#include "poll.h"

/* The channel a lane uses unless it names one: spread by block. */
GSD_FN gsd_channel_t *gsd_chan_default(void)
{
    return &GSD_STATE.chan[gsd_block_id() % (unsigned)GSD_STATE.n_chan];
}

GSD_FN gsd_channel_t *gsd_chan_at(const char *fn, int ch)
{
    if (GSD_UNLIKELY((unsigned)ch >= (unsigned)GSD_STATE.n_chan))
        GSD_FATAL(fn, "channel %d is out of range: there are %d (GSHMEM_PROXY_CHANNELS)", ch,
                  (int)GSD_STATE.n_chan);
    return &GSD_STATE.chan[ch];
}

/* Wait until ticket t's slot is free: fewer than size descriptors between
 * it and the proxy's consumed count.  tail_cache keeps the last count seen,
 * so most calls read no word of the consumer's.  Signed: a host lane's
 * check before its ticket passes a head it read earlier, which the proxy
 * may have consumed past since (a free slot, not one 2^64 away). */
GSD_FN void gsd_chan_credit(gsd_channel_t *c, uint64_t t)
{
    uint64_t tail = gsd_load_acquire(c->tail_cache);
    gsd_poll_t w = GSD_POLL_INIT;

    if (GSD_LIKELY((int64_t)(t - tail) < (int64_t)c->size))
        return;
    while ((int64_t)(t - (tail = gsd_load_acquire(c->tail))) >= (int64_t)c->size)
        gsd_poll_step(&w, "gshmem proxy channel", "the proxy's consumed count", c->tail, ">",
                      t - c->size, tail);
    gsd_atomic_max(c->tail_cache, tail);
}

/* Take a ticket and wait for its slot's credit.
 *
 * The proxy consumes in ticket order, so a lane that holds a ticket it has
 * not published stalls it.  A GPU lane between its ticket and its publish
 * is never off its SM for long.  A host lane is a thread the kernel may
 * take off its core; if it waited for credit while holding a ticket, then
 * once the credit came the proxy would wait for that thread to be
 * scheduled again, which with 32 lanes on two cores was most of the time
 * (proxy_rate.sh at a 1024-descriptor ring: 10 M/s where it is 14 with
 * this).  So a host lane first waits for credit without a ticket; the check
 * after the ticket stays for the few lanes that pass the first together. */
GSD_FN uint64_t gsd_chan_reserve(gsd_channel_t *c)
{
    uint64_t t;

#if !defined(GSD_CUDA)
    gsd_chan_credit(c, gsd_load_relaxed(c->head));
#endif
    t = gsd_fetch_add(c->head, 1);
    gsd_chan_credit(c, t);
    return t;
}

/* After a publish or a quiet request (each sequentially consistent): if the
 * consumer sleeps, wake it (gsd/channel.h, "sleep").  One load of a line
 * the consumer writes only when it goes to sleep. */
GSD_FN void gsd_chan_wake(gsd_channel_t *c)
{
#if defined(GSD_HOSTLANE)
    if (c->wake && GSD_UNLIKELY(__atomic_load_n(c->wake, __ATOMIC_SEQ_CST)))
        gshmemi_proxy_wake(c->wake);
#else
    (void)c;
#endif
}

/* Write descriptor *d into ticket t's slot and publish it. */
GSD_FN void gsd_chan_publish(gsd_channel_t *c, uint64_t t, const gsd_desc_t *d)
{
    gsd_desc_t *slot = &c->ring[t & (c->size - 1)];

    slot->op = d->op;
    slot->pe = d->pe;
    slot->offset = d->offset;
    slot->local = d->local;
    slot->len = d->len;
    slot->value = d->value;
    slot->aux = d->aux;
    slot->ret = d->ret;
#if defined(GSD_HOSTLANE)
    /* An exchange: the store is ordered before gsd_chan_wake's load (a
     * release store is not, on x86 or in C11), at the cost of a locked
     * instruction on a line this lane already holds. */
    (void)__atomic_exchange_n(&slot->seq, t + 1, __ATOMIC_SEQ_CST);
    gsd_chan_wake(c);
#else
    gsd_store_release(&slot->seq, t + 1);
#endif
}

/* Reserve, then publish: one descriptor into channel c.  Returns its ticket. */
GSD_FN uint64_t gsd_chan_push(gsd_channel_t *c, const gsd_desc_t *d)
{
    uint64_t t = gsd_chan_reserve(c);

    gsd_chan_publish(c, t, d);
    return t;
}

/* Wait until every descriptor taken from c so far is complete. */
GSD_FN void gsd_chan_quiet(gsd_channel_t *c)
{
    uint64_t q = gsd_load_acquire(c->head), done;
    gsd_poll_t w = GSD_POLL_INIT;

    if (gsd_load_acquire(c->done) >= q)
        return;
    gsd_atomic_max(c->quiet_req, q);
#if defined(GSD_HOSTLANE)
    gsd_fence(); /* the request before the read of wake */
    gsd_chan_wake(c);
#endif
    while ((done = gsd_load_acquire(c->done)) < q)
        gsd_poll_step(&w, "gshmem_quiet", "the proxy's completed count", c->done, ">=", q, done);
}

/* A return slot for one fetching operation: wait until it is free. */
GSD_FN uint64_t gsd_ret_take(gsd_channel_t *c)
{
    uint64_t r = gsd_fetch_add(c->ret_head, 1), seq;
    gsd_ret_t *s = &c->ret[r & (c->n_ret - 1)];
    gsd_poll_t w = GSD_POLL_INIT;

    while ((seq = gsd_load_acquire(&s->seq)) != 2 * r)
        gsd_poll_step(&w, "gshmem proxy channel", "a return slot", &s->seq, "==", 2 * r, seq);
    return r;
}

/* Wait for ticket r's value, then free its slot for the next lap. */
GSD_FN uint64_t gsd_ret_wait(gsd_channel_t *c, uint64_t r, const char *fn)
{
    gsd_ret_t *s = &c->ret[r & (c->n_ret - 1)];
    gsd_poll_t w = GSD_POLL_INIT;
    uint64_t seq, v;

    while ((seq = gsd_load_acquire(&s->seq)) != 2 * r + 1)
        gsd_poll_step(&w, fn, "the proxy's reply", &s->seq, "==", 2 * r + 1, seq);
    v = s->value;
    gsd_store_release(&s->seq, 2 * (r + c->n_ret));
    return v;
}

#endif /* GSD_PROXY_H */
