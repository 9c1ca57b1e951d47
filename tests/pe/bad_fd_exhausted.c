/*
 * tests/pe/bad_fd_exhausted.c - every file descriptor of each PE taken,
 * then gshmemx_buffer_register_symmetric, which reads /proc/self/maps and
 * opens each node peer's file (/proc/<pid>/fd/<fd>) to map it: the line says the process is out of
 * descriptors and how to raise the limit, not that node peers must run as
 * one user (what it said before, for this and for init's own opens).  On 1
 * PE there is no peer to open: the program passes a NULL buffer instead.
 */
/* EXPECT: gshmem: PE [0-9]+: (.*: Too many open files \(this process is out of file descriptors: its limit is [0-9]+; raise it with `ulimit -n`\)|gshmemx_buffer_register_symmetric: buf is NULL) */
#define _GNU_SOURCE
#include <gshmem.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "file_buf.h"

int main(void)
{
    size_t size = 8192;
    struct rlimit rl;
    void *buf;
    int fd;

    shmem_init();
    buf = pt_file_buffer("bad-fd-exhausted", size, &fd);
    if (!buf)
        return 2;
    if (shmem_n_pes() == 1)
        buf = NULL;
    /* A small limit, so that taking every descriptor is quick. */
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 2;
    rl.rlim_cur = (rlim_t)fd + 64 < rl.rlim_max ? (rlim_t)fd + 64 : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 2;
    while (dup(fd) >= 0)
        ;
    gshmemx_buffer_register_symmetric(buf, size, 0);
    fprintf(stderr, "bad_fd_exhausted: the registration returned\n");
    shmem_finalize();
    return 0;
}
