/* src/coll/coll_group.c - groups: teams and active sets. */
#include "coll/coll.h"

#include "base/log.h"
#include "coll/sync.h"
#include "core/rma.h"

int gsi_group_team(const char *fn, gsi_group_t *g, struct gshmem_team *team)
{
    team = gsi_team_check(fn, team);
    if (!team || team->my_pe < 0)
        return -1;
    *g = (gsi_group_t){.team = team, .n = team->n_pes, .me = team->my_pe, .all_p2p = team->all_p2p};
    return 0;
}

void gsi_group_aset(const char *fn, gsi_group_t *g, int pe_start, int log_stride, int pe_size,
                    long *psync)
{
    size_t offset;
    int stride, last;

    if (log_stride < 0 || log_stride > 30 || pe_size < 1 || pe_start < 0)
        gsi_fatal(fn, "active set PE_start %d, logPE_stride %d, PE_size %d is invalid", pe_start,
                  log_stride, pe_size);
    stride = 1 << log_stride;
    last = pe_start + (pe_size - 1) * stride;
    if (last >= gsi_pe.n_pes || last < pe_start)
        gsi_fatal(fn, "active set PE_start %d, logPE_stride %d, PE_size %d reaches past PE %d",
                  pe_start, log_stride, pe_size, gsi_pe.n_pes - 1);
    if (gsi_region_of(psync, GSI_PSYNC_WORDS * sizeof(long), &offset) < 0)
        gsi_fatal(fn, "pSync %p is not a symmetric array of %d longs (SHMEM_SYNC_SIZE)",
                  (void *)psync, GSI_PSYNC_WORDS);
    *g = (gsi_group_t){.n = pe_size,
                       .start = pe_start,
                       .stride = stride,
                       .psync = psync,
                       .me = -1,
                       .all_p2p = 1};
    if ((gsi_pe.my_pe - pe_start) % stride == 0 && gsi_pe.my_pe >= pe_start && gsi_pe.my_pe <= last)
        g->me = (gsi_pe.my_pe - pe_start) / stride;
    if (g->me < 0)
        gsi_fatal(fn, "PE %d is not in the active set PE_start %d, logPE_stride %d, PE_size %d",
                  gsi_pe.my_pe, pe_start, log_stride, pe_size);
    for (int i = 0; i < pe_size; i++)
        if (!gsi_pe.region[GSI_REGION_HEAP].peer[gsi_group_pe(g, i)])
            g->all_p2p = 0;
}

void *gsi_group_ptr(const char *fn, const gsi_group_t *g, const void *addr, size_t len, int i)
{
    gsi_target_t t;

    return gsi_lib_target(fn, addr, len, gsi_group_pe(g, i), &t);
}
