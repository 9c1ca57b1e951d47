/* host/barrier.c - shmem_barrier_all and shmem_sync_all; the team and
 * active-set collectives are in host/coll_*.c. */
#include "api.h"

#include "coll/coll.h"
#include "coll/sync.h"

void pshmem_barrier_all(void)
{
    gsi_check_init("shmem_barrier_all");
    gsi_team_barrier_agree("shmem_barrier_all", &gshmem_team_world, 1,
                           gsi_call_digest(GSI_CALL_BARRIER, 0, 0));
}
GSI_ALIAS(shmem_barrier_all)

void pshmem_sync_all(void)
{
    gsi_check_init("shmem_sync_all");
    gsi_team_barrier_agree("shmem_sync_all", &gshmem_team_world, 0,
                           gsi_call_digest(GSI_CALL_BARRIER, 0, 0));
}
GSI_ALIAS(shmem_sync_all)
