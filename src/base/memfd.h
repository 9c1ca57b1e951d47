/* src/base/memfd.h - the host memory provider: memory backed by a memfd, so node
 * peers can map it too (they open /proc/<pid>/fd/<fd> of its owner). */
#ifndef GSI_MEMFD_H
#define GSI_MEMFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "base/status.h"

/* Where `hint` is taken, the mapping starts on a boundary of this many
 * bytes, so aligned offsets are aligned addresses. */
#define GSI_MEMFD_ALIGN ((size_t)1 << 30)

/* A new sparse memfd of `size` bytes mapped read/write; pages are committed
 * by the kernel on first touch.  Mapped at `hint` when that range is free
 * (never over an existing mapping), elsewhere on a GSI_MEMFD_ALIGN boundary. */
gsi_status_t gsi_memfd_create(const char *name, size_t size, void *hint, int *fd, void **addr);

/* Map `size` bytes of process `pid`'s descriptor `fd`. */
gsi_status_t gsi_memfd_map_peer(pid_t pid, int fd, size_t size, void **addr);
/* The same from file offset `offset` (a multiple of the page size). */
gsi_status_t gsi_memfd_map_peer_at(pid_t pid, int fd, uint64_t offset, size_t size, void **addr);

void gsi_memfd_unmap(void *addr, size_t size);

#endif
