/* host/heap_hold.c - gshmemx_heap_hold, gshmemx_heap_release: the local heap
 * kept mapped past shmem_finalize for a binding's views of it
 * (src/core/heap_keep.h says why and how). */
#include "api.h"

#include "core/heap_keep.h"

int pgshmemx_heap_hold(void **hold)
{
    const char *fn = "gshmemx_heap_hold";
    gsi_heap_hold_t *h;

    gsi_check_init(fn);
    if (!hold) {
        GSI_WARN("%s: hold is NULL", fn);
        return 1;
    }
    if (gsi_heap_hold(fn, &h) != GSI_OK)
        return 1;
    *hold = h;
    return 0;
}
GSI_ALIAS(gshmemx_heap_hold)

int pgshmemx_heap_release(void *hold)
{
    return gsi_heap_hold_drop("gshmemx_heap_release", hold) == GSI_OK ? 0 : 1;
}
GSI_ALIAS(gshmemx_heap_release)
