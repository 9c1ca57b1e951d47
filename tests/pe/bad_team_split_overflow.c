/*
 * tests/pe/bad_team_split_overflow.c - shmem_team_split_strided with stride
 * 2^30 and size 5 is refused with a line: start + (size - 1) * stride is
 * 2^32, which in an int (undefined behaviour) wrapped to PE 0 and passed
 * the range check.  The split returns nonzero and the program then exits
 * 1 on purpose, after the library's line; a split that succeeds exits 0,
 * which fails the test.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_team_split_strided: start 0, stride 1073741824, size 5 do not select PEs */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_team_t team = SHMEM_TEAM_WORLD;
    int rc;

    shmem_init();
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1 << 30, 5, NULL, 0, &team);
    if (rc == 0) {
        fprintf(stderr, "bad_team_split_overflow: the split returned 0 (team %p)\n",
                (void *)team);
        shmem_finalize();
        return 0;
    }
    if (team != SHMEM_TEAM_INVALID) {
        fprintf(stderr, "bad_team_split_overflow: refused, but new_team is not "
                        "SHMEM_TEAM_INVALID\n");
        shmem_finalize();
        return 0;
    }
    shmem_finalize();
    return 1;
}
