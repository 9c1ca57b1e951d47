/* src/base/shared_map.h - which open file lies behind a shared mapping of
 * this process, so that node peers can map the same pages: they open
 * /proc/<pid>/fd/<fd> of this process, as they do for the heap's memfd
 * (gshmemx_buffer_register_symmetric). */
#ifndef GSI_SHARED_MAP_H
#define GSI_SHARED_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* [addr, addr + len) must lie in one writable MAP_SHARED mapping of a file
 * that a descriptor of this process has open (a memfd, a file in /dev/shm).
 * *fd gets that descriptor and *offset the file offset of addr.
 * GSI_ERR_INVALID otherwise, with err saying why (private or anonymous
 * memory, not mapped, read-only, spread over several mappings, no open
 * descriptor); GSI_ERR_SYSTEM when /proc cannot be read. */
gsi_status_t gsi_shared_map_find(const void *addr, size_t len, int *fd, uint64_t *offset, char *err,
                                 size_t errlen);

#endif
