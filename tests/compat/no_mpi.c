/* tests/compat/no_mpi.c - what the MPI programs of tests/compat are in a
 * gshmem built without MPI (configure found no mpicc): a skip, saying so. */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argc;
    printf("%s: SKIP: gshmem was built without MPI (no mpicc at configure)\n", argv[0]);
    return 77;
}
