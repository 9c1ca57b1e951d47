/*
 * tests/pe/bad_symreg_unknown.c - gshmemx_buffer_unregister_symmetric of a
 * pointer that starts no registered buffer (one inside a registered one)
 * ends the job with one line, before any PE waits in the call's barrier.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_unregister_symmetric: 0x[0-9a-f]+ is not the start of a buffer registered with gshmemx_buffer_register_symmetric */
#define _GNU_SOURCE
#include <gshmem.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
    char *buf;
    int fd;

    shmem_init();
    fd = memfd_create("bad-symreg-unknown", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 4096) != 0)
        return 1;
    buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (buf == MAP_FAILED || gshmemx_buffer_register_symmetric(buf, 4096, 0) != buf)
        return 1;
    gshmemx_buffer_unregister_symmetric(buf + 64, 4096);
    fprintf(stderr, "bad_symreg_unknown: the unregister returned\n");
    shmem_finalize();
    return 0;
}
