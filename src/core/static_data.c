/* src/core/static_data.c - remap the executable's data segment onto shared memory.
 *
 * The main program's writable PT_LOAD segment (found with dl_iterate_phdr)
 * is copied into a memfd that is then mapped over the same addresses with
 * MAP_FIXED | MAP_SHARED.  The program sees the same bytes at the same
 * addresses; node peers map the memfd to reach them.  PT_GNU_RELRO, which
 * lies inside that segment, is made read-only again afterwards. */
#define _GNU_SOURCE
#include "core/static_data.h"

#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/log.h"

typedef struct segment {
    uintptr_t start, end;             /* page-aligned writable segment */
    uintptr_t relro_start, relro_end; /* page-aligned RELRO inside it, if any */
    int found;
} segment_t;

static int find_main_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    segment_t *seg = arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

    (void)size;
    /* The first object is the main program. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        uintptr_t hi = lo + ph->p_memsz;

        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && !seg->found) {
            seg->start = lo & ~(page - 1);
            seg->end = (hi + page - 1) & ~(page - 1);
            seg->found = 1;
        } else if (ph->p_type == PT_GNU_RELRO) {
            seg->relro_start = lo & ~(page - 1);
            seg->relro_end = hi & ~(page - 1);
        }
    }
    return 1;
}

static int shared_done;
static gsi_region_t shared_region;
static segment_t shared_seg;

void gsi_static_data_protect(void)
{
    const segment_t *seg = &shared_seg;

    if (seg->relro_end > seg->relro_start && seg->relro_start >= seg->start &&
        seg->relro_end <= seg->end)
        mprotect((void *)seg->relro_start, seg->relro_end - seg->relro_start, PROT_READ);
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
    fd = memfd_create("gshmem-static", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
        GSI_WARN("memfd for static data (%zu bytes): %s", len, strerror(errno));
        goto err_close;
    }
    /* The RELRO pages may be read-only already; a write(2) from them is fine. */
    if (pwrite(fd, (void *)seg.start, len, 0) != (ssize_t)len) {
        GSI_WARN("copying static data into its memfd: %s", strerror(errno));
        goto err_close;
    }
    map = mmap((void *)seg.start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    if (map == MAP_FAILED) {
        /* MAP_FIXED failing leaves the old mapping in place. */
        GSI_WARN("mapping static data onto its memfd: %s", strerror(errno));
        goto err_close;
    }
    shared_seg = seg;
    gsi_static_data_protect();

    shared_region.base = seg.start;
    shared_region.size = len;
    shared_region.fd = fd;
    shared_region.peer = NULL;
    shared_done = 1;
    *region = shared_region;
    return GSI_OK;

err_close:
    if (fd >= 0)
        close(fd);
    return GSI_ERR_SYSTEM;
}
