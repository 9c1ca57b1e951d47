/* host/buffer.c - bring-your-own buffers (device/gsd/host_api.h):
 * gshmemx_buffer_register, _unregister, _unregister_all, with NVSHMEM's
 * return codes.  Misuse returns GSHMEMX_ERROR_INVALID_VALUE and logs one
 * line naming the routine: a program that checks the code can go on, one
 * that does not still sees why. */
#include "api.h"

#include "core/localbuf.h"

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
    return code_of(status);
}

void gshmemx_buffer_unregister_all(void)
{
    gsi_check_init("gshmemx_buffer_unregister_all");
    gsi_localbuf_remove_all();
}
