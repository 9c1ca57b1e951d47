/* src/coll/coll_alltoall.c - alltoall and alltoalls.
 *
 * Pairwise order: in step s every member sends to member me+s, so in each
 * step every member has exactly one writer, and no member's memory is
 * the target of all the others at once.  Load/store when every member is
 * mapped (memcpy into the peer's dest), puts otherwise; one barrier (with
 * completion on the network) ends the call: every block has landed and
 * every source may be reused. */
#include "coll/coll_engine.h"
#include "coll/coll_sig.h"

void gsi_coll_alltoall(const char *fn, gsi_group_t *g, void *dest, const void *source,
                       size_t nbytes)
{
    gsi_coll_t c;
    char *to = (char *)dest + (size_t)g->me * nbytes;

    gsi_coll_begin(&c, fn, g);
    c.digest = gsi_call_digest(GSI_CALL_ALLTOALL, 0, nbytes);
    gsi_coll_stream(&c, (size_t)g->n * g->n * nbytes);
    for (int s = 1; s <= g->n; s++) {
        int i = (g->me + s) % g->n;

        gsi_coll_put(&c, to, (const char *)source + (size_t)i * nbytes, nbytes, i);
    }
    if (g->n > 1)
        gsi_coll_sync(&c, !c.p2p);
    gsi_coll_end(&c);
}

/* count elements of `size` bytes, `ds` and `ss` elements apart. */
static void copy_strided(char *d, const char *s, size_t count, size_t ds, size_t ss, size_t size)
{
    switch (size) {
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
#define GSI_STRIDED_CASE(T)                                                    \
    case sizeof(T):                                                            \
        for (size_t k = 0; k < count; k++)                                     \
            memcpy(d + k * ds * sizeof(T), s + k * ss * sizeof(T), sizeof(T)); \
        return;
        GSI_STRIDED_CASE(uint8_t)
        GSI_STRIDED_CASE(uint16_t)
        GSI_STRIDED_CASE(uint32_t)
        GSI_STRIDED_CASE(uint64_t)
#undef GSI_STRIDED_CASE
        /* clang-format on */
    default:
        for (size_t k = 0; k < count; k++)
            memcpy(d + k * ds * size, s + k * ss * size, size);
    }
}

/* Over the network, a block whose dest is contiguous goes in few puts:
 * its strided source elements are packed in a bounce buffer first. */
static void put_packed(const char *fn, char *to, const char *from, size_t count, size_t ss,
                       size_t size, int pe)
{
    char buf[4096];
    size_t per = sizeof buf / size;

    for (size_t k = 0; k < count; k += per) {
        size_t m = count - k < per ? count - k : per;

        copy_strided(buf, from + k * ss * size, m, 1, ss, size);
        gsi_lib_put(fn, to + k * size, buf, m * size, pe);
    }
}

void gsi_coll_alltoalls(const char *fn, gsi_group_t *g, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t nelems)
{
    gsi_coll_t c;
    size_t ds = (size_t)dst, ss = (size_t)sst;
    size_t span = ((nelems - 1) * ds + 1) * elem_size; /* bytes one block covers in dest */
    char *to = (char *)dest + (size_t)g->me * nelems * ds * elem_size;

    if (ds == 1 && ss == 1) {
        gsi_coll_alltoall(fn, g, dest, source, nelems * elem_size);
        return;
    }
    if (nelems) {
        gsi_coll_begin(&c, fn, g);
        c.digest = gsi_call_digest(GSI_CALL_ALLTOALLS, 0, nelems * elem_size);
    }
    for (int s = 1; s <= g->n; s++) {
        int i = (g->me + s) % g->n;
        const char *from = (const char *)source + (size_t)i * nelems * ss * elem_size;
        char *p = i == g->me ? to : c.p2p ? gsi_group_ptr(fn, g, to, span, i) : NULL;

        if (p)
            copy_strided(p, from, nelems, ds, ss, elem_size);
        else if (ds == 1)
            put_packed(fn, to, from, nelems, ss, elem_size, gsi_group_pe(g, i));
        else
            for (size_t k = 0; k < nelems; k++)
                gsi_lib_put(fn, to + k * ds * elem_size, from + k * ss * elem_size, elem_size,
                            gsi_group_pe(g, i));
    }
    if (g->n > 1)
        gsi_coll_sync(&c, !c.p2p);
    gsi_coll_end(&c);
}
