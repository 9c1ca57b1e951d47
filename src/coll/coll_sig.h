/* src/coll/coll_sig.h - the per-call state and the signals of the collectives
 * engine (src/coll/coll_bcast.c, coll_collect.c, coll_alltoall.c); see
 * src/coll/coll_engine.h for what the words are and why they cannot be
 * confused between consecutive calls. */
#ifndef GSI_COLL_SIG_H
#define GSI_COLL_SIG_H

#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define GSI_HAVE_STREAM 1
#endif

#include "base/log.h"
#include "coll/coll.h"
#include "coll/sync.h"
#include "coll/team.h"
#include "core/pe.h"
#include "core/rma.h"
#include "core/wait.h"

/* Signal words.  Counters receive adds of 1; the others have one writer. */
enum gsi_sig {
    GSI_SIG_BCAST,   /* counter: the broadcast's data is in this member's dest */
    GSI_SIG_READY,   /* the root's own: its source may be read (pull broadcast) */
    GSI_SIG_ACK,     /* counter on the root: members done reading its source */
    GSI_SIG_SIZE,    /* this member's own: its collect size, tagged */
    GSI_SIG_OFFSET,  /* written by the previous member: this member's collect offset, tagged */
    GSI_SIG_RING,    /* counter: ring blocks arrived from the left neighbour */
    GSI_SIG_GATHER,  /* counter on member 0: arrivals at an active-set barrier */
    GSI_SIG_RELEASE, /* counter: the last to arrive says the barrier is complete */
    GSI_SIG_COUNT
};

/* Team slot words: coll[0..GSI_SIG_COUNT-1] are the signals,
 * coll[GSI_SIG_GOT + k] counts what signal k has brought this PE so far
 * (local only), coll[GSI_SIG_SEQ] (src/coll/sync.h) numbers this PE's calls
 * on the team.  The reductions own coll[32..63]. */
#define GSI_SIG_GOT 16
/* Active sets: signal k is pSync[GSI_SIG_PSYNC + k * GSI_SIG_PSYNC_STEP]
 * (one signal per cache line of the caller's pSync). */
#define GSI_SIG_PSYNC 32
#define GSI_SIG_PSYNC_STEP 4

_Static_assert(GSI_SIG_COUNT <= GSI_SIG_GOT && GSI_SIG_GOT + GSI_SIG_COUNT <= GSI_SIG_SEQ &&
                   GSI_SIG_SEQ < 32 && 32 <= GSI_COLL_WORDS,
               "the data collectives own the team slot words coll[0..31]");
_Static_assert(GSI_SIG_PSYNC >= GSI_PSYNC_MAILBOX_WORDS,
               "the signals lie above the reductions' mailboxes in pSync");
_Static_assert(GSI_SIG_PSYNC + (GSI_SIG_COUNT - 1) * GSI_SIG_PSYNC_STEP < GSI_PSYNC_WORDS,
               "the signals fit in SHMEM_*_SYNC_SIZE (64) longs of pSync");

typedef struct gsi_coll {
    const char *fn;
    gsi_group_t *g;
    int p2p;       /* load/store algorithms: all members mapped, GSHMEM_COLL_P2P */
    int stream;    /* copies to other members bypass the caches (gsi_coll_stream) */
    uint64_t seq;  /* team: this call's number; active set: 1 */
    uint64_t *sig; /* this PE's signal 0; signal k is sig[k * step] */
    size_t step;
    uint64_t *got;   /* what counter k brought so far: got[k * got_step] */
    size_t got_step; /* team: in the slot; active set: got_set, this call only */
    uint64_t got_set[GSI_SIG_COUNT];
    unsigned counted; /* active set: counters to take back at the end */
    unsigned written; /* active set: one-writer words to clear at the end */
    uint64_t digest;  /* the arguments that must agree (src/coll/coll.h); 0: none */
} gsi_coll_t;

