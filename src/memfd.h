/* src/memfd.h - the host memory provider: memory backed by a memfd, so node
 * peers can map it too (they open /proc/<pid>/fd/<fd> of its owner). */
#ifndef GSI_MEMFD_H
#define GSI_MEMFD_H

#include <stddef.h>
#include <sys/types.h>
#include "status.h"

/* A new sparse memfd of `size` bytes mapped read/write; pages are committed
 * by the kernel on first touch. */
gsi_status_t gsi_memfd_create(const char *name, size_t size, int *fd, void **addr);

/* Map `size` bytes of process `pid`'s descriptor `fd`. */
gsi_status_t gsi_memfd_map_peer(pid_t pid, int fd, size_t size, void **addr);

void gsi_memfd_unmap(void *addr, size_t size);

#endif
