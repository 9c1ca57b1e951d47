/*
 * tests/pe/file_buf.h - a buffer behind a file, as
 * gshmemx_buffer_register_symmetric takes (node peers map the file): a
 * memfd of `size` bytes, mapped shared.  The bad_*symreg* programs and
 * their kin start from one.
 */
#ifndef FILE_BUF_H
#define FILE_BUF_H

#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

/* The mapping, with its descriptor in *fd; NULL on failure. */
static inline void *pt_file_buffer(const char *name, size_t size, int *fd)
{
    void *buf;

    *fd = memfd_create(name, MFD_CLOEXEC);
    if (*fd < 0 || ftruncate(*fd, (off_t)size) != 0)
        return NULL;
    buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    return buf == MAP_FAILED ? NULL : buf;
}

#endif
