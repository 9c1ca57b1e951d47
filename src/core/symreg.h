/* src/core/symreg.h - buffers the program makes symmetric after init
 * (gshmemx_buffer_register_symmetric): each PE's buffer, a MAP_SHARED
 * mapping of a file it has open (a memfd), becomes one new region.  Node
 * peers map the file through /proc/<pid>/fd/<fd>, as they map the heap;
 * the others reach it through the transport's map_region.  The symmetric
 * address is the caller's own buffer: translation is by offset, so the
 * PEs' buffers may lie at different addresses.  Collective over the world,
 * called by one thread of each PE. */
#ifndef GSI_SYMREG_H
#define GSI_SYMREG_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Make [buf, buf + size) a symmetric region.  Misuse ends the job with one
 * line: NULL, size 0, memory already symmetric, memory node peers cannot
 * map (private, anonymous, read-only, no open descriptor), a size that
 * differs across PEs.  GSI_ERR_NOMEM (err says why, the same on every PE)
 * when all GSI_SYMREG_MAX slots are taken; the caller returns NULL then.
 * The caller synchronizes afterwards (the region is usable on a PE once
 * this returns, and a peer's once the peer's call returned too). */
gsi_status_t gsi_symreg_add(const char *fn, void *buf, size_t size, char *err, size_t errlen);

/* The region registered at buf with this size; the job ends with one line
 * when buf is not a registered buffer's start or size is not its size. */
int gsi_symreg_find(const char *fn, const void *buf, size_t size);

/* Take region r (from gsi_symreg_find) away: local, after the caller's
 * barrier has ended every use of it on every PE. */
void gsi_symreg_remove(int r);

/* What the program left registered (finalize, before the transport goes). */
void gsi_symreg_remove_all(void);

/* Every registered buffer's hook for device code: the gpu layer sets it to
 * mirror regions into the device state (NULL: none); size 0 removes. */
typedef void (*gsi_symreg_observer_fn_t)(int slot, int region, const void *base, size_t size,
                                         const uintptr_t *peer);
extern gsi_symreg_observer_fn_t gsi_symreg_observer;

#endif
