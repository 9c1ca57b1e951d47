/* src/core/static_data.c - remap the executable's data segment onto shared memory.
 *
 * The main program's writable PT_LOAD segment (found with dl_iterate_phdr)
 * is copied into a memfd that is then mapped over the same addresses with
 * MAP_FIXED | MAP_SHARED.  The program sees the same bytes at the same
 * addresses; node peers map the memfd to reach them.
 *
 * Only the part after PT_GNU_RELRO is shared.  RELRO (the GOT, .init_array,
 * .data.rel.ro: function pointers the loader fills and then makes
 * read-only) lies at the start of that segment; were it in the region, any
 * peer could overwrite this process's function pointers through its
 * mapping of the memfd or over UCX, and the address check would let a put
 * there through.  Outside the region it keeps the loader's private,
 * read-only pages, whatever later moves the region (src/net/ucx/ucx_rehome.c). */
#define _GNU_SOURCE
#include "core/static_data.h"

#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/copy.h"
#include "base/log.h"

typedef struct segment {
    uintptr_t start, end; /* page-aligned: the writable data after RELRO */
    int found;
} segment_t;

static int find_main_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    segment_t *seg = arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), relro_end = 0;

    (void)size;
    /* The first object is the main program.  The loader protects RELRO's
     * pages up to its end rounded down; linkers end RELRO on a page
     * boundary, so no writable variable shares a page with it. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

        if (ph->p_type == PT_GNU_RELRO)
            relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        uintptr_t start = lo & ~(page - 1);
        uintptr_t end = (lo + ph->p_memsz + page - 1) & ~(page - 1);

        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        /* GNU ld puts RELRO at the start of the writable segment; lld gives
         * it a writable segment of its own, which is skipped whole. */
        if (relro_end > start && relro_end <= end)
            start = relro_end;
        if (start >= end)
            continue;
        seg->start = start;
        seg->end = end;
        seg->found = 1;
        break;
    }
    return 1;
}

static int shared_done;
static gsi_region_t shared_region;

/* A copy of [from, from + len) in a new memfd readable by this user only. */
static int copy_to_memfd(const void *from, size_t len)
{
    void *copy;
    int fd = memfd_create("gshmem-static", MFD_CLOEXEC);

    if (fd < 0) {
        GSI_WARN("memfd for static data (%zu bytes): %s%s", len, strerror(errno),
                 gsi_errno_hint(errno));
        return -1;
    }
    if (fchmod(fd, S_IRUSR | S_IWUSR) != 0 || ftruncate(fd, (off_t)len) != 0) {
        GSI_WARN("memfd for static data (%zu bytes): %s", len, strerror(errno));
        goto err_close;
    }
    copy = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (copy == MAP_FAILED) {
        GSI_WARN("mapping the memfd for static data (%zu bytes): %s", len, strerror(errno));
        goto err_close;
    }
    /* The segment holds every global, with a sanitizer's redzones between
     * them: a checked copy (memcpy, pwrite) would report those. */
    gsi_copy_raw(copy, from, len);
    munmap(copy, len);
    return fd;

err_close:
    close(fd);
    return -1;
}

gsi_status_t gsi_static_data_share(gsi_region_t *region)
{
    segment_t seg = {0};
    size_t len;
    void *map;
    int fd;

    if (shared_done) {
        *region = shared_region;
        return GSI_OK;
    }
    dl_iterate_phdr(find_main_segment, &seg);
    if (!seg.found) {
        GSI_WARN("the program has no writable data segment to share");
        return GSI_ERR_SYSTEM;
    }
    len = seg.end - seg.start;
    fd = copy_to_memfd((const void *)seg.start, len);
    if (fd < 0)
        return GSI_ERR_SYSTEM;
    map = mmap((void *)seg.start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    if (map == MAP_FAILED) {
        /* MAP_FIXED failing leaves the old mapping in place. */
        GSI_WARN("mapping static data onto its memfd: %s", strerror(errno));
        goto err_close;
    }
    shared_region.base = seg.start;
    shared_region.size = len;
    shared_region.user_size = len;
    shared_region.fd = fd;
    shared_region.peer = NULL;
    shared_done = 1;
    *region = shared_region;
    return GSI_OK;

err_close:
    close(fd);
    return GSI_ERR_SYSTEM;
}
