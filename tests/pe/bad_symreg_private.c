/*
 * tests/pe/bad_symreg_private.c - gshmemx_buffer_register_symmetric on
 * private anonymous memory, which node peers cannot map, ends the job with
 * one line saying so and what to pass instead.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register_symmetric: 0x[0-9a-f]+ is private memory \(MAP_PRIVATE or anonymous\), which node peers cannot map: pass a MAP_SHARED mapping of a file */
#include <gshmem.h>
#include <stdio.h>
#include <sys/mman.h>

int main(void)
{
    void *buf;

    shmem_init();
    buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return 1;
    gshmemx_buffer_register_symmetric(buf, 4096, 0);
    fprintf(stderr, "bad_symreg_private: the registration returned\n");
    shmem_finalize();
    return 0;
}
