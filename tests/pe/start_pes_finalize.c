/*
 * tests/pe/start_pes_finalize.c - start_pes's implicit finalize at exit is
 * harmless when the program calls shmem_finalize itself.
 */
#include "pe_test.h"

int main(void)
{
    start_pes(0);
    pt_setup();
    return pt_finish(); /* shmem_finalize; nothing is left for exit */
}
