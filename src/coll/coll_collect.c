/* src/coll/coll_collect.c - fcollect (every member nbytes) and collect (each
 * member its own nbytes), concatenated in member order.
 *
 * Load/store: each member copies its source straight into its block of
 * every member's dest (one copy per byte, no staging), then one barrier
 * says every block has landed.  collect first needs its offset, the sum of
 * the sizes of the members before it: each member publishes its size in
 * its SIZE word (tagged with the call) and reads those of the members
 * before it; nobody rewrites a SIZE word before the barrier that ends the
 * call, which comes after every reader.
 * Network: fcollect is a ring, n-1 steps; in step s each member forwards
 * block me-s to its right neighbour and waits for block me-s-1 from its
 * left.  Each member's RING counter has one sender, whose puts are
 * ordered before its signals, so no barrier is needed.  collect passes
 * the running offset down a chain (member i tells member i+1 where its
 * block starts), puts its block to every member, then a barrier. */
#include "coll/coll_engine.h"
#include "coll/coll_sig.h"

static void push_all(gsi_coll_t *c, char *dest, const void *source, size_t nbytes)
{
    gsi_group_t *g = c->g;

    if (!nbytes)
        return;
    for (int i = 1; i <= g->n; i++)
        gsi_coll_put(c, dest, source, nbytes, (g->me + i) % g->n);
}

/* A team's word for the ring's first block from the left neighbour: one
 * word past the signals of enum gsi_sig, which teams have room for (an
 * active set's pSync has not: active sets keep the RING counter). */
#define GSI_SIG_RING_FIRST GSI_SIG_COUNT
_Static_assert(GSI_SIG_RING_FIRST < GSI_SIG_GOT, "the ring's first word lies among the signals");

/* Over the network, on a team, the first of the n-1 signals from the left
 * neighbour is a tagged store into GSI_SIG_RING_FIRST instead of an add to RING, its
 * payload the neighbour's digest (issue 29): one message, as before, and a
 * compare.  Each member compares with its left neighbour, so any
 * disagreement around the ring is found.  With no barrier at the end, the
 * neighbour may already be one call ahead (no further: its next call needs
 * this member's block of that call) and have stored its next tag: that
 * also says its block of this call has landed, and this call's compare is
 * skipped. */
