/* src/coll/team_init.c - a team from an arbitrary set of PEs
 * (gshmemx_team_init, NVSHMEM's nvshmemx_team_init): no parent team, so no
 * collective over a parent.  Each would-be member publishes an offer in its
 * own sync area (the team's unique id, its index, the team's size, its free
 * slots) and reads every world PE's offer until it has found all npes
 * members; they then agree on the lowest slot free on every one of them
 * (the same answer on each: the same offers are read), make the team, and
 * meet in the new team's barrier before taking the offer down, so no member
 * withdraws an offer another has yet to read.  PEs that are not members
 * take no part; two teams with common members must be made in the same
 * order on those members, as any collective. */
#include "config.h"
#include "coll/team.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "coll/sync.h"
#include "core/pe.h"
#include "core/rma.h"
#include "core/wait.h"

/* One offer per PE: this PE's team_init calls take turns. */
static pthread_mutex_t offer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Read every world PE's offer until npes members are found: pes[i] gets
 * the member of index i, the result is the AND of their free slots. */
static uint64_t find_members(const char *fn, uint64_t uid, int npes, int *pes)
{
    gsi_team_offer_t *mine = &gsi_pe.sync->offer;
    char *seen = calloc((size_t)gsi_pe.n_pes, 1);
    uint64_t common = ~(uint64_t)0;
    gsi_waiter_t w = GSI_WAITER_INIT;
    char what[160];
    int found = 0, said = -1;

    if (!seen)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    for (int i = 0; i < npes; i++)
        pes[i] = -1;
    while (found < npes) {
        for (int pe = 0; pe < gsi_pe.n_pes; pe++) {
            uint64_t theirs, in[2];
            int idx, n;

            if (seen[pe])
                continue;
            gsi_lib_get(fn, &theirs, &mine->uid, sizeof(theirs), pe);
            if (theirs != uid)
                continue;
            /* Written before the uid: complete once the uid is seen. */
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            gsi_lib_get(fn, in, &mine->free, sizeof(in), pe);
            idx = (int)(in[1] >> 32);
            n = (int)(uint32_t)in[1];
            if (n != npes)
                gsi_fatal(fn, "PEs disagree: PE %d makes team %#llx of %d PEs, this PE of %d", pe,
                          (unsigned long long)uid, n, npes);
            if (idx < 0 || idx >= npes || pes[idx] >= 0)
                gsi_fatal(fn, "PEs disagree: PE %d and PE %d both take index %d of team %#llx",
                          idx >= 0 && idx < npes ? pes[idx] : -1, pe, idx, (unsigned long long)uid);
            pes[idx] = pe;
            common &= in[0];
            seen[pe] = 1;
            found++;
        }
        if (found < npes) {
            /* A member that never comes (it calls nothing, or passes
             * another team's id) is a wait like any other: it honours
             * GSHMEM_WAIT_TIMEOUT, saying how many were found. */
            if (found != said) {
                snprintf(what, sizeof(what),
                         "the members of team %#llx to call gshmemx_team_init (%d of %d found)",
                         (unsigned long long)uid, found, npes);
                said = found;
            }
            gsi_wait_step(&w, fn, what);
        }
    }
    free(seen);
    return common;
}

gsi_status_t gsi_team_create_uid(const char *fn, uint64_t uid, int npes, int idx, int n_contexts,
                                 struct gshmem_team **team, char *err, size_t errlen)
{
    gsi_team_offer_t *mine = &gsi_pe.sync->offer;
    uint64_t limit, common;
    gsi_status_t status;
    int *pes;

    *team = NULL;
    if (uid == 0) {
        snprintf(err, errlen, "the config's uniqueid is not set (gshmemx_team_get_uniqueid)");
        return GSI_ERR_INVALID;
    }
    if (npes < 1 || npes > gsi_pe.n_pes) {
        snprintf(err, errlen, "npes %d is not between 1 and the job's %d PEs", npes, gsi_pe.n_pes);
        return GSI_ERR_INVALID;
    }
    if (idx < 0 || idx >= npes) {
        snprintf(err, errlen, "pe_idx_in_team %d is not between 0 and npes - 1 = %d", idx,
                 npes - 1);
        return GSI_ERR_INVALID;
    }
    pes = malloc((size_t)npes * sizeof(*pes));
    if (!pes) {
        snprintf(err, errlen, "out of memory for a team of %d PEs", npes);
        return GSI_ERR_NOMEM;
    }
    pthread_mutex_lock(&offer_lock);
    mine->free = gsi_pe.sync->free_slots;
    mine->idx_npes = (uint64_t)idx << 32 | (uint32_t)npes;
    __atomic_store_n(&mine->uid, uid, __ATOMIC_RELEASE);
    common = find_members(fn, uid, npes, pes);
    limit = gsi_pe.env.max_teams >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << gsi_pe.env.max_teams) - 1;
    common &= limit;
    if (!common) {
        /* Every member reads the same offers and fails alike.  The offer
         * stays up for members still reading it; the next one replaces it. */
        snprintf(err, errlen,
                 "no team slot is free on every member: GSHMEM_MAX_TEAMS=%lld teams exist on "
                 "some of them (destroy teams, or raise GSHMEM_MAX_TEAMS up to 64)",
                 gsi_pe.env.max_teams);
        status = GSI_ERR_NOMEM;
    } else {
        status = gsi_team_from_pes(pes, npes, idx, __builtin_ctzll(common), n_contexts, team);
        if (status != GSI_OK)
            gsi_fatal(fn, "out of memory for a team of %d PEs", npes);
        gsi_team_barrier(fn, *team, 0);
        __atomic_store_n(&mine->uid, 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&offer_lock);
    free(pes);
    return status;
}
