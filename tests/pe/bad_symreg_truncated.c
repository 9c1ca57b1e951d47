/*
 * tests/pe/bad_symreg_truncated.c - a PE shrinks the file behind the buffer
 * it registered with gshmemx_buffer_register_symmetric, then another PE
 * puts into it: the store past the file's end raises SIGBUS, and the PE
 * that took it prints one line naming the buffer's owner and the fix, and
 * the job ends (before, the writer died of SIGBUS with no word).  On 2 PEs
 * the writer is a node peer storing through its mapping of PE 0's file; on
 * 1 PE, PE 0 stores into its own buffer.
 */
/* EXPECT: gshmem: PE [0-9]+: SIGBUS at 0x[0-9a-f]+, in PE 0's buffer of 8192 bytes registered with gshmemx_buffer_register_symmetric: the file behind it is shorter than the buffer */
#define _GNU_SOURCE
#include <gshmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "file_buf.h"

int main(void)
{
    size_t size = 8192;
    static char word[64];
    char *buf;
    int fd, me;

    shmem_init();
    me = shmem_my_pe();
    buf = (char *)pt_file_buffer("bad-symreg-truncated", size, &fd);
    if (!buf)
        return 2;
    gshmemx_buffer_register_symmetric(buf, size, 0);
    if (me == 0 && ftruncate(fd, 0) != 0)
        return 2;
    shmem_barrier_all();
    memset(word, 1, sizeof(word));
    if (me == shmem_n_pes() - 1)
        shmem_putmem(buf + 4096, word, sizeof(word), 0);
    shmem_barrier_all();
    fprintf(stderr, "bad_symreg_truncated: a put past the end of PE 0's file returned\n");
    shmem_finalize();
    return 0;
}
