/* tests/slurm/boot_allgather.c - the bootstrap the launcher implies (auto)
 * gathers blocks of 1, 480, 481 and 3000 bytes from every rank, each byte
 * a function of rank, size and index, and every rank checks every block.
 * Under srun --mpi=pmi2 the larger blocks cross the PMI-2 bootstrap's
 * 480-byte chunks (3000 bytes: 7 keys per rank), which shmem_init's own
 * exchanges never do on one host.  Exit 0 on success. */
#include <stdio.h>
#include <stdlib.h>

#include "bootstrap/bootstrap.h"

static unsigned char byte(int rank, size_t len, size_t i)
{
    return (unsigned char)(rank * 31 + i * 7 + len);
}

int main(void)
{
    static const size_t sizes[] = {1, 480, 481, 3000};
    const char *name = getenv("GSHMEM_BOOTSTRAP") ? getenv("GSHMEM_BOOTSTRAP") : "auto";
    const gsb_ops_t *boot = gsb_select(name);
    gsb_info_t info;
    int bad = 0;

    if (!boot || boot->init(NULL, &info) != 0) {
        fprintf(stderr, "boot_allgather: init: %s\n", gsb_error());
        return 1;
    }
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]) && !bad; s++) {
        size_t len = sizes[s];
        unsigned char *in = malloc(len), *out = malloc(len * (size_t)info.size);

        for (size_t i = 0; i < len; i++)
            in[i] = byte(info.rank, len, i);
        if (boot->allgather(in, out, len) != 0) {
            fprintf(stderr, "boot_allgather: rank %d: allgather of %zu bytes: %s\n", info.rank,
                    len, gsb_error());
            boot->abort(1, "boot_allgather: allgather failed");
        }
        for (int r = 0; r < info.size && !bad; r++)
            for (size_t i = 0; i < len && !bad; i++)
                if (out[(size_t)r * len + i] != byte(r, len, i)) {
                    fprintf(stderr,
                            "boot_allgather: rank %d: %zu-byte block of rank %d, byte %zu: "
                            "%#x, expected %#x\n",
                            info.rank, len, r, i, out[(size_t)r * len + i], byte(r, len, i));
                    bad = 1;
                }
        free(in);
        free(out);
    }
    if (bad)
        boot->abort(1, "boot_allgather: wrong data");
    if (boot->barrier() != 0 || boot->finalize() != 0) {
        fprintf(stderr, "boot_allgather: rank %d: barrier or finalize: %s\n", info.rank,
                gsb_error());
        return 1;
    }
    if (info.rank == 0)
        printf("boot_allgather: PASS on %d ranks (bootstrap %s)\n", info.size, boot->name);
    return 0;
}