static inline void gsi_coll_begin(gsi_coll_t *c, const char *fn, gsi_group_t *g)
{
    c->fn = fn;
    c->g = g;
    c->p2p = g->all_p2p && gsi_pe.env.coll_p2p;
    c->stream = 0;
    c->counted = c->written = 0;
    c->digest = 0;
    if (g->team) {
        gsi_team_sync_t *s = gsi_team_sync(g->team);

        c->step = sizeof(gsi_flag_t) / sizeof(uint64_t);
        c->sig = &s->coll[0].value;
        c->got = &s->coll[GSI_SIG_GOT].value;
        c->got_step = c->step;
        c->seq = ++s->coll[GSI_SIG_SEQ].value;
    } else {
        c->step = GSI_SIG_PSYNC_STEP;
        c->sig = (uint64_t *)&g->psync[GSI_SIG_PSYNC];
        memset(c->got_set, 0, sizeof(c->got_set));
        c->got = c->got_set;
        c->got_step = 1;
        c->seq = 1;
    }
}

static inline uint64_t *gsi_sig(const gsi_coll_t *c, int k)
{
    return &c->sig[k * c->step];
}

/* Add 1 to counter k of member i, after this PE's earlier writes to it. */
static inline void gsi_sig_add(gsi_coll_t *c, int k, int i)
{
    if (!c->p2p)
        gsi_fence(c->fn);
    gsi_lib_add64(c->fn, gsi_sig(c, k), 1, gsi_group_pe(c->g, i));
}

/* Add 1 to counter k of member i and return its value before the add. */
static inline uint64_t gsi_sig_fetch_add(gsi_coll_t *c, int k, int i)
{
    uint64_t one = 1, old;
    gsi_target_t t;
    uint64_t *p;

    if (!c->p2p)
        gsi_fence(c->fn);
    p = gsi_amo_target_for(c->fn, gsi_sig(c, k), sizeof(*p), gsi_group_pe(c->g, i), &t,
                           GSI_FOR_LIB);
    if (p)
        return __atomic_fetch_add(p, one, __ATOMIC_ACQ_REL);
    gsi_net_amo(c->fn, &t, gsi_group_pe(c->g, i), GST_AMO_FADD, sizeof(one), &one, NULL, &old);
    return old;
}

/* Take `count` back from counter k of member i. */
static inline void gsi_sig_sub(gsi_coll_t *c, int k, int i, uint64_t count)
{
    gsi_target_t t;
    uint64_t minus = (uint64_t)0 - count;
    uint64_t *p = gsi_amo_target_for(c->fn, gsi_sig(c, k), sizeof(*p), gsi_group_pe(c->g, i), &t,
                                     GSI_FOR_LIB);

    if (p)
        __atomic_fetch_sub(p, count, __ATOMIC_RELAXED);
    else
        gsi_net_amo(c->fn, &t, gsi_group_pe(c->g, i), GST_AMO_FADD, sizeof(minus), &minus, NULL,
                    NULL);
}

/* Active sets: this PE's words back to SHMEM_SYNC_VALUE.  Counters are
 * taken back by what they brought, so an add that a member already made
 * for a next barrier on the same pSync (which the spec allows) survives. */
static inline void gsi_coll_end(gsi_coll_t *c)
{
    if (c->g->team)
        return;
    for (int k = 0; k < GSI_SIG_COUNT; k++) {
        if (c->counted & (1u << k))
            gsi_sig_sub(c, k, c->g->me, c->got[k]);
        if (c->written & (1u << k))
            __atomic_store_n(gsi_sig(c, k), 0, __ATOMIC_RELAXED); /* one writer: this PE */
    }
}

/* One poll of a wait of the collective: now and then, on the world, see
 * whether a PE has finalized instead of taking part in this call. */
