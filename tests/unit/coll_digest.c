/*
 * tests/unit/coll_digest.c - the digest of a collective's arguments
 * (src/coll/coll.h, issue 29) and the line a mismatch ends the job with
 * (src/coll/coll_check.c).
 *
 * The digest has 48 bits for a routine, a root and a size, so the values
 * that do not fit (a root index of 2048 or more, a size of 2^31 or more)
 * are folded by a mix of the whole value: these tests check that values
 * which used to compare equal (roots 256 apart, sizes of 4 and 8 GiB) now
 * differ, that the fields read back, and that the line says what it can.
 * No PE runs: a group of an active set needs no team.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coll/coll.h"

static const uint64_t GiB = 1ull << 30;

Test(coll_digest, fields_read_back)
{
    uint64_t d = gsi_call_digest(GSI_CALL_BCAST, 37, 65536);

    cr_assert_eq(gsi_digest_call(d), GSI_CALL_BCAST);
    cr_assert_eq(gsi_digest_aux(d), 37);
    cr_assert_eq(gsi_digest_root(d), 37);
    cr_assert_eq(gsi_digest_size(d), 65536);
    cr_assert_eq(d >> 48, 0, "the digest must fit a tagged word's 48-bit payload");
}

Test(coll_digest, roots_past_256_differ)
{
    /* the old digest kept the root modulo 256 */
    cr_assert_neq(gsi_call_digest(GSI_CALL_BCAST, 0, 8),
                  gsi_call_digest(GSI_CALL_BCAST, 256, 8));
    cr_assert_neq(gsi_call_digest(GSI_CALL_BCAST, 1, 8),
                  gsi_call_digest(GSI_CALL_BCAST, 2047, 8));
    cr_assert_eq(gsi_digest_root(gsi_call_digest(GSI_CALL_BCAST, 2047, 8)), 2047);
    /* folded: not named, but different from each other and from small roots */
    for (uint64_t r = 2048; r < 2048 + 64; r++) {
        uint64_t d = gsi_call_digest(GSI_CALL_BCAST, r, 8);

        cr_assert_eq(gsi_digest_root(d), -1);
        cr_assert_neq(d, gsi_call_digest(GSI_CALL_BCAST, r + 1, 8), "root %llu",
                      (unsigned long long)r);
        cr_assert_neq(d, gsi_call_digest(GSI_CALL_BCAST, r - 2048, 8));
        cr_assert_eq(d >> 48, 0);
    }
}

Test(coll_digest, sizes_past_4gib_differ)
{
    /* the old digest saturated at 2^32 - 1: 4 and 8 GiB compared equal */
    uint64_t sizes[] = {2 * GiB, 4 * GiB - 1, 4 * GiB, 4 * GiB + 1,
                        8 * GiB, 1ull << 40,  3 * GiB};

    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t di = gsi_call_digest(GSI_CALL_FCOLLECT, 0, sizes[i]);

        cr_assert(gsi_digest_size(di) & GSI_DIGEST_SIZE_FOLD);
        cr_assert_eq(di >> 48, 0);
        for (unsigned j = 0; j < i; j++)
            cr_assert_neq(di, gsi_call_digest(GSI_CALL_FCOLLECT, 0, sizes[j]), "%llu vs %llu",
                          (unsigned long long)sizes[i], (unsigned long long)sizes[j]);
    }
    cr_assert_eq(gsi_digest_size(gsi_call_digest(GSI_CALL_FCOLLECT, 0, 2 * GiB - 1)),
                 2 * GiB - 1);
}

Test(coll_digest, name_hash_kept_whole)
{
    unsigned h = gsi_call_name_hash("shmem_int_sum_reduce");

    cr_assert_lt(h, GSI_DIGEST_AUX_FOLD);
    cr_assert_eq(gsi_digest_aux(gsi_call_digest(GSI_CALL_REDUCE, h, 4)), h);
    cr_assert_neq(h, gsi_call_name_hash("shmem_long_sum_reduce"));
}

/* Members 0..3 are PEs 0, 2, 4, 6. */
static gsi_group_t group = {.team = NULL, .n = 4, .me = 0, .start = 0, .stride = 2};

/* The line gsi_coll_disagree prints, from a child (it ends the process);
 * the child must exit with status 1. */
static void line_of(char *buf, size_t len, const char *fn, int member, int root,
                    uint64_t theirs, uint64_t mine)
{
    int fd[2], status;
    ssize_t got, off = 0;
    pid_t pid;

    cr_assert_eq(pipe(fd), 0);
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        gsi_coll_disagree(fn, &group, member, root, theirs, mine);
    }
    close(fd[1]);
    while (off < (ssize_t)len - 1 && (got = read(fd[0], buf + off, len - 1 - off)) > 0)
        off += got;
    buf[off] = 0;
    close(fd[0]);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status 0x%x", status);
}

Test(coll_digest, line_names_both_sizes)
{
    char line[512];

    line_of(line, sizeof line, "shmem_fcollectmem", 3, 0,
            gsi_call_digest(GSI_CALL_FCOLLECT, 0, 8),
            gsi_call_digest(GSI_CALL_FCOLLECT, 0, 16));
    cr_assert(strstr(line,
                     "PEs disagree: PE 6 collects 8 bytes from each PE, this PE 16 bytes"),
              "%s", line);
}

Test(coll_digest, line_says_folded_size)
{
    char line[512];

    line_of(line, sizeof line, "shmem_broadcastmem", 1, 1,
            gsi_call_digest(GSI_CALL_BCAST, 0, 8 * GiB),
            gsi_call_digest(GSI_CALL_BCAST, 0, 4 * GiB));
    cr_assert(strstr(line,
                     "the root, PE 2, broadcasts another size of 2^31 bytes or more, this PE "
                     "another size of 2^31 bytes or more"),
              "%s", line);
}

Test(coll_digest, line_says_folded_root)
{
    char line[512];

    line_of(line, sizeof line, "shmem_broadcastmem", 2, 0,
            gsi_call_digest(GSI_CALL_BCAST, 3000, 8), gsi_call_digest(GSI_CALL_BCAST, 1, 8));
    cr_assert(strstr(line,
                     "PEs disagree on the root: PE 4 names another PE (of index 2048 or more "
                     "in the team), this PE names PE 2"),
              "%s", line);
}
