/* host/alloc_call.c - every collective allocation call, on either heap, is
 * compared with the next PE's (host/alloc_call.h).  Allocation is
 * deterministic, so PEs that ask alike get the same addresses; one that
 * asks otherwise gets another address, or a NULL, and its puts and gets
 * land in the wrong place. */
#include "api.h"

#include "alloc_call.h"

/* This PE's collective allocation calls so far, both heaps together: a PE
 * that calls shmem_malloc where its peers call gshmem_malloc is found too. */
static uint64_t alloc_calls;

static const char *heap_name[] = {
    [GSI_ALLOC_HEAP] = "the symmetric heap (shmem_malloc, ...)",
    [GSI_ALLOC_DEVICE] = "the device heap (gshmem_malloc, ...)",
};

/* The call a record stands for, for a line. */
static const char *call_name(uint64_t heap)
{
    switch (heap) {
    case GSI_ALLOC_HEAP:
        return "an allocation call on the symmetric heap (shmem_malloc, ...)";
    case GSI_ALLOC_DEVICE:
        return "an allocation call on the device heap (gshmem_malloc, ...)";
    case GSI_ALLOC_SYMREG: return "gshmemx_buffer_register_symmetric";
    default: return "an unknown call";
    }
}

/* Records alternate by the call's parity (src/coll/sync.h). */
const gsi_alloc_call_t *gsi_alloc_announce(int heap, size_t size, size_t align,
                                           uint64_t offset)
{
    gsi_alloc_call_t *mine = &gsi_pe.sync->alloc[++alloc_calls & 1];

    mine->seq = alloc_calls;
    mine->heap = (uint64_t)heap;
    mine->size = size;
    mine->align = align;
    mine->offset = offset;
    return mine;
}

/* One read of the neighbour's record (a load, or one get over the
 * network) checks the whole ring, as every PE checks its own neighbour. */
void gsi_alloc_compare(const char *fn, const gsi_alloc_call_t *mine)
{
    int pe = (gsi_pe.my_pe + 1) % gsi_pe.n_pes;
    gsi_alloc_call_t theirs;

    if (pe == gsi_pe.my_pe)
        return;
    gsi_lib_get(fn, &theirs, mine, sizeof(theirs), pe);
    if (theirs.seq != mine->seq)
        gsi_fatal(
            fn,
            "PE %d is in its allocation or registration call number %llu, this PE in "
            "its %llu (%s): every PE must make the same allocation calls (shmem_malloc, "
            "shmem_free, ...) and symmetric registrations in the same order",
            pe, (unsigned long long)theirs.seq, (unsigned long long)mine->seq,
            call_name(mine->heap));
    if ((theirs.heap == GSI_ALLOC_SYMREG) != (mine->heap == GSI_ALLOC_SYMREG))
        gsi_fatal(fn,
                  "PE %d is in %s, this PE in %s: every PE must make the same allocation "
                  "calls and symmetric registrations in the same order",
                  pe, call_name(theirs.heap), call_name(mine->heap));
    if (theirs.heap != mine->heap)
        gsi_fatal(fn,
                  "PE %d allocates from %s, this PE from %s: every PE must make the same "
                  "allocation calls in the same order",
                  pe, heap_name[theirs.heap & 1], heap_name[mine->heap & 1]);
    if (theirs.size != mine->size)
        gsi_fatal(fn,
                  "PE %d asked for %llu bytes, this PE for %llu: every PE must ask for the "
                  "same size",
                  pe, (unsigned long long)theirs.size, (unsigned long long)mine->size);
    if (theirs.align != mine->align)
        gsi_fatal(fn,
                  "PE %d asked for alignment %llu, this PE for %llu: every PE must ask for "
                  "the same",
                  pe, (unsigned long long)theirs.align, (unsigned long long)mine->align);
    if (theirs.offset != mine->offset)
        gsi_fatal(fn,
                  "PE %d passed the block at heap offset 0x%llx, this PE the one at 0x%llx: "
                  "every PE must pass the same block",
                  pe, (unsigned long long)theirs.offset - 1,
                  (unsigned long long)mine->offset - 1);
}
