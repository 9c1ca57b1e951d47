/* src/memfd.c - memfd-backed shared memory. */
#define _GNU_SOURCE
#include "memfd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"

gsi_status_t gsi_memfd_create(const char *name, size_t size, int *fd, void **addr)
{
    void *map;
    int memfd = memfd_create(name, MFD_CLOEXEC);

    if (memfd < 0) {
        GSI_WARN("memfd_create(%s): %s", name, strerror(errno));
        return GSI_ERR_SYSTEM;
    }
    if (ftruncate(memfd, (off_t)size) != 0) {
        GSI_WARN("ftruncate(%s, %zu): %s", name, size, strerror(errno));
        goto err_close;
    }
    map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, memfd, 0);
    if (map == MAP_FAILED) {
        GSI_WARN("mmap(%s, %zu): %s", name, size, strerror(errno));
        goto err_close;
    }
    *fd = memfd;
    *addr = map;
    return GSI_OK;

err_close:
    close(memfd);
    return GSI_ERR_SYSTEM;
}

gsi_status_t gsi_memfd_map_peer(pid_t pid, int fd, size_t size, void **addr)
{
    char path[64];
    void *map;
    int peer_fd;

    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
    peer_fd = open(path, O_RDWR | O_CLOEXEC);
    if (peer_fd < 0) {
        GSI_WARN("open(%s): %s (node peers must run as the same user)", path, strerror(errno));
        return GSI_ERR_SYSTEM;
    }
    map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, peer_fd, 0);
    close(peer_fd);
    if (map == MAP_FAILED) {
        GSI_WARN("mmap(%s, %zu): %s", path, size, strerror(errno));
        return GSI_ERR_SYSTEM;
    }
    *addr = map;
    return GSI_OK;
}

void gsi_memfd_unmap(void *addr, size_t size)
{
    if (addr)
        munmap(addr, size);
}
