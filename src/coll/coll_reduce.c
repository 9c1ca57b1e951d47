/* src/coll/coll_reduce.c - reductions and prefix sums over a group.
 *
 * Members always combine in member order, source_0 first, so the
 * floating-point result does not depend on who computes it.  Three
 * algorithms, by size:
 *
 * - staged, teams only, up to STAGE_BYTES (1 KiB): each member copies its
 *   source into a staging buffer of its team slot, one barrier, then
 *   computes its own result from the members' staged copies (all of them
 *   for a reduction, 0..me for a scan).  One barrier in all: source is
 *   free again once copied, and a staging buffer is rewritten only after
 *   another barrier of the team (the two buffers alternate with the team's
 *   barrier count), by which time every member has read it.
 * - mailbox, active sets whose every member is mapped, when a word-rounded
 *   copy of every member's source fits in the mailbox words of pSync
 *   (GSI_PSYNC_MAILBOX_WORDS): each member stores its source into slot
 *   `me` of every other member's mailbox, one barrier, then each combines
 *   its own mailbox and source and sets its mailbox back to
 *   SHMEM_SYNC_VALUE.  One barrier in all, like staged: a member writes a
 *   mailbox of this pSync again only in a later call on it, which the spec
 *   puts after another barrier or a call on another pSync, and either
 *   needs every member to have left this one.
 * - whole, below GSHMEM_REDUCE_SCATTER_MIN bytes (and active sets, which
 *   have no staging space): the same from the members' source arrays, so a
 *   barrier before (every source is ready) and one after (nobody reads this
 *   member's source any more).  In place, the result waits in a private
 *   buffer until the second barrier.
 * - sliced, from GSHMEM_REDUCE_SCATTER_MIN on (reduce-scatter and
 *   all-gather in one pass): member m owns slice m of the array (N slices
 *   cut on 64-byte boundaries), combines that slice of every member's
 *   source and writes the result - for a scan, member k's prefix - into
 *   that slice of every member's dest.  Each member reads about n and
 *   writes about n elements whatever N is.  Only the owner touches a slice,
 *   and it reads a slice of a member's source before it writes that slice
 *   of the member's dest, so in place needs nothing more.  Two barriers.
 *
 * Reduce-scatter (gsi_reduce_scatter) is `whole` on one block: member m
 * reads block m of every member's source and combines into its own dest,
 * between a barrier that makes every source ready and one after which no
 * member reads this member's source any more.  Each member reads about
 * nreduce x N elements and writes nreduce.
 *
 * Members' memory is read and written through its mapping when the whole
 * group is P2P and GSHMEM_COLL_P2P allows it, through gsi_lib_get/gsi_lib_put
 * otherwise: the same algorithms then move (N-1)/N of the array into and
 * out of each member, the reduce-scatter + all-gather volume. */
#include "coll/coll_reduce.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coll/sync.h"
#include "core/rma.h"

#define CHUNK 8192     /* bytes combined at a time: accumulator and input stay in L1 */
#define SLICE_ALIGN 64 /* slices start on cache-line boundaries */

/* The team slot's collective words from STAGE_WORD on belong to the
 * reductions (the ones below to the other collectives): 2 KiB of symmetric
 * memory, used as two staging buffers of STAGE_BYTES. */
#define STAGE_WORD 32
#define STAGE_BYTES ((GSI_COLL_WORDS - STAGE_WORD) * sizeof(gsi_flag_t) / 2)
_Static_assert(STAGE_BYTES >= 512, "staging buffers of the reductions");

typedef struct reduce {
    const char *fn;
    gsi_group_t *g;
    gsi_reduce_kind_t kind;
    char *dest;
    const char *source;
    const char *from; /* what members read: source, or its staged copy */
    size_t size;      /* bytes per element */
    gsi_combine_fn_t combine;
    int p2p;         /* load/store on the members' memory */
    uint64_t digest; /* the arguments that must agree, compared in the first barrier */
} reduce_t;

/* Member k's source bytes [off, off + len): where they are mapped, or a
 * copy fetched into buf. */