static inline void gsi_coll_wait_step(const gsi_coll_t *c, gsi_waiter_t *w, const char *what)
{
    gsi_wait_step(w, c->fn, what);
    if (__builtin_expect(w->polls % 256 == 0, 0) && c->g->team == &gshmem_team_world)
        gsi_world_check_finalized(c->fn, 0, c->seq);
}

/* Wait until counter k has brought this PE `count` more signals. */
/* gsi_sig_wait that also calls check(c) every 256th poll (a second root,
 * coll_bcast.c): the polls of a good call cost no more.  NULL: none (inlined
 * away in gsi_sig_wait). */
static inline void gsi_sig_wait_check(gsi_coll_t *c, int k, uint64_t count, const char *what,
                                      void (*check)(gsi_coll_t *c))
{
    uint64_t *word = gsi_sig(c, k), *got = &c->got[k * c->got_step];
    uint64_t target = *got + count;
    gsi_waiter_t w = GSI_WAITER_INIT;

    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < target) {
        gsi_coll_wait_step(c, &w, what);
        if (check && __builtin_expect(w.polls % 256 == 0, 0))
            check(c);
    }
    *got = target;
    c->counted |= 1u << k;
}

static inline void gsi_sig_wait(gsi_coll_t *c, int k, uint64_t count, const char *what)
{
    gsi_sig_wait_check(c, k, count, what, NULL);
}

/* gsi_sig_wait for a signal that one member, `from`, sends.  With more
 * PEs than cores, where the barrier knows the CPU that member runs on: if
 * it is this PE's, yield at once, as that member needs the CPU to send;
 * otherwise spin, as it is running or about to (the barrier leaves the
 * lowest ranks running), and a yield would cost a context switch of this
 * CPU.  A broadcast of 8 B on 4 PEs over 2 cores after a barrier: 0.93 ->
 * 0.6-0.7 us. */
void gsi_sig_wait_from(gsi_coll_t *c, int k, uint64_t count, int from, const char *what);

/* A one-writer word: this call's tag in the top 16 bits, a payload of up
 * to 48 bits below.  The tag never is 0, the value of a clear word. */
#define GSI_SIG_PAYLOAD ((UINT64_C(1) << 48) - 1)

static inline uint64_t gsi_sig_tag(const gsi_coll_t *c)
{
    return ((c->seq & 0x7fff) | 0x8000) << 48;
}

/* Store a tagged payload in one-writer word k of member i. */
static inline void gsi_sig_put_tagged(gsi_coll_t *c, int k, int i, uint64_t payload)
{
    if (i == c->g->me)
        c->written |= 1u << k;
    if (!c->p2p)
        gsi_fence(c->fn);
    gsi_lib_store64(c->fn, gsi_sig(c, k), gsi_sig_tag(c) | payload, gsi_group_pe(c->g, i));
}

/* Wait until one-writer word k of member i (this PE, or a mapped peer)
 * holds this call's tag; returns its payload. */
static inline uint64_t gsi_sig_wait_tagged(gsi_coll_t *c, int k, int i, const char *what)
{
    const uint64_t *word = gsi_sig(c, k);
    uint64_t tag = gsi_sig_tag(c), v;
    gsi_waiter_t w = GSI_WAITER_INIT;

    if (i == c->g->me)
        c->written |= 1u << k;
    else
        word = gsi_group_ptr(c->fn, c->g, word, sizeof(*word), i);

    while (((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) & ~GSI_SIG_PAYLOAD) != tag)
        gsi_coll_wait_step(c, &w, what);
    return v & GSI_SIG_PAYLOAD;
}

/* The word beside signal k: the digest of the member that sent the signal
 * (issue 29: the push broadcast, the active-set central barrier).  On a
 * team it is in the signal's line; on an active set it is the pSync word
 * after the signal's, which GSI_SIG_PSYNC_STEP leaves free, and the reader
 * puts it back to SHMEM_SYNC_VALUE (0). */
