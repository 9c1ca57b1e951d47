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

/* A size field in words: exact, or folded (src/coll/coll.h). */
static void size_text(char *buf, size_t len, uint64_t field, const char *unit)
{
    if (field & GSI_DIGEST_SIZE_FOLD)
        snprintf(buf, len, "another size of 2^31 %s or more", unit);
    else
        snprintf(buf, len, "%llu %s", (unsigned long long)field, unit);
}

/* Both sizes, in the words of the routine. */
static void size_words(char *buf, size_t len, unsigned call, uint64_t theirs, uint64_t mine)
{
    const char *unit = call == GSI_CALL_BCAST || call == GSI_CALL_FCOLLECT ||
                               call == GSI_CALL_ALLTOALL || call == GSI_CALL_ALLTOALLS
                           ? "bytes"
                           : "elements";
    char t[64], m[64];

    size_text(t, sizeof t, theirs, unit);
    size_text(m, sizeof m, mine, unit);
    switch (call) {
    case GSI_CALL_BCAST: snprintf(buf, len, "broadcasts %s, this PE %s", t, m); break;
    case GSI_CALL_FCOLLECT: snprintf(buf, len, "collects %s from each PE, this PE %s", t, m); break;
    case GSI_CALL_ALLTOALL:
    case GSI_CALL_ALLTOALLS: snprintf(buf, len, "sends %s to each PE, this PE %s", t, m); break;
    default: snprintf(buf, len, "reduces %s, this PE %s", t, m);
    }
}

/* A broadcast's root as the line names it: its PE number, or "a PE of
 * index 2048 or more in the team" when the digest folded it. */
static void root_text(char *buf, size_t len, const gsi_group_t *g, uint64_t d)
{
    int r = gsi_digest_root(d);

    if (r >= 0 && r < g->n)
        snprintf(buf, len, "PE %d", gsi_group_pe(g, r));
    else if (r >= 0)
        snprintf(buf, len, "index %d, past the team's %d PEs", r, g->n);
    else
        snprintf(buf, len, "another PE (of index 2048 or more in the team)");
}

unsigned gsi_call_name_hash(const char *fn)
{
    uint32_t h = 2166136261u; /* FNV-1a */

    for (; *fn; fn++)
        h = (h ^ (unsigned char)*fn) * 16777619u;
    /* 11 bits: below GSI_DIGEST_AUX_FOLD, so the digest keeps it whole. */
    return (h ^ h >> 11 ^ h >> 22) & (GSI_DIGEST_AUX_FOLD - 1);
}

_Noreturn void gsi_coll_disagree(const char *fn, const gsi_group_t *g, int member, int root,
                                 uint64_t theirs, uint64_t mine)
{
    unsigned call = gsi_digest_call(mine), their_call = gsi_digest_call(theirs);
    char pe[32], who[64], what[160], r1[80], r2[80];

    /* member < 0: the PE is not known (a folded root index). */
    if (member >= 0 && member < g->n)
        snprintf(pe, sizeof pe, "PE %d", gsi_group_pe(g, member));
    else
        snprintf(pe, sizeof pe, "another PE");
    snprintf(who, sizeof who, root ? "the root, %s," : "%s", pe);
    if (call != their_call)
        gsi_fatal(fn, "PEs disagree: %s calls %s, this PE %s", pe,
                  their_call < GSI_CALL_COUNT ? call_name[their_call] : "another collective", fn);
    if (gsi_digest_aux(mine) != gsi_digest_aux(theirs) && call == GSI_CALL_BCAST) {
        root_text(r1, sizeof r1, g, theirs);
        root_text(r2, sizeof r2, g, mine);
        gsi_fatal(fn, "PEs disagree on the root: %s names %s, this PE names %s", pe, r1, r2);
    }
    if (gsi_digest_aux(mine) != gsi_digest_aux(theirs))
        gsi_fatal(fn, "PEs disagree: %s calls a reduction of another operator or type than %s", pe,
                  fn);
    size_words(what, sizeof what, call, gsi_digest_size(theirs), gsi_digest_size(mine));
    gsi_fatal(fn, "PEs disagree: %s %s", who, what);
}