static const void *source_of(const reduce_t *r, int k, size_t off, size_t len, void *buf)
{
    if (k == r->g->me)
        return r->from + off;
    if (r->p2p)
        return gsi_group_ptr(r->fn, r->g, r->from + off, len, k);
    gsi_lib_get(r->fn, buf, r->from + off, len, gsi_group_pe(r->g, k));
    return buf;
}

/* acc = member k's source bytes [off, off + len). */
static void load(const reduce_t *r, void *acc, int k, size_t off, size_t len)
{
    if (k != r->g->me && !r->p2p)
        gsi_lib_get(r->fn, acc, r->from + off, len, gsi_group_pe(r->g, k));
    else
        memcpy(acc, source_of(r, k, off, len, NULL), len);
}

/* Member k's dest bytes [off, off + len) = buf. */
static void store(const reduce_t *r, int k, size_t off, const void *buf, size_t len)
{
    if (k == r->g->me)
        memcpy(r->dest + off, buf, len);
    else
        gsi_lib_put(r->fn, r->dest + off, buf, len, gsi_group_pe(r->g, k));
}

/* acc = source_0 OP ... OP source_last over bytes [off, off + len);
 * zeros when last < 0 (the exclusive scan on member 0). */
static void combine_upto(const reduce_t *r, void *acc, int last, size_t off, size_t len, void *buf)
{
    if (last < 0) {
        memset(acc, 0, len);
        return;
    }
    load(r, acc, 0, off, len);
    for (int k = 1; k <= last; k++)
        r->combine(acc, source_of(r, k, off, len, buf), len / r->size);
}

/* The last member whose source this member's result includes. */
static int last_member(const reduce_t *r)
{
    int me = r->g->me;

    return r->kind == GSI_REDUCE_ALL ? r->g->n - 1 : r->kind == GSI_SCAN_INCL ? me : me - 1;
}

static void staged(reduce_t *r, size_t bytes)
{
    _Alignas(64) unsigned char buf[STAGE_BYTES];
    struct gshmem_team *team = r->g->team;
    char *stage = (char *)&gsi_team_sync(team)->coll[STAGE_WORD] + team->epoch % 2 * STAGE_BYTES;

    memcpy(stage, r->source, bytes);
    r->from = stage;
    gsi_group_barrier_check(r->fn, r->g, 0, r->digest);
    combine_upto(r, r->dest, last_member(r), 0, bytes, buf);
}

/* Words of one member's slot in a mailbox; 0: the group's sources do not fit. */
static size_t mailbox_slot_words(const reduce_t *r, size_t bytes)
{
    size_t words = (bytes + sizeof(long) - 1) / sizeof(long);

    if (r->g->team || !r->p2p || words * (size_t)r->g->n > GSI_PSYNC_MAILBOX_WORDS)
        return 0;
    return words;
}

static void mailbox(reduce_t *r, size_t bytes, size_t words)
{
    _Alignas(64) unsigned char acc[GSI_PSYNC_MAILBOX_WORDS * sizeof(long)];
    gsi_group_t *g = r->g;
    long *box = g->psync;
    int last = last_member(r);

    for (int i = 1; i < g->n; i++) {
        int k = (g->me + i) % g->n;

        memcpy(gsi_group_ptr(r->fn, g, box + (size_t)g->me * words, bytes, k), r->source, bytes);
    }
    gsi_group_barrier_check(r->fn, g, 0, r->digest);
    memcpy(acc, g->me == 0 ? r->source : (const char *)box, bytes);
    for (int k = 1; k <= last; k++)
        r->combine(acc, k == g->me ? r->source : (const char *)(box + (size_t)k * words),
                   bytes / r->size);
    memcpy(r->dest, acc, bytes);
    for (size_t w = 0; w < (size_t)g->n * words; w++)
        box[w] = 0; /* SHMEM_SYNC_VALUE */
}

