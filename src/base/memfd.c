/* src/base/memfd.c - memfd-backed shared memory. */
#define _GNU_SOURCE
#include "base/memfd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdint.h>
#include <unistd.h>

#include "base/log.h"

/* Map fd on a GSI_MEMFD_ALIGN boundary: reserve the slack, then map into it. */
static void *map_aligned(int fd, size_t size)
{
    size_t span = size + GSI_MEMFD_ALIGN;
    char *area = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *start, *end;
    void *map;

    if (area == MAP_FAILED)
        return MAP_FAILED;
    start = (char *)(((uintptr_t)area + GSI_MEMFD_ALIGN - 1) & ~(uintptr_t)(GSI_MEMFD_ALIGN - 1));
    map = mmap(start, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0);
    if (map == MAP_FAILED) {
        munmap(area, span);
        return MAP_FAILED;
    }
    end = start + size;
    if (start > area)
        munmap(area, (size_t)(start - area));
    if (area + span > end)
        munmap(end, (size_t)(area + span - end));
    return map;
}

gsi_status_t gsi_memfd_create(const char *name, size_t size, void *hint, int *fd, void **addr)
{
    void *map = MAP_FAILED;
    int memfd = memfd_create(name, MFD_CLOEXEC);

    if (memfd < 0) {
        GSI_WARN("memfd_create(%s): %s%s", name, strerror(errno), gsi_errno_hint(errno));
        return GSI_ERR_SYSTEM;
    }
    /* A memfd is made with mode 0777.  Node peers open it as its owner
     * (/proc/<pid>/fd/<fd>), and no one else is to open it at all. */
    if (fchmod(memfd, S_IRUSR | S_IWUSR) != 0) {
        GSI_WARN("fchmod(%s, 0600): %s", name, strerror(errno));
        goto err_close;
    }
    if (ftruncate(memfd, (off_t)size) != 0) {
        GSI_WARN("ftruncate(%s, %zu): %s", name, size, strerror(errno));
        goto err_close;
    }
    /* A plain hint, not MAP_FIXED_NOREPLACE: the kernel uses it when the
     * whole range is free and never replaces a mapping.  ThreadSanitizer's
     * mmap drops a hint that falls in its shadow (16 TiB does) but would
     * keep MAP_FIXED_NOREPLACE, which then maps address 0 where that is
     * allowed (root), and TSan ends the program. */
    if (hint)
        map = mmap(hint, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, memfd, 0);
    if (map != MAP_FAILED && map != hint) { /* the range was taken: aligned, elsewhere */
        munmap(map, size);
        map = MAP_FAILED;
    }
    if (map == MAP_FAILED)
        map = map_aligned(memfd, size);
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
    return gsi_memfd_map_peer_at(pid, fd, 0, size, addr);
}

gsi_status_t gsi_memfd_map_peer_at(pid_t pid, int fd, uint64_t offset, size_t size, void **addr)
{
    char path[64];
    void *map;
    int peer_fd;

    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
    peer_fd = open(path, O_RDWR | O_CLOEXEC);
    if (peer_fd < 0) {
        int e = errno;

        GSI_WARN("open(%s): %s%s", path, strerror(e),
                 e == EACCES || e == EPERM ? " (node peers must run as the same user)"
                                           : gsi_errno_hint(e));
        return GSI_ERR_SYSTEM;
    }
    map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, peer_fd,
               (off_t)offset);
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
