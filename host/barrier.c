/* host/barrier.c - shmem_barrier_all and shmem_sync_all; the team and
 * active-set collectives are in host/coll_*.c. */
#include "api.h"

#include "coll/sync.h"

void pshmem_barrier_all(void)
{
    gsi_check_init("shmem_barrier_all");
    gsi_barrier_world("shmem_barrier_all", 1);
}
GSI_ALIAS(shmem_barrier_all)

void pshmem_sync_all(void)
{
    gsi_check_init("shmem_sync_all");
    gsi_barrier_world("shmem_sync_all", 0);
}
GSI_ALIAS(shmem_sync_all)
