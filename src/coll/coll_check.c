/* src/coll/coll_check.c - the line that ends a job whose members disagree on
 * a collective's arguments (issue 29): the digest's fields (src/coll/coll.h)
 * compared one by one, the first that differs named with both values. */
#include "coll/coll.h"

#include <stdio.h>

#include "base/log.h"

/* What a member calling each routine does, for the line. */
static const char *const call_name[GSI_CALL_COUNT] = {
    [GSI_CALL_NONE] = "no collective",
    [GSI_CALL_BARRIER] = "a barrier (shmem_barrier_all, shmem_sync_all, shmem_team_sync)",
    [GSI_CALL_BCAST] = "a broadcast",
    [GSI_CALL_COLLECT] = "a collect",
    [GSI_CALL_FCOLLECT] = "an fcollect",
    [GSI_CALL_ALLTOALL] = "an alltoall",
    [GSI_CALL_ALLTOALLS] = "an alltoalls",
    [GSI_CALL_REDUCE] = "a reduction",
    [GSI_CALL_INSCAN] = "an inclusive scan",
    [GSI_CALL_EXSCAN] = "an exclusive scan",
    [GSI_CALL_REDUCESCATTER] = "a reduce-scatter",
};

/* Both sizes, in the words of the routine. */
static void size_words(char *buf, size_t len, unsigned call, unsigned long long theirs,
                       unsigned long long mine)
{
    switch (call) {
    case GSI_CALL_BCAST:
        snprintf(buf, len, "broadcasts %llu bytes, this PE %llu bytes", theirs, mine);
        break;
    case GSI_CALL_FCOLLECT:
        snprintf(buf, len, "collects %llu bytes from each PE, this PE %llu bytes", theirs, mine);
        break;
    case GSI_CALL_ALLTOALL:
    case GSI_CALL_ALLTOALLS:
        snprintf(buf, len, "sends %llu bytes to each PE, this PE %llu bytes", theirs, mine);
        break;
    default: snprintf(buf, len, "reduces %llu elements, this PE %llu elements", theirs, mine);
    }
}

unsigned gsi_call_name_hash(const char *fn)
{
    uint32_t h = 2166136261u; /* FNV-1a */

    for (; *fn; fn++)
        h = (h ^ (unsigned char)*fn) * 16777619u;
    return (h ^ h >> 8 ^ h >> 16 ^ h >> 24) & 0xff;
}

_Noreturn void gsi_coll_disagree(const char *fn, const gsi_group_t *g, int member, int root,
                                 uint64_t theirs, uint64_t mine)
{
    unsigned call = (unsigned)(mine >> 40 & 0xff), their_call = (unsigned)(theirs >> 40 & 0xff);
    unsigned aux = (unsigned)(mine >> 32 & 0xff), their_aux = (unsigned)(theirs >> 32 & 0xff);
    unsigned long long size = mine & UINT32_MAX, their_size = theirs & UINT32_MAX;
    int pe = member >= 0 && member < g->n ? gsi_group_pe(g, member) : member;
    char who[64], what[128];

    if (root)
        snprintf(who, sizeof who, "the root, PE %d,", pe);
    else
        snprintf(who, sizeof who, "PE %d", pe);
    if (call != their_call)
        gsi_fatal(fn, "PEs disagree: PE %d calls %s, this PE %s", pe,
                  their_call < GSI_CALL_COUNT ? call_name[their_call] : "another collective", fn);
    if (aux != their_aux && call == GSI_CALL_BCAST)
        gsi_fatal(fn, "PEs disagree on the root: PE %d names PE %d, this PE names PE %d", pe,
                  (int)their_aux < g->n ? gsi_group_pe(g, (int)their_aux) : (int)their_aux,
                  (int)aux < g->n ? gsi_group_pe(g, (int)aux) : (int)aux);
    if (aux != their_aux)
        gsi_fatal(fn, "PEs disagree: PE %d calls a reduction of another operator or type than %s",
                  pe, fn);
    size_words(what, sizeof what, call, their_size, size);
    gsi_fatal(fn, "PEs disagree: %s %s", who, what);
}
