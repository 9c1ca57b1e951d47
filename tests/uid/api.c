/*
 * tests/uid/api.c - start a job from a unique id (gshmemx_get_uniqueid,
 * gshmemx_set_attr_uniqueid_args, gshmemx_init_attr) without a launcher:
 * the process that makes the id forks every rank (rank 0 is a copy of it, so
 * it holds the id's listening socket) and waits for them all; the ranks get
 * the id's bytes by inheritance (an application would send them).
 *
 *   api N            N ranks: each checks its rank and size, puts its rank
 *                    into the next rank's symmetric word, and checks what
 *                    the previous rank put; exit 0 when every rank passed.
 *   api bad-rank     rank out of range       (must fail, with one line)
 *   api bad-uid      a corrupt id            (must fail)
 *   api bad-nranks   ranks disagree on nranks (must fail on every rank)
 *   api missing      3 ranks, one never starts (must fail on rank 0 naming
 *                    it, and on rank 1; set GSHMEM_UID_TIMEOUT short)
 *   api unreachable  rank 1 of an id whose rank 0 is gone (must fail)
 *   api env          shmem_init and shmem_finalize, nothing else: for the
 *                    environment mode's bad-input cases
 *
 * tests/uid/api.sh runs every mode and checks the lines.
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long word = -1; /* symmetric: static data */

/* Start ranks 0..n-1 as children running `child(rank)`. */
static void fork_ranks(int n, int (*child)(int rank, int n, const gshmemx_uniqueid_t *uid),
                       const gshmemx_uniqueid_t *uid)
{
    for (int r = 0; r < n; r++) {
        pid_t pid = fork();

        if (pid < 0) {
            perror("api: fork");
            exit(1);
        }
        if (pid == 0)
            exit(child(r, n, uid));
    }
}

/* The first nonzero status of the children, else 0. */
static int reap(void)
{
    int s, status = 0;

    while (wait(&s) > 0)
        if (!status && (!WIFEXITED(s) || WEXITSTATUS(s)))
            status = WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
    return status;
}

static int run_rank(int rank, int n, const gshmemx_uniqueid_t *uid)
{
    gshmemx_init_attr_t attr = GSHMEMX_INIT_ATTR_INITIALIZER;
    int me, npes, provided, fails = 0;
    long *heap;

    gshmemx_set_attr_uniqueid_args(rank, n, uid, &attr);
    gshmemx_init_attr(GSHMEMX_INIT_WITH_UNIQUEID, &attr);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_query_thread(&provided);
    if (me != rank || npes != n) {
        fprintf(stderr,
                "FAIL rank %d: shmem_my_pe/shmem_n_pes: expected %d of %d, got %d of %d\n",
                rank, rank, n, me, npes);
        fails++;
    }
    if (provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "FAIL rank %d: shmem_query_thread: expected %d, got %d\n", rank,
                SHMEM_THREAD_MULTIPLE, provided);
        fails++;
    }
    heap = shmem_malloc(sizeof(long)); /* collective: goes through the bootstrap's barrier */
    *heap = -1;
    shmem_barrier_all();
    shmem_long_p(&word, 1000 + me, (me + 1) % npes);
    shmem_long_p(heap, 2000 + me, (me + npes - 1) % npes);
    shmem_barrier_all();
    if (word != 1000 + (me + npes - 1) % npes) {
        fprintf(stderr,
                "FAIL rank %d: shmem_long_p: static word from PE %d: expected %d, "
                "got %ld\n",
                me, (me + npes - 1) % npes, 1000 + (me + npes - 1) % npes, word);
        fails++;
    }
    if (*heap != 2000 + (me + 1) % npes) {
        fprintf(stderr,
                "FAIL rank %d: shmem_long_p: heap word from PE %d: expected %d, got %ld\n", me,
                (me + 1) % npes, 2000 + (me + 1) % npes, *heap);
        fails++;
    }
    shmem_free(heap);
    shmem_finalize();
    return fails ? 1 : 0;
}

static int bad_nranks_child(int rank, int n, const gshmemx_uniqueid_t *uid)
{
    return run_rank(rank, n + rank, uid); /* rank 1 disagrees with rank 0 */
}

static int missing_child(int rank, int n, const gshmemx_uniqueid_t *uid)
{
    (void)n;
    return run_rank(rank, 3, uid); /* rank 2 of 3 never starts */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "2";
    gshmemx_init_attr_t attr;
    gshmemx_uniqueid_t uid = GSHMEMX_UNIQUEID_INITIALIZER, stale;
    int n = atoi(mode);

    if (n >= 1) {
        gshmemx_get_uniqueid(&uid);
        fork_ranks(n, run_rank, &uid);
        n = reap();
        printf("api: %s on %s PEs\n", n ? "FAIL" : "PASS", mode);
        return n;
    }
    if (!strcmp(mode, "bad-rank")) {
        gshmemx_get_uniqueid(&uid);
        gshmemx_set_attr_uniqueid_args(4, 4, &uid, &attr);
        return 0; /* must not come here */
    }
    if (!strcmp(mode, "bad-uid")) {
        gshmemx_get_uniqueid(&uid);
        uid.internal[13] ^= 0x40; /* a bit of the port */
        gshmemx_set_attr_uniqueid_args(0, 1, &uid, &attr);
        return 0;
    }
    if (!strcmp(mode, "bad-nranks")) {
        gshmemx_get_uniqueid(&uid);
        fork_ranks(2, bad_nranks_child, &uid); /* rank 0 says 2, rank 1 says 3 */
        return reap();
    }
    if (!strcmp(mode, "missing")) {
        gshmemx_get_uniqueid(&uid);
        fork_ranks(2, missing_child, &uid); /* ranks 0 and 1 of 3 */
        return reap();
    }
    if (!strcmp(mode, "unreachable")) {
        gshmemx_get_uniqueid(&stale);
        gshmemx_get_uniqueid(&uid); /* closes the first id's socket */
        return run_rank(1, 2, &stale);
    }
    if (!strcmp(mode, "env")) {
        shmem_init();
        shmem_finalize();
        return 0;
    }
    fprintf(stderr, "usage: api N | bad-rank | bad-uid | bad-nranks | missing | unreachable | "
                    "env\n");
    return 2;
}
