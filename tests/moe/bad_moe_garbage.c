/*
 * tests/moe/bad_moe_garbage.c - a gshmem_moe_t pointer that was never a
 * buffer is refused with GSHMEM_MOE_ERR_INVALID and one line: first zeroed
 * heap memory (it used to be read as a buffer: a combine on it crashed),
 * then an unmapped page (a check by the buffer's live word alone would
 * load through it and crash; the library's table of live buffers is
 * searched first).
 * The program ends the job itself once it has seen the code, so the run
 * passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_moe_combine: buffer 0x[0-9a-f]+ is not a live gshmem_moe_t \(destroyed, or never created\) */
#include <gshmem_moe.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(void)
{
    gshmem_moe_t *b = (gshmem_moe_t *)calloc(1, 4096);
    gshmem_moe_handle_t h = {1, 1};
    uint16_t y[128] = {0}, out[128];
    float w[1] = {1};
    void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int rc;

    shmem_init();
    rc = gshmem_moe_combine(b, y, w, &h, out);
    if (rc == GSHMEM_MOE_ERR_INVALID && page != MAP_FAILED && munmap(page, 4096) == 0)
        rc = gshmem_moe_combine((gshmem_moe_t *)page, y, w, &h, out);
    if (rc == GSHMEM_MOE_ERR_INVALID)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_moe_garbage: the combine returned %d\n", rc);
    shmem_finalize();
    return 0;
}
