/* src/gpu/device.h - the host side of the device API: this PE's device state
 * (gsd/state.h), built at init from the core's state and published where
 * device code reads it; the device heap; the team mirror.
 *
 * The memory behind it comes from one gsi_devmem_ops_t (src/gpu/devmem.h),
 * host memory on host lanes or the GPU's, chosen once at init. */
#ifndef GSI_DEVICE_H
#define GSI_DEVICE_H

#include <stddef.h>

#include "base/status.h"
#include "gpu/devmem.h"

struct gshmem_team;

/* At the end of gsi_init (collective: allocates the device sync area, then
 * a world barrier) and early in gsi_finalize (before the last barrier:
 * drains and stops the proxy). */
void gsi_device_init(const char *fn);
void gsi_device_fini(const char *fn);
/* The status device code's gshmem_global_exit asked for (GSD_EXIT_REQUESTED
 * set in the state's exit word), or -1: none, or no device state. */
int gsi_device_exit_request(void);

/* Mirror team slot `slot` into the device state: `team` just created on
 * this PE, or NULL once it is destroyed (gsi_team_observer while the
 * device API is up). */
void gsi_device_team_update(int slot, const struct gshmem_team *team);

/* The backend chosen at init (NULL before). */
const gsi_devmem_ops_t *gsi_device_mem(void);

/* module.c: attach (1) or detach (0) a CUDA module (library 0) or library
 * (library 1) the program loaded, so its own gsd_state_d gets the state.
 * Bad input (NULL, twice, never attached) ends the job with a line. */
void gsi_device_module(const char *fn, int library, void *handle, int attach);
/* At finalize: every attachment ends with the state. */
void gsi_device_modules_forget(void);

/* The device heap: local halves of gshmem_malloc / gshmem_free
 * (host/device.c makes them collective). */
void *gsi_device_heap_alloc(const char *fn, size_t size, size_t align);
gsi_status_t gsi_device_heap_free(void *ptr);
/* Offset of ptr in this PE's device heap, or -1 when it is not inside. */
long long gsi_device_heap_offset(const void *ptr);
/* pe's copy of device-heap address ptr as mapped in this process (device
 * code's address for it: GPU memory on a GPU), NULL when ptr is not in the
 * device heap or pe is reached through the network. */
void *gsi_device_heap_peer(const void *ptr, int pe);
/* Zero n bytes of device memory at dev. */
void gsi_device_memzero(void *dev, size_t n);

#endif