static void whole(const reduce_t *r, size_t bytes)
{
    _Alignas(64) unsigned char buf[CHUNK], small[CHUNK];
    size_t chunk = CHUNK / r->size * r->size;
    int last = last_member(r);
    int in_place = r->dest == r->source;
    char *out = r->dest;

    if (in_place) {
        out = bytes <= sizeof(small) ? (char *)small : malloc(bytes);
        if (!out)
            gsi_fatal(r->fn, "no memory for a %zu-byte reduction buffer", bytes);
    }
    gsi_group_barrier_check(r->fn, r->g, 0, r->digest);
    for (size_t off = 0, len; off < bytes; off += len) {
        len = bytes - off < chunk ? bytes - off : chunk;
        combine_upto(r, out + off, last, off, len, buf);
    }
    gsi_group_barrier(r->fn, r->g, 0);
    if (in_place) {
        memcpy(r->dest, out, bytes);
        if (out != (char *)small)
            free(out);
    }
}

/* One chunk of this member's slice: combine it over the members and write
 * each member's result into its dest.  The exclusive scan keeps two
 * prefixes: member k's (cur) is written after source_k is read for the next. */
static void slice_chunk(const reduce_t *r, size_t off, size_t len, unsigned char *a,
                        unsigned char *b, unsigned char *buf)
{
    int n = r->g->n, me = r->g->me;
    size_t count = len / r->size;

    switch (r->kind) {
    case GSI_REDUCE_ALL:
        /* Out of place, this member's dest is nobody's source: combine there. */
        if (r->dest != r->source) {
            combine_upto(r, r->dest + off, n - 1, off, len, buf);
            for (int i = 1; i < n; i++) /* start past this member: writers spread out */
                store(r, (me + i) % n, off, r->dest + off, len);
            break;
        }
        combine_upto(r, a, n - 1, off, len, buf);
        for (int i = 1; i <= n; i++)
            store(r, (me + i) % n, off, a, len);
        break;
    case GSI_SCAN_INCL:
        load(r, a, 0, off, len);
        store(r, 0, off, a, len);
        for (int k = 1; k < n; k++) {
            r->combine(a, source_of(r, k, off, len, buf), count);
            store(r, k, off, a, len);
        }
        break;
    case GSI_SCAN_EXCL: {
        unsigned char *cur = a, *next = b, *t;

        memset(cur, 0, len);
        for (int k = 0; k < n; k++) {
            if (k == 0) {
                load(r, next, 0, off, len);
            } else if (k < n - 1) {
                memcpy(next, cur, len);
                r->combine(next, source_of(r, k, off, len, buf), count);
            }
            store(r, k, off, cur, len);
            t = cur, cur = next, next = t;
        }
        break;
    }
    }
}

static void sliced(const reduce_t *r, size_t nelems)
{
    _Alignas(64) unsigned char a[CHUNK], b[CHUNK], buf[CHUNK];
    size_t chunk = CHUNK / r->size * r->size;
    size_t q = r->size < SLICE_ALIGN ? SLICE_ALIGN / r->size : 1; /* elements per line */
    size_t lines = (nelems + q - 1) / q, n = (size_t)r->g->n, me = (size_t)r->g->me;
    size_t lo = me * lines / n * q, hi = (me + 1) * lines / n * q;

    lo = (lo < nelems ? lo : nelems) * r->size;
    hi = (hi < nelems ? hi : nelems) * r->size;
    gsi_group_barrier_check(r->fn, r->g, 0, r->digest);
    for (size_t off = lo, len; off < hi; off += len) {
        len = hi - off < chunk ? hi - off : chunk;
        slice_chunk(r, off, len, a, b, buf);
    }
    gsi_group_barrier(r->fn, r->g, !r->p2p);
}

