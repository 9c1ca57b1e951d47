/* host/cache.c - the cache-management routines removed in OpenSHMEM 1.5.
 * Memory is coherent here, so they have nothing to do; they stay so that
 * legacy programs still link. */
#include "api.h"

void pshmem_clear_cache_inv(void)
{
}
GSI_ALIAS(shmem_clear_cache_inv)
void pshmem_set_cache_inv(void)
{
}
GSI_ALIAS(shmem_set_cache_inv)
void pshmem_set_cache_line_inv(void *target)
{
    (void)target;
}
GSI_ALIAS(shmem_set_cache_line_inv)
void pshmem_clear_cache_line_inv(void *target)
{
    (void)target;
}
GSI_ALIAS(shmem_clear_cache_line_inv)
void pshmem_udcflush(void)
{
}
GSI_ALIAS(shmem_udcflush)
void pshmem_udcflush_line(void *target)
{
    (void)target;
}
GSI_ALIAS(shmem_udcflush_line)