_Static_assert(GSI_SIG_PSYNC_STEP >= 2, "an active set's signal has a free word after it");
static inline uint64_t *gsi_sig_digest(const gsi_coll_t *c, int k)
{
    return gsi_sig(c, k) + 1;
}

/* A team's word for the network fcollect ring's first block from the left
 * neighbour (src/coll/coll_collect.c): one word past the signals of enum
 * gsi_sig, which a team's slot has room for and an active set's pSync has
 * not. */
#define GSI_SIG_RING_FIRST GSI_SIG_COUNT
_Static_assert(GSI_SIG_RING_FIRST < GSI_SIG_GOT, "the ring's first word lies among the signals");

/* Issue 29, on a team over the network, while a wait for one tagged word
 * (`mine`) goes on: has another routine's tagged word of this call arrived
 * instead (a member that broadcasts while this one fcollects, or the
 * reverse)?  Then the members disagree on the routine.  Only looked at
 * now and then in the wait (with gsi_coll_wait_step's period), so it costs
 * the fast path nothing. */
static inline void gsi_coll_stray_check(const gsi_coll_t *c, int mine)
{
    static const int words[] = {GSI_SIG_BCAST, GSI_SIG_RING_FIRST};
    const gsi_group_t *g = c->g;

    for (unsigned j = 0; j < sizeof words / sizeof words[0]; j++) {
        uint64_t v = words[j] == mine ? 0 : __atomic_load_n(gsi_sig(c, words[j]), __ATOMIC_ACQUIRE);

        if ((v & ~GSI_SIG_PAYLOAD) == gsi_sig_tag(c)) {
            int from = words[j] == GSI_SIG_BCAST ? gsi_digest_root(v) : (g->me - 1 + g->n) % g->n;

            gsi_coll_disagree(c->fn, g, from, 0, v & GSI_SIG_PAYLOAD, c->digest);
        }
    }
}

/* Copies into other members' memory use non-temporal stores when the
 * call writes `volume` bytes or more over all members
 * (GSHMEM_COLL_NT_MIN; 0: never): a working set that large would only
 * evict itself from the shared cache, and streaming stores skip the read
 * for ownership of every destination line. */
static inline void gsi_coll_stream(gsi_coll_t *c, size_t volume)
{
    size_t min = gsi_pe.env.coll_nt_min;

    c->stream = min && volume >= min;
}

/* memcpy with non-temporal stores, ordered before what follows (sfence). */
static inline void gsi_copy_stream(void *dst, const void *src, size_t n)
{
#ifdef GSI_HAVE_STREAM
    char *d = dst;
    const char *s = src;
    size_t head = (-(uintptr_t)d) & 15;

    if (head > n)
        head = n;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i f = _mm_loadu_si128((const __m128i *)(s + 48));

        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), e);
        _mm_stream_si128((__m128i *)(d + 48), f);
    }
    _mm_sfence();
    memcpy(d, s, n);
#else
    memcpy(dst, src, n);
#endif
}

/* Copy len bytes from local `src` to symmetric `dest` on member i.  The
 * copy to this PE needs no check of its own: the entry points checked dest
 * and source over every byte the call touches here (host/coll.c, and
 * gsi_coll_collect for collect's dest) before any member moved data. */
static inline void gsi_coll_put(gsi_coll_t *c, void *dest, const void *src, size_t len, int i)
{
    void *p;

    if (i == c->g->me) {
        if (dest != src)
            memmove(dest, src, len);
        return;
    }
    p = c->p2p ? gsi_group_ptr(c->fn, c->g, dest, len, i) : NULL;
    if (p && c->stream)
        gsi_copy_stream(p, src, len);
    else if (p)
        memcpy(p, src, len);
    else
        gsi_lib_put(c->fn, dest, src, len, gsi_group_pe(c->g, i));
}

/* All members arrive; with `complete`, this PE's puts are complete first.
 * Teams use the team barrier; active sets a central one on pSync. */
void gsi_coll_sync(gsi_coll_t *c, int complete);

#endif
