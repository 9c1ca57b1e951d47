/*
 * tests/pe/bad_buf_unmapped.c - a registration of a range that is not
 * mapped (here a page unmapped after mmap) is refused with NVSHMEM's
 * GSHMEMX_ERROR_INVALID_VALUE and one line naming the routine; it used to
 * return success.  The program ends the job itself once it has seen the
 * code, so the run passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_buffer_register: 0x[0-9a-f]+, [0-9]+ bytes: part of the range is not mapped */
#include <gshmem.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *p;
    int rc;

    shmem_init();
    /* Three pages, the middle one given back: the range spans a hole. */
    p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || munmap(p + page, page) != 0) {
        fprintf(stderr, "bad_buf_unmapped: cannot make the hole\n");
        shmem_finalize();
        return 0;
    }
    rc = gshmemx_buffer_register(p, 3 * page);
    if (rc == GSHMEMX_ERROR_INVALID_VALUE)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_buf_unmapped: returned %d, not GSHMEMX_ERROR_INVALID_VALUE\n", rc);
    shmem_finalize();
    return 0;
}
