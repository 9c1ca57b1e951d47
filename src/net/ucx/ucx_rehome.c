/* src/net/ucx/ucx_rehome.c - move a region onto memory that UCX allocates (see
 * ucx_rehome.h). */
#define _GNU_SOURCE
#include "config.h"

#ifdef GSHMEM_HAVE_UCX

#include "net/ucx/ucx_rehome.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/copy.h"
#include "net/ucx/ucx_private.h"

/* Can the mapping that holds addr take the region's size bytes?  It must
 * be shared, so that mremap can alias it (the kernel would unmap the
 * target of MREMAP_FIXED before it refuses a private source, so this is
 * asked first).  A file of /dev/shm (UCX's posix segments) is sparse:
 * where that file system has less room than the region (a container's
 * 64 MiB /dev/shm), touching the pages past it would raise SIGBUS, so such
 * a mapping is refused; SysV segments are charged at creation. */
static int mapping_fits(const void *addr, size_t size)
{
    uintptr_t a = (uintptr_t)addr, lo, hi;
    char perms[8], path[256], line[512];
    FILE *maps = fopen("/proc/self/maps", "r");
    struct statvfs fs;
    int fits = 0, fields;

    if (!maps)
        return 0;
    while (fgets(line, sizeof line, maps)) {
        path[0] = 0;
        fields = sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %*s %255s", &lo, &hi, perms,
                        path);
        if (fields < 3 || a < lo || a >= hi)
            continue;
        fits = perms[3] == 's';
        if (fits && strncmp(path, "/dev/shm/", 9) == 0)
            fits = statvfs("/dev/shm", &fs) == 0 &&
                   (unsigned long long)fs.f_bavail * fs.f_frsize >= size;
        break;
    }
    fclose(maps);
    return fits;
}

/* Copies the pages of [from, from + size) that hold data into to; pages
 * never touched are zero on both sides.  The static data's pages hold
 * every global with a sanitizer's redzones between them, so the copy is
 * one no sanitizer checks. */
static int copy_resident(void *to, const void *from, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (size + page - 1) / page;
    unsigned char *in_core = malloc(pages);

    if (!in_core)
        return -1;
    if (mincore((void *)from, size, in_core) != 0) {
        free(in_core);
        return -1;
    }
    for (size_t p = 0; p < pages; p++) {
        size_t off = p * page;

        if (in_core[p] & 1)
            gsi_copy_raw((char *)to + off, (const char *)from + off,
                         size - off < page ? size - off : page);
    }
    free(in_core);
    return 0;
}

/* Maps the shared pages at from again over [to, to + size).  The system
 * call, not glibc's mremap: UCX's memory hooks (UCM) replace mremap with a
 * four-argument version that drops MREMAP_FIXED's new address. */
static int alias(void *from, size_t size, void *to)
{
    long got = syscall(SYS_mremap, from, (size_t)0, size, MREMAP_MAYMOVE | MREMAP_FIXED, to);

    return got == (long)(uintptr_t)to ? 0 : -1;
}

int gst_ucx_rehome(ucp_context_h context, void *base, size_t size, ucp_mem_h *memh, void **ucx_base,
                   char *err, size_t errlen)
{
    ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                                             UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                               .length = size,
                               .flags = UCP_MEM_MAP_ALLOCATE};
    ucp_mem_attr_t attr = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH};
    ucp_mem_h h;

    if (ucp_mem_map(context, &mp, &h) != UCS_OK)
        return -1;
    /* Private before a byte of the region is in it (ucx_private.h). */
    if (gst_ucx_private_seal(err, errlen) != GSI_OK) {
        ucp_mem_unmap(context, h);
        return -2;
    }
    if (ucp_mem_query(h, &attr) != UCS_OK || attr.length < size ||
        !mapping_fits(attr.address, size) || copy_resident(attr.address, base, size) != 0 ||
        alias(attr.address, size, base) != 0) {
        ucp_mem_unmap(context, h);
        return -1;
    }
    *memh = h;
    *ucx_base = attr.address;
    return 0;
}

#endif
