/* src/net/ucx/ucx_local.c - local buffers the program registers
 * (gst_mem_reg_fn_t, gshmemx_buffer_register): each is mapped once with
 * ucp_mem_map, and a put or get whose local side lies inside one hands UCX
 * that memory handle (UCP_OP_ATTR_FIELD_MEMH), so UCX neither registers it
 * per call nor copies it through a bounce buffer.  The memory type is left
 * for UCX to detect: a GPU's device memory is mapped as CUDA memory where
 * UCX has CUDA support (compiled, not run: no GPU where this was written).
 *
 * The table is sorted by address and read under the transport's lock (the
 * data path holds it); ucp_mem_map and ucp_mem_unmap run outside it, as in
 * ucx_extra.c, since the context is shared among workers. */
#include "config.h"
#include "net/transport.h"

#ifdef GSHMEM_HAVE_UCX

#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "net/ucx/ucx_state.h"

/* Index of the first entry whose address is >= addr. */
static int lower_bound(uintptr_t addr)
{
    int lo = 0, hi = gst_ucx.n_local;

    while (lo < hi) {
        int mid = (lo + hi) / 2;

        if (gst_ucx.local[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

ucp_mem_h gst_ucx_local_mem(const void *p, size_t len)
{
    uintptr_t a = (uintptr_t)p, off;
    int i;

    if (!gst_ucx.n_local)
        return NULL;
    i = lower_bound(a + 1) - 1; /* the last entry that starts at or before a */
    if (i < 0)
        return NULL;
    off = a - gst_ucx.local[i].addr;
    return off < gst_ucx.local[i].len && len <= gst_ucx.local[i].len - off ? gst_ucx.local[i].mem
                                                                           : NULL;
}

/* Room for one more entry (the lock held). */
static gsi_status_t local_reserve(void)
{
    int cap = gst_ucx.cap_local ? 2 * gst_ucx.cap_local : 8;
    gst_ucx_local_t *grown;

    if (gst_ucx.n_local < gst_ucx.cap_local)
        return GSI_OK;
    grown = realloc(gst_ucx.local, (size_t)cap * sizeof(*grown));
    if (!grown)
        return GSI_ERR_NOMEM;
    gst_ucx.local = grown;
    gst_ucx.cap_local = cap;
    return GSI_OK;
}

gsi_status_t gst_ucx_mem_reg(void *addr, size_t len, void **handle, char *err, size_t errlen)
{
    ucp_mem_map_params_t mp = {0};
    ucp_mem_h mem;
    ucs_status_t status;
    gsi_status_t gst;
    int i;

    if (!gst_ucx.context) {
        snprintf(err, errlen, "UCX transport is not initialized");
        return GSI_ERR_INVALID;
    }
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = addr;
    mp.length = len;
    status = ucp_mem_map(gst_ucx.context, &mp, &mem);
    if (status != UCS_OK)
        return gst_ucx_failed(err, errlen, "ucp_mem_map", status);
    gst_ucx_lock();
    gst = local_reserve();
    if (gst == GSI_OK) {
        i = lower_bound((uintptr_t)addr);
        memmove(&gst_ucx.local[i + 1], &gst_ucx.local[i],
                (size_t)(gst_ucx.n_local - i) * sizeof(gst_ucx.local[0]));
        gst_ucx.local[i] = (gst_ucx_local_t){.addr = (uintptr_t)addr, .len = len, .mem = mem};
        gst_ucx.n_local++;
    }
    gst_ucx_unlock();
    if (gst != GSI_OK) {
        ucp_mem_unmap(gst_ucx.context, mem);
        snprintf(err, errlen, "out of memory for the registered buffers' table");
        return gst;
    }
    *handle = mem;
    return GSI_OK;
}

/* Operations that used the handle are complete: the caller unregisters
 * only after its own quiet (gshmemx_buffer_unregister's contract). */
void gst_ucx_mem_dereg(void *handle)
{
    int found = 0;

    gst_ucx_lock();
    for (int i = 0; i < gst_ucx.n_local; i++) {
        if (gst_ucx.local[i].mem != handle)
            continue;
        memmove(&gst_ucx.local[i], &gst_ucx.local[i + 1],
                (size_t)(gst_ucx.n_local - i - 1) * sizeof(gst_ucx.local[0]));
        gst_ucx.n_local--;
        found = 1;
        break;
    }
    gst_ucx_unlock();
    if (found)
        ucp_mem_unmap(gst_ucx.context, (ucp_mem_h)handle);
}

/* At teardown: whatever the program left registered. */
void gst_ucx_local_release(void)
{
    for (int i = 0; i < gst_ucx.n_local; i++)
        ucp_mem_unmap(gst_ucx.context, gst_ucx.local[i].mem);
    free(gst_ucx.local);
    gst_ucx.local = NULL;
    gst_ucx.n_local = gst_ucx.cap_local = 0;
}

#endif /* GSHMEM_HAVE_UCX */
