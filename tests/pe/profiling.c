/* profiling.c - the OpenSHMEM profiling interface: a tool that defines
 * shmem_X itself and forwards to pshmem_X sees every call the program
 * makes, and shmem_pcontrol accepts the spec's levels. */
#include <pshmem.h>

#include "pe_test.h"

static int puts_seen, quiets_seen;

/* The "tool": wrappers that count, then call the library. */
void shmem_long_put(long *dest, const long *source, size_t nelems, int pe)
{
    puts_seen++;
    pshmem_long_put(dest, source, nelems, pe);
}

void shmem_quiet(void)
{
    quiets_seen++;
    pshmem_quiet();
}

static long target[4];

int main(void)
{
    long mine[4] = {1, 2, 3, 4};

    PT_START();
    shmem_pcontrol(0);
    shmem_pcontrol(1);
    shmem_pcontrol(2, "extra arguments are allowed");
    shmem_long_put(target, mine, 4, (pt_me + 1) % pt_npes);
    shmem_quiet();
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_long_put", 1, puts_seen);
    PT_CHECK_EQ("shmem_quiet", 1, quiets_seen);
    PT_CHECK_EQ("pshmem_long_put", 3, target[2]);
    return pt_finish();
}
