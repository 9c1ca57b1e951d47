/* src/coll/coll_bcast.c - broadcast.
 *
 * Load/store (every member mapped), two ways chosen by size:
 *  - push, up to GSHMEM_BCAST_PUSH_MAX bytes: the root copies its source
 *    into every member's dest, then adds 1 to each member's BCAST counter;
 *    members wait for it, the root for nothing.  The root writes all the
 *    data before any signal, so a member that the root of a later call has
 *    already signalled (adds from different roots commute) has this call's
 *    data too.
 *  - pull, above: the root publishes READY (tagged with the call) and
 *    waits for n-1 ACKs; each member copies from the root's source into
 *    its own dest as soon as READY shows, then acks.  The copies run in
 *    parallel, and no member waits for any other than the root.  READY's
 *    payload is the root's digest (src/coll/coll.h: routine, root, byte
 *    count): a member that reads READY anyway compares it with its own at
 *    the cost of one compare, and a mismatch ends the job with one line
 *    naming both values (issue 29).  A root that waits for its ACKs looks
 *    now and then for another member's READY of this call: two members
 *    that both name themselves root end the job with one line naming both
 *    (other_root).  On a team the push path checks too: see root_check
 *    and push.
 * Network, up to GSHMEM_BCAST_TREE_MAX bytes: binomial tree over ranks
 * relative to the root; a member forwards from its dest once its parent's
 * put has arrived.  Larger: the root scatters one chunk to each other
 * member, which pass the chunks around a ring of the non-root members, so
 * the root sends the array once and no link carries it log2(n) times (the
 * root's dest takes no part: broadcast32/64 leave it alone).  Either ends
 * with a barrier: without it, a member of a later call (another root, so
 * another parent or left neighbour) could signal a member still waiting
 * for this one's data. */
#include "coll/coll_engine.h"
#include "coll/coll_sig.h"

static const char from_root[] = "the broadcast's data from the root";

/* Issue 29: another member pushed to this root in this very call,
 * so it takes itself for the root too.  Each root stores its digest into the
 * others' lines before a full fence and then reads its own line: of two
 * roots, at least one sees the other's store. */
static void root_check(gsi_coll_t *c, uint64_t word)
{
    if (__builtin_expect((word & ~GSI_SIG_PAYLOAD) == gsi_sig_tag(c), 0))
        gsi_coll_disagree(c->fn, c->g, gsi_digest_root(word), 0, word & GSI_SIG_PAYLOAD, c->digest);
}

/* On a team the root also stores its digest, tagged with the call, beside
 * each member's BCAST counter (gsi_sig_digest: the same line, which the
 * root is about to add to), and the member compares it with its own once
 * the counter has moved: a store and a load of lines already moving, and a
 * compare (issue 29).  Not on an active set: see the root's loop below. */
static void push(gsi_coll_t *c, void *dest, const void *source, size_t nbytes, int root,
                 int root_dest)
{
    gsi_group_t *g = c->g;
    int n = g->n;

    if (g->me != root) {
        uint64_t *at = gsi_sig_digest(c, GSI_SIG_BCAST), word;

        gsi_sig_wait_from(c, GSI_SIG_BCAST, 1, root, from_root);
        if (!g->team)
            return; /* an active set: see the root's loop below */
        word = __atomic_load_n(at, __ATOMIC_RELAXED);
        /* Back to 0: a digest left here would still be here when this PE
         * is a root 2^15 calls later, with that call's tag, and root_check
         * would take it for a second root.  A later call's root may have
         * stored here already: clearing its digest only skips that call's
         * compare. */
        __atomic_store_n(at, 0, __ATOMIC_RELAXED);
        /* Another tag: a later call's root has already pushed here, which
         * it could only do once this call's root had; the check is then
         * left to that later call. */
        if (__builtin_expect((word & ~GSI_SIG_PAYLOAD) == gsi_sig_tag(c) &&
                                 (word & GSI_SIG_PAYLOAD) != c->digest,
                             0))
            gsi_coll_disagree(c->fn, g, gsi_digest_root(word), 1, word & GSI_SIG_PAYLOAD,
                              c->digest);
        return;
    }
    /* Teams only.  An active set's tag is the same in every call, and with
     * two pSync arrays in alternation (which the deprecated routines allow)
     * the root of the call after next may push here while a member is
     * still in this call: its digest would be taken for this call's
     * (tests/pe/coll_bcast at 4 PEs, roots in turn). */
    for (int i = 1; i < n; i++) {
        int to = (root + i) % n;

        gsi_coll_put(c, dest, source, nbytes, to);
        if (g->team)
            __atomic_store_n((uint64_t *)gsi_group_ptr(c->fn, g, gsi_sig_digest(c, GSI_SIG_BCAST),
                                                       sizeof(uint64_t), to),
                             gsi_sig_tag(c) | c->digest, __ATOMIC_RELAXED);
    }
    if (root_dest)
        gsi_coll_put(c, dest, source, nbytes, root);
    for (int i = 1; i < n; i++)
        gsi_sig_add(c, GSI_SIG_BCAST, (root + i) % n);
    if (g->team) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        root_check(c, __atomic_load_n(gsi_sig_digest(c, GSI_SIG_BCAST), __ATOMIC_RELAXED));
    }
}

