/* src/base/shared_map.c - find the file behind a shared mapping: the
 * mapping's line in /proc/self/maps names the file's device and inode, and
 * a descriptor of this process with the same ones is what node peers open.
 * /proc/self/map_files would open the mapping directly, but peers may not
 * (it needs CAP_SYS_ADMIN), so a descriptor is required. */
#define _GNU_SOURCE
#include "base/shared_map.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* One line of /proc/self/maps. */
typedef struct map_line {
    uintptr_t start, end;
    char perms[5];
    uint64_t offset;
    unsigned dev_major, dev_minor;
    uint64_t inode;
} map_line_t;

/* The mapping that holds addr: 0, or -1 when none does. */
static int find_line(uintptr_t addr, map_line_t *out)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = -1;

    if (!f)
        return -2;
    while (found < 0 && fgets(line, sizeof(line), f)) {
        map_line_t m;
        unsigned long long start, end, offset, inode;

        if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu", &start, &end, m.perms, &offset,
                   &m.dev_major, &m.dev_minor, &inode) != 7)
            continue;
        if (addr < start || addr >= end)
            continue;
        m.start = (uintptr_t)start, m.end = (uintptr_t)end;
        m.offset = offset, m.inode = inode;
        *out = m;
        found = 0;
    }
    fclose(f);
    return found;
}

/* A descriptor of this process open on (dev, inode); -1 if none. */
static int find_fd(dev_t dev, uint64_t inode)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int fd = -1;

    if (!d)
        return -1;
    while (fd < 0 && (e = readdir(d)) != NULL) {
        struct stat st;
        char *end;
        long n = strtol(e->d_name, &end, 10);

        if (*end || end == e->d_name || n == dirfd(d))
            continue;
        if (fstat((int)n, &st) == 0 && st.st_dev == dev && (uint64_t)st.st_ino == inode)
            fd = (int)n;
    }
    closedir(d);
    return fd;
}

gsi_status_t gsi_shared_map_find(const void *addr, size_t len, int *fd, uint64_t *offset, char *err,
                                 size_t errlen)
{
    uintptr_t a = (uintptr_t)addr;
    map_line_t m;
    int rc, n;

    rc = find_line(a, &m);
    if (rc == -2) {
        snprintf(err, errlen, "cannot read /proc/self/maps: %s%s", strerror(errno),
                 gsi_errno_hint(errno));
        return GSI_ERR_SYSTEM;
    }
    if (rc < 0) {
        snprintf(err, errlen, "%p is not mapped", addr);
        return GSI_ERR_INVALID;
    }
    if (m.perms[3] != 's' || m.inode == 0) {
        snprintf(err, errlen,
                 "%p is private memory (%s), which node peers cannot map: pass a MAP_SHARED "
                 "mapping of a file whose descriptor stays open, such as a memfd",
                 addr, m.perms[3] == 's' ? "shared anonymous" : "MAP_PRIVATE or anonymous");
        return GSI_ERR_INVALID;
    }
    if (m.perms[0] != 'r' || m.perms[1] != 'w') {
        snprintf(err, errlen, "%p is mapped %s: peers must be able to read and write it", addr,
                 m.perms);
        return GSI_ERR_INVALID;
    }
    if (len > m.end - a) {
        snprintf(err, errlen,
                 "[%p, +%zu) runs past its mapping's end at %p (one mmap must hold the buffer)",
                 addr, len, (void *)m.end);
        return GSI_ERR_INVALID;
    }
    n = find_fd(makedev(m.dev_major, m.dev_minor), m.inode);
    if (n < 0) {
        snprintf(err, errlen,
                 "no descriptor of this process is open on the file mapped at %p: keep the "
                 "memfd (or file) open while the buffer is registered",
                 addr);
        return GSI_ERR_INVALID;
    }
    *fd = n;
    *offset = m.offset + (uint64_t)(a - m.start);
    return GSI_OK;
}