static void ring_first_wait(gsi_coll_t *c, int left)
{
    uint64_t *word = gsi_sig(c, GSI_SIG_RING_FIRST);
    uint64_t tag = gsi_sig_tag(c), next = (((c->seq + 1) & 0x7fff) | 0x8000) << 48, v;
    gsi_waiter_t w = GSI_WAITER_INIT;

    while (((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) & ~GSI_SIG_PAYLOAD) != tag &&
           (v & ~GSI_SIG_PAYLOAD) != next) {
        gsi_coll_wait_step(c, &w, "the fcollect block from the previous PE");
        if (__builtin_expect(w.polls % 256 == 0, 0))
            gsi_coll_stray_check(c, GSI_SIG_RING_FIRST);
    }
    if (__builtin_expect((v & ~GSI_SIG_PAYLOAD) == tag && (v & GSI_SIG_PAYLOAD) != c->digest, 0))
        gsi_coll_disagree(c->fn, c->g, left, 0, v & GSI_SIG_PAYLOAD, c->digest);
    /* This call's word back to 0: the team's tag counts every collective,
     * so a word left here would carry a tag that comes round again 2^15
     * calls later (or one short of it, which reads as "next"), and that
     * call's wait would end before its block had landed.  A compare and
     * swap, not a store: the neighbour's next tag may land meanwhile, and
     * must stay. */
    if ((v & ~GSI_SIG_PAYLOAD) == tag)
        __atomic_compare_exchange_n(word, &v, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The same on an active set, whose pSync has no room for RING_FIRST: the
 * left neighbour stores its digest in the pSync word after RING (free: the
 * signals are 4 words apart) before its first add, and this member compares
 * it after its first wait and puts it back to 0.  One more store per call
 * and no wait; the neighbour's next call on this pSync cannot come first,
 * as the deprecated routines' pSync rule keeps it out until every member is
 * done with this one. */
static void ring_first_aset(gsi_coll_t *c, int left)
{
    uint64_t *word = gsi_sig_digest(c, GSI_SIG_RING);
    uint64_t v = __atomic_load_n(word, __ATOMIC_RELAXED);

    __atomic_store_n(word, 0, __ATOMIC_RELAXED); /* SHMEM_SYNC_VALUE */
    if (__builtin_expect(v && v != c->digest, 0))
        gsi_coll_disagree(c->fn, c->g, left, 0, v, c->digest);
}

static void ring(gsi_coll_t *c, char *dest, const void *source, size_t nbytes)
{
    gsi_group_t *g = c->g;
    int n = g->n, me = g->me, right = (me + 1) % n;

    for (int s = 0; s < n - 1; s++) {
        int block = (me - s + n) % n;
        const void *from = s == 0 ? source : dest + (size_t)block * nbytes;

        gsi_lib_put(c->fn, dest + (size_t)block * nbytes, from, nbytes, gsi_group_pe(g, right));
        if (s == 0 && g->team) {
            gsi_sig_put_tagged(c, GSI_SIG_RING_FIRST, right, c->digest);
            ring_first_wait(c, (me - 1 + n) % n);
            continue;
        }
        if (s == 0)
            gsi_lib_store64(c->fn, gsi_sig_digest(c, GSI_SIG_RING), c->digest,
                            gsi_group_pe(g, right));
        gsi_sig_add(c, GSI_SIG_RING, right);
        gsi_sig_wait(c, GSI_SIG_RING, 1, "the fcollect block from the previous PE");
        if (s == 0)
            ring_first_aset(c, (me - 1 + n) % n);
    }
    gsi_coll_put(c, dest + (size_t)me * nbytes, source, nbytes, me);
    gsi_quiet(c->fn);
}

void gsi_coll_fcollect(const char *fn, gsi_group_t *g, void *dest, const void *source,
                       size_t nbytes)
{
    gsi_coll_t c;

    gsi_coll_begin(&c, fn, g);
    c.digest = gsi_call_digest(GSI_CALL_FCOLLECT, 0, nbytes);
    if (g->n == 1) {
        gsi_coll_put(&c, dest, source, nbytes, 0);
    } else if (c.p2p) {
        gsi_coll_stream(&c, (size_t)g->n * g->n * nbytes);
        push_all(&c, (char *)dest + (size_t)g->me * nbytes, source, nbytes);
        gsi_coll_sync(&c, 0);
    } else {
        ring(&c, dest, source, nbytes);
    }
    gsi_coll_end(&c);
}

/* The sum of the sizes of the members before this one. */
static size_t offset_read(gsi_coll_t *c, size_t nbytes)
{
    size_t offset = 0;

    if (nbytes > GSI_SIG_PAYLOAD)
        gsi_fatal(c->fn, "nelems of %zu bytes is too large", nbytes);
    gsi_sig_put_tagged(c, GSI_SIG_SIZE, c->g->me, nbytes);
    for (int i = 0; i < c->g->me; i++)
        offset += gsi_sig_wait_tagged(c, GSI_SIG_SIZE, i, "the sizes of the other PEs' blocks");
    return offset;
}

/* The same, passed from member to member over the network. */
static size_t offset_chain(gsi_coll_t *c, size_t nbytes)
{
    gsi_group_t *g = c->g;
    size_t offset = 0;

    if (g->me > 0)
        offset = gsi_sig_wait_tagged(c, GSI_SIG_OFFSET, g->me, "the previous PE's offset");
    if (offset + nbytes > GSI_SIG_PAYLOAD || offset + nbytes < offset)
        gsi_fatal(c->fn, "the collected array of more than %zu bytes is too large",
                  offset + nbytes);
    if (g->me < g->n - 1)
        gsi_sig_put_tagged(c, GSI_SIG_OFFSET, g->me + 1, offset + nbytes);
    return offset;
}

void gsi_coll_collect(const char *fn, gsi_group_t *g, void *dest, const void *source, size_t nbytes)
{
    gsi_coll_t c;
    size_t offset;

    gsi_coll_begin(&c, fn, g);
    c.digest = gsi_call_digest(GSI_CALL_COLLECT, 0, 0); /* sizes may differ */
    if (g->n == 1) {
        if (nbytes)
            gsi_coll_put(&c, dest, source, nbytes, 0);
    } else {
        offset = c.p2p ? offset_read(&c, nbytes) : offset_chain(&c, nbytes);
        /* dest up to the end of this member's block; on the last member
         * that is the whole collected array.  host/coll.c checked the rest,
         * before any member waited. */
        gsi_check_symmetric(fn, "dest", dest, offset + nbytes);
        gsi_coll_stream(&c, (size_t)g->n * g->n * nbytes); /* about: sizes may differ */
        push_all(&c, (char *)dest + offset, source, nbytes);
        gsi_coll_sync(&c, !c.p2p);
    }
    gsi_coll_end(&c);
}