/* Issue 29, a pull root's check while it waits for the ACKs (teams): does
 * another member's READY carry this call's tag?  Then it
 * takes itself for the root too, and each root would wait for ACKs that
 * never come.  Only roots publish READY, and only while they wait for their
 * ACKs: a root puts its READY back to 0 once they are in (pull; an active
 * set's in gsi_coll_end), so a READY of a call 2^15 calls back, whose tag
 * has come round to this call's, is not mistaken for a second root. */
static void other_root(gsi_coll_t *c)
{
    const gsi_group_t *g = c->g;

    for (int i = 0; i < g->n; i++) {
        const uint64_t *ready;
        uint64_t v;

        if (i == g->me)
            continue;
        ready = gsi_group_ptr(c->fn, g, gsi_sig(c, GSI_SIG_READY), sizeof(*ready), i);
        v = __atomic_load_n(ready, __ATOMIC_ACQUIRE);
        if ((v & ~GSI_SIG_PAYLOAD) == gsi_sig_tag(c))
            gsi_coll_disagree(c->fn, g, i, 0, v & GSI_SIG_PAYLOAD, c->digest);
    }
}

static void pull(gsi_coll_t *c, void *dest, const void *source, size_t nbytes, int root,
                 int root_dest)
{
    gsi_group_t *g = c->g;
    uint64_t got;

    if (g->me == root) {
        gsi_sig_put_tagged(c, GSI_SIG_READY, root, c->digest);
        if (root_dest)
            gsi_coll_put(c, dest, source, nbytes, root);
        /* Teams only: an active set's tag is the same in every call, and
         * the root of the call before last on this pSync (two alternate:
         * coll_bcast) may still wait for its ACKs with its READY up. */
        gsi_sig_wait_check(c, GSI_SIG_ACK, (uint64_t)g->n - 1,
                           "the other PEs to read the root's data", g->team ? other_root : NULL);
        if (g->team) /* every member has read it: see other_root */
            __atomic_store_n(gsi_sig(c, GSI_SIG_READY), 0, __ATOMIC_RELAXED);
        return;
    }
    got = gsi_sig_wait_tagged(c, GSI_SIG_READY, root, "the root of the broadcast");
    if (__builtin_expect(got != c->digest, 0))
        gsi_coll_disagree(c->fn, g, root, 1, got, c->digest);
    gsi_coll_stream(c, (size_t)g->n * nbytes);
    if (c->stream)
        gsi_copy_stream(dest, gsi_group_ptr(c->fn, g, source, nbytes, root), nbytes);
    else
        memcpy(dest, gsi_group_ptr(c->fn, g, source, nbytes, root), nbytes);
    gsi_sig_add(c, GSI_SIG_ACK, root);
}

/* Over the network a team's BCAST word has one writer per call, the member's
 * parent in the tree (or the root of the scatter), as the barrier that ends
 * the call keeps the next call's writers out: so it is a tagged word whose
 * payload is the writer's digest (issue 29), one store as the add was, and
 * the member compares it with its own once it has arrived.  Along the
 * tree's edges every member is compared with its parent, so any
 * disagreement is found.  An active set keeps the counter: its words go
 * back to 0 on return, before a next call's writer is kept out. */
static void to_child(gsi_coll_t *c, int child)
{
    if (c->g->team)
        gsi_sig_put_tagged(c, GSI_SIG_BCAST, child, c->digest);
    else
        gsi_sig_add(c, GSI_SIG_BCAST, child);
}

static void from_parent(gsi_coll_t *c, int parent, int root)
{
    uint64_t *word = gsi_sig(c, GSI_SIG_BCAST);
    uint64_t tag = gsi_sig_tag(c), got;
    gsi_waiter_t w = GSI_WAITER_INIT;

    if (!c->g->team) {
        gsi_sig_wait(c, GSI_SIG_BCAST, 1, from_root);
        return;
    }
    while (((got = __atomic_load_n(word, __ATOMIC_ACQUIRE)) & ~GSI_SIG_PAYLOAD) != tag) {
        gsi_coll_wait_step(c, &w, from_root);
        if (__builtin_expect(w.polls % 256 == 0, 0))
            gsi_coll_stray_check(c, GSI_SIG_BCAST);
    }
    /* Read: back to 0, so that the word holds a tag only while a call
     * that wrote it is on.  Left there, it would carry the tag of the call
     * 2^15 calls later: that call would take it for its parent's signal,
     * or, with this PE its root, root_check for a second root.  The
     * closing barrier keeps the next call's parent out until then. */
    __atomic_store_n(word, 0, __ATOMIC_RELAXED);
    got &= GSI_SIG_PAYLOAD;
    if (__builtin_expect(got != c->digest, 0))
        gsi_coll_disagree(c->fn, c->g, parent, parent == root, got, c->digest);
}