void gsi_reduce(const char *fn, gsi_group_t *g, gsi_reduce_kind_t kind, void *dest,
                const void *source, size_t nelems, size_t elem_size, gsi_combine_fn_t combine)
{
    reduce_t r = {.fn = fn,
                  .g = g,
                  .kind = kind,
                  .dest = dest,
                  .source = source,
                  .from = source,
                  .size = elem_size,
                  .combine = combine};
    size_t bytes, words;

    if (nelems == 0)
        return;
    if (nelems > SIZE_MAX / elem_size)
        gsi_fatal(fn, "%zu elements of %zu bytes do not fit in memory", nelems, elem_size);
    bytes = nelems * elem_size;
    /* Both are symmetric arrays of nelems on every member (before anyone
     * waits: a bad one ends the job instead of leaving the others in the
     * first barrier). */
    gsi_check_symmetric(fn, "dest", dest, bytes);
    gsi_check_symmetric(fn, "source", source, bytes);
    if (r.dest != r.source && r.dest < r.source + bytes && r.source < r.dest + bytes)
        gsi_fatal(fn, "dest %p and source %p overlap: they must be the same array or disjoint",
                  dest, source);
    if (g->n == 1) {
        if (kind == GSI_SCAN_EXCL)
            memset(dest, 0, bytes);
        else if (dest != source)
            memcpy(dest, source, bytes);
        return;
    }
    r.p2p = g->all_p2p && gsi_pe.env.coll_p2p;
    r.digest = gsi_call_digest(kind == GSI_REDUCE_ALL  ? GSI_CALL_REDUCE
                               : kind == GSI_SCAN_INCL ? GSI_CALL_INSCAN
                                                       : GSI_CALL_EXSCAN,
                               gsi_call_name_hash(fn), nelems);
    if (g->team && bytes <= STAGE_BYTES && bytes < gsi_pe.env.reduce_scatter_min)
        staged(&r, bytes);
    else if ((words = mailbox_slot_words(&r, bytes)) != 0)
        mailbox(&r, bytes, words);
    else if (bytes < gsi_pe.env.reduce_scatter_min)
        whole(&r, bytes);
    else
        sliced(&r, nelems);
}

void gsi_reduce_scatter(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, gsi_combine_fn_t combine)
{
    _Alignas(64) unsigned char acc[CHUNK], buf[CHUNK];
    reduce_t r = {.fn = fn,
                  .g = g,
                  .kind = GSI_REDUCE_ALL,
                  .dest = dest,
                  .source = source,
                  .size = elem_size,
                  .combine = combine};
    size_t bytes, chunk = CHUNK / elem_size * elem_size;
    const char *mine;

    if (nreduce == 0)
        return;
    if (nreduce > SIZE_MAX / elem_size / (size_t)g->n)
        gsi_fatal(fn, "%zu elements of %zu bytes per PE of %d do not fit in memory", nreduce,
                  elem_size, g->n);
    bytes = nreduce * elem_size;
    gsi_check_symmetric(fn, "dest", dest, bytes);
    gsi_check_symmetric(fn, "source", source, bytes * (size_t)g->n);
    mine = r.source + (size_t)g->me * bytes;
    /* In place on this member's own block is safe: only this member reads
     * it, chunk by chunk before writing that chunk.  Any other overlap
     * would overwrite a block another member has yet to read. */
    if (r.dest != mine && r.dest < r.source + bytes * (size_t)g->n && r.source < r.dest + bytes)
        gsi_fatal(fn,
                  "dest %p and source %p overlap: dest must be disjoint from source or be this "
                  "PE's own block of it",
                  dest, source);
    if (g->n == 1) {
        if (r.dest != mine)
            memcpy(dest, source, bytes);
        return;
    }
    r.p2p = g->all_p2p && gsi_pe.env.coll_p2p;
    r.from = mine;
    gsi_group_barrier_check(fn, g, 0,
                            gsi_call_digest(GSI_CALL_REDUCESCATTER, gsi_call_name_hash(fn),
                                            nreduce));
    for (size_t off = 0, len; off < bytes; off += len) {
        len = bytes - off < chunk ? bytes - off : chunk;
        /* Combined aside, then stored: in place, dest is this member's
         * block, which combine_upto still reads. */
        combine_upto(&r, acc, g->n - 1, off, len, buf);
        memcpy(r.dest + off, acc, len);
    }
    gsi_group_barrier(fn, g, 0);
}
