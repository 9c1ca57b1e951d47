/*
 * tests/uid/boot.c - the unique-id bootstrap alone, below the library: no
 * heap, no transport, so it runs across hosts (network namespaces) in any
 * build.  Started like a PE of the environment mode (GSHMEM_UID,
 * GSHMEM_UID_RANK, GSHMEM_UID_SIZE; tests/uid/uidrun or tests/netns/run.sh):
 * init, then ROUNDS allgathers of 0 to 64 KiB in which every rank's bytes
 * are a pattern of its rank and the round, each checked byte by byte, a
 * barrier every few rounds, then finalize.  Rank 0 prints the verdict; the
 * exit status is 0 when this rank saw every byte right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap/uid.h"

#define ROUNDS 200

static unsigned char pattern(int rank, int round, size_t i)
{
    return (unsigned char)(rank * 31 + round * 7 + i * 13 + 1);
}

static long long env_int(const char *name, long long unset)
{
    const char *text = getenv(name);

    return text ? atoll(text) : unset;
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 8, 100, 4096, 65536};
    const size_t n_sizes = sizeof(sizes) / sizeof(sizes[0]);
    const char *uid = getenv("GSHMEM_UID");
    gsb_uid_args_t args;
    gsb_info_t info;
    unsigned char *in, *out;
    int fails = 0;

    if (gsb_uid_args_from_env(uid ? uid : "none", env_int("GSHMEM_UID_RANK", -1),
                              env_int("GSHMEM_UID_SIZE", 0), env_int("GSHMEM_UID_TIMEOUT", 30),
                              &args) != 0 ||
        gsb_uid_ops.init(&args, &info) != 0) {
        fprintf(stderr, "FAIL boot: init: %s\n", gsb_error());
        return 1;
    }
    in = malloc(sizes[n_sizes - 1]);
    out = malloc(sizes[n_sizes - 1] * (size_t)info.size);
    if (!in || !out) {
        fprintf(stderr, "FAIL boot: rank %d: out of memory\n", info.rank);
        return 1;
    }
    for (int round = 0; round < ROUNDS; round++) {
        size_t len = sizes[round % n_sizes];

        for (size_t i = 0; i < len; i++)
            in[i] = pattern(info.rank, round, i);
        if (gsb_uid_ops.allgather(in, out, len) != 0) {
            fprintf(stderr, "FAIL boot: rank %d: allgather %d: %s\n", info.rank, round,
                    gsb_error());
            return 1;
        }
        for (int r = 0; r < info.size; r++)
            for (size_t i = 0; i < len; i++)
                if (out[(size_t)r * len + i] != pattern(r, round, i)) {
                    if (fails++ < 10)
                        fprintf(stderr,
                                "FAIL boot: rank %d: allgather %d of %zu bytes: byte %zu "
                                "from rank %d: expected %u, got %u\n",
                                info.rank, round, len, i, r, pattern(r, round, i),
                                out[(size_t)r * len + i]);
                    break;
                }
        if (round % 7 == 0 && gsb_uid_ops.barrier() != 0) {
            fprintf(stderr, "FAIL boot: rank %d: barrier: %s\n", info.rank, gsb_error());
            return 1;
        }
    }
    if (gsb_uid_ops.finalize() != 0) {
        fprintf(stderr, "FAIL boot: rank %d: finalize: %s\n", info.rank, gsb_error());
        return 1;
    }
    if (info.rank == 0)
        printf("boot: %s on %d ranks (%d allgathers of 0 to %zu bytes)\n",
               fails ? "FAIL" : "PASS", info.size, ROUNDS, sizes[n_sizes - 1]);
    free(in);
    free(out);
    return fails ? 1 : 0;
}