static void tree(gsi_coll_t *c, void *dest, const void *source, size_t nbytes, int root,
                 int root_dest)
{
    gsi_group_t *g = c->g;
    int n = g->n, rank = (g->me - root + n) % n, mask = 1;
    const void *from = source;

    for (; mask < n; mask <<= 1)
        if (rank & mask) {
            from_parent(c, (rank - mask + root) % n, root);
            from = dest;
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rank + mask < n) {
            int child = (rank + mask + root) % n;

            gsi_lib_put(c->fn, dest, from, nbytes, gsi_group_pe(g, child));
            to_child(c, child);
        }
    if (rank == 0 && root_dest)
        gsi_coll_put(c, dest, source, nbytes, root);
    gsi_coll_sync(c, 1);
    if (rank == 0 && g->team)
        root_check(c, __atomic_load_n(gsi_sig(c, GSI_SIG_BCAST), __ATOMIC_RELAXED));
}

/* Bytes of chunk k of nbytes cut in chunks of cs. */
static size_t chunk_len(size_t nbytes, size_t cs, int k)
{
    size_t offset = (size_t)k * cs;

    return offset >= nbytes ? 0 : nbytes - offset < cs ? nbytes - offset : cs;
}

static void scatter_ring(gsi_coll_t *c, void *dest, const void *source, size_t nbytes, int root,
                         int root_dest)
{
    gsi_group_t *g = c->g;
    int n = g->n, m = n - 1, q = (g->me - root + n) % n - 1; /* q: place in the ring, root -1 */
    size_t cs = ((nbytes + (size_t)m - 1) / (size_t)m + 63) & ~(size_t)63;

    if (q < 0) {
        for (int k = 0; k < m; k++) {
            int member = (root + 1 + k) % n;
            size_t len = chunk_len(nbytes, cs, k);

            if (len)
                gsi_lib_put(c->fn, (char *)dest + (size_t)k * cs,
                            (const char *)source + (size_t)k * cs, len, gsi_group_pe(g, member));
            to_child(c, member);
        }
        if (root_dest)
            gsi_coll_put(c, dest, source, nbytes, root);
    } else {
        int right = (root + 1 + (q + 1) % m) % n;

        from_parent(c, root, root);
        for (int s = 0; s < m - 1; s++) {
            int k = (q - s + m) % m;
            size_t len = chunk_len(nbytes, cs, k);

            if (s > 0)
                gsi_sig_wait(c, GSI_SIG_RING, 1, "the broadcast's chunk from the previous PE");
            if (len)
                gsi_lib_put(c->fn, (char *)dest + (size_t)k * cs, (char *)dest + (size_t)k * cs,
                            len, gsi_group_pe(g, right));
            gsi_sig_add(c, GSI_SIG_RING, right);
        }
        if (m > 1)
            gsi_sig_wait(c, GSI_SIG_RING, 1, "the broadcast's chunk from the previous PE");
    }
    gsi_coll_sync(c, 1);
    if (q < 0 && g->team)
        root_check(c, __atomic_load_n(gsi_sig(c, GSI_SIG_BCAST), __ATOMIC_RELAXED));
}

void gsi_coll_broadcast(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        size_t nbytes, int root, int root_dest)
{
    gsi_coll_t c;

    gsi_coll_begin(&c, fn, g);
    c.digest = gsi_call_digest(GSI_CALL_BCAST, (unsigned)root, nbytes);
    if (g->n == 1) {
        if (root_dest)
            gsi_coll_put(&c, dest, source, nbytes, root);
    } else if (!c.p2p && (nbytes <= gsi_pe.env.bcast_tree_max || g->n < 3)) {
        tree(&c, dest, source, nbytes, root, root_dest);
    } else if (!c.p2p) {
        scatter_ring(&c, dest, source, nbytes, root, root_dest);
    } else if (nbytes <= gsi_pe.env.bcast_push_max) {
        push(&c, dest, source, nbytes, root, root_dest);
    } else {
        pull(&c, dest, source, nbytes, root, root_dest);
    }
    gsi_coll_end(&c);
}
