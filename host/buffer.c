/* host/buffer.c - bring-your-own buffers (device/gsd/host_api.h):
 * gshmemx_buffer_register, _unregister, _unregister_all, with NVSHMEM's
 * return codes, and the collective _register_symmetric and
 * _unregister_symmetric (core/symreg.c).  Misuse returns GSHMEMX_ERROR_INVALID_VALUE and logs one
 * line naming the routine: a program that checks the code can go on, one
 * that does not still sees why. */
#include "api.h"
#include "alloc_call.h"

#include "coll/sync.h"
#include "core/localbuf.h"
#include "core/symreg.h"
#include "gpu/device.h"

#pragma GCC visibility push(default)
#include "gsd/host_api.h"
#pragma GCC visibility pop

static int code_of(gsi_status_t status)
{
    switch (status) {
    case GSI_OK: return GSHMEMX_SUCCESS;
    case GSI_ERR_INVALID: return GSHMEMX_ERROR_INVALID_VALUE;
    case GSI_ERR_NOMEM: return GSHMEMX_ERROR_OUT_OF_MEMORY;
    default: return GSHMEMX_ERROR_INTERNAL;
    }
}

int gshmemx_buffer_register(void *addr, size_t length)
{
    const char *fn = "gshmemx_buffer_register";
    char err[256] = "";
    gsi_status_t status;

    gsi_check_init(fn);
    status = gsi_localbuf_add(addr, length, err, sizeof(err));
    /* And for device code: a GPU pins and maps a host buffer it does not
     * know, so a kernel may name it as a local source or destination. */
    if (status == GSI_OK && gsi_device_mem() && gsi_device_mem()->host_register) {
        status = gsi_device_mem()->host_register(addr, length, err, sizeof(err));
        if (status != GSI_OK)
            gsi_localbuf_remove(addr);
    }
    if (status != GSI_OK)
        GSI_WARN("%s: %s", fn, err);
    return code_of(status);
}

int gshmemx_buffer_unregister(void *addr)
{
    const char *fn = "gshmemx_buffer_unregister";
    gsi_status_t status;

    gsi_check_init(fn);
    status = gsi_localbuf_remove(addr);
    if (status != GSI_OK)
        GSI_WARN("%s: %p is not the address of a registered buffer", fn, addr);
    else if (gsi_device_mem() && gsi_device_mem()->host_unregister)
        gsi_device_mem()->host_unregister(addr);
    return code_of(status);
}

void gshmemx_buffer_unregister_all(void)
{
    gsi_check_init("gshmemx_buffer_unregister_all");
    gsi_localbuf_remove_all();
    if (gsi_device_mem() && gsi_device_mem()->host_unregister)
        gsi_device_mem()->host_unregister(NULL);
}

void *gshmemx_buffer_register_symmetric(void *buf_ptr, size_t size, int flags)
{
    const char *fn = "gshmemx_buffer_register_symmetric";
    const gsi_alloc_call_t *call;
    char err[256] = "";

    gsi_check_init(fn);
    if (flags != 0)
        gsi_fatal(fn, "flags is %d: no flags are defined, pass 0", flags);
    /* Counted with the allocation calls, and compared at a barrier before
     * the bootstrap's allgather: a PE that registers alone (or where a peer
     * allocates) is named at once, not after the whole wait timeout in the
     * launcher's fence; a peer in shmem_finalize is named by the barrier. */
    call = gsi_alloc_announce(GSI_ALLOC_SYMREG, 0, 0, 0);
    gsi_barrier_world(fn, 0);
    gsi_alloc_compare(fn, call);
    if (gsi_symreg_add(fn, buf_ptr, size, err, sizeof(err)) != GSI_OK) {
        GSI_WARN("%s: %s", fn, err); /* the same on every PE: all return NULL */
        return NULL;
    }
    /* No PE reaches a peer's buffer before that peer has registered it. */
    gsi_barrier_world(fn, 0);
    return buf_ptr;
}

/* NVSHMEM maps the buffer again at a symmetric address of its own choosing,
 * preferred_addr a hint for it.  Here the symmetric address of a registered
 * buffer is the buffer itself (node peers map its file, the others reach it
 * through the transport): there is no address to choose, so the hint is
 * not used and the result is buf_ptr, as from gshmemx_buffer_register_symmetric. */
void *gshmemx_buffer_register_symmetric_at_preferred_address(void *buf_ptr, size_t size,
                                                             void *preferred_addr, int flags)
{
    (void)preferred_addr;
    return gshmemx_buffer_register_symmetric(buf_ptr, size, flags);
}

int gshmemx_buffer_unregister_symmetric(void *mmap_ptr, size_t size)
{
    const char *fn = "gshmemx_buffer_unregister_symmetric";
    int r;

    gsi_check_init(fn);
    r = gsi_symreg_find(fn, mmap_ptr, size);
    /* Every PE's operations on it complete (device code's too) before any
     * PE takes it away. */
    gsi_barrier_release(fn);
    gsi_symreg_remove(r);
    return GSHMEMX_SUCCESS;
}
