/* src/core/pe.c - this PE's state, and the ends of the argument checks:
 * one line naming the misuse, then the whole job ends. */
#include "core/pe.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "bootstrap/bootstrap.h"
#include "net/transport.h"

gsi_pe_t gsi_pe = {.my_pe = -1, .region = {{.fd = -1}, {.fd = -1}, {.fd = -1}}};

gsi_status_t gsi_region_add(int r, const gsi_region_t *reg)
{
    gsi_region_t *slot;

    if (r < 0 || r >= GSI_REGION_MAX)
        return GSI_ERR_INVALID;
    slot = &gsi_pe.region[r];
    if (slot->size || slot->peer)
        return GSI_ERR_INVALID;
    /* Lookups stop at n_regions: the slots skipped on the way are empty
     * (size 0 matches no address), as init left them.  The sizes last, so
     * a lookup running meanwhile never matches a half-written slot. */
    slot->base = reg->base;
    slot->peer = reg->peer;
    slot->fd = reg->fd;
    slot->copy = reg->copy;
    slot->dev_peer = reg->dev_peer;
    __atomic_store_n(&slot->user_size, reg->user_size, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->size, reg->size, __ATOMIC_RELEASE);
    if (r >= gsi_pe.n_regions)
        __atomic_store_n(&gsi_pe.n_regions, r + 1, __ATOMIC_RELEASE);
    return GSI_OK;
}

void gsi_region_remove(int r)
{
    if (r < 0 || r >= gsi_pe.n_regions)
        return;
    /* Sizes first: a lookup running meanwhile stops matching the slot. */
    __atomic_store_n(&gsi_pe.region[r].size, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&gsi_pe.region[r].user_size, 0, __ATOMIC_RELEASE);
    memset(&gsi_pe.region[r], 0, sizeof(gsi_pe.region[r]));
    gsi_pe.region[r].fd = -1;
    /* Back to the regions init made, so finalize unmaps only those. */
    while (gsi_pe.n_regions > 0 && !gsi_pe.region[gsi_pe.n_regions - 1].size &&
           !gsi_pe.region[gsi_pe.n_regions - 1].peer)
        gsi_pe.n_regions--;
}

void gsi_global_exit(int status)
{
    fflush(NULL);
    if (gsi_pe.boot && gsi_pe.my_pe >= 0)
        gsi_pe.boot->abort(status, NULL);
    _exit(status);
}

void gsi_fatal_uninit(const char *fn)
{
    gsi_fatal(fn, "called before shmem_init (or after the last shmem_finalize)");
}

void gsi_fatal_pe(const char *fn, int pe)
{
    gsi_fatal(fn, "PE %d is out of range: the job has PEs 0 to %d", pe, gsi_pe.n_pes - 1);
}

void gsi_fatal_addr(const char *fn, const void *addr, size_t len, int pe)
{
    gsi_fatal(fn,
              "address %p (%zu bytes, for PE %d) is not in symmetric memory: "
              "use a global or static variable or memory from shmem_malloc",
              addr, len, pe);
}

void gsi_fatal_arg(const char *fn, const char *arg, const void *addr, size_t len)
{
    gsi_fatal(fn,
              "%s address %p (%zu bytes) is not in symmetric memory: pass a global or "
              "static variable or memory from shmem_malloc, large enough for the call",
              arg, addr, len);
}

void gsi_fatal_device_arg(const char *fn, const char *arg, const void *addr, size_t len)
{
    gsi_fatal(fn,
              "%s address %p (%zu bytes) is in the device heap (GPU memory), which host "
              "collectives do not take: use memory from shmem_malloc, or the device "
              "collectives",
              arg, addr, len);
}

void gsi_fatal_null(const char *fn, const char *what, size_t len)
{
    gsi_fatal(fn, "%s is NULL, with %zu bytes to transfer", what, len);
}

void gsi_fatal_device_amo(const char *fn, int pe)
{
    gsi_fatal(fn,
              "PE %d's copy of this address is GPU memory mapped on this node, which host "
              "atomics, signals and waits cannot reach: do them from device code",
              pe);
}

void gsi_fatal_net(const char *fn, gsi_status_t status, int pe)
{
    gsi_fatal(fn, "transport %s, PE %d: %s", gsi_pe.net->name, pe, gsi_status_str(status));
}
