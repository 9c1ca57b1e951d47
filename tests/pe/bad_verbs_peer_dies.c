/*
 * tests/pe/bad_verbs_peer_dies.c - over gst_verbs, a PE killed mid-run
 * makes its peer's next completion fail: the survivor prints one line
 * naming the dead PE and the verbs status, and the job ends (no hang).
 * Run only over verbs (the rig: tests/rdma/tests.list): through P2P the puts to a
 * dead PE's mapping would still succeed.
 *
 * PE 1 runs in a child of the process the launcher started, and that
 * parent outlives it.  Were PE 1 the launcher's own child, mpirun would see
 * it killed and end the job within milliseconds, racing the survivor's
 * failed completion: the line this test checks was missing in stop 33's
 * CI.  The launcher-visible
 * process living on is also what a PE under a wrapper that forks looks like.
 *
 * Usually PE 1's MRs go first and the next WRITE fails with a remote access
 * error.  In 2 to 4 rig runs in 20, its QP goes first and the rig's rxe
 * neither retries nor fails the WRs outstanding (the QP stays in RTS; WRs
 * posted later go unanswered too), so the wait's own bound names PE 1:
 * GSHMEM_WAIT_TIMEOUT, 20 s here (src/net/verbs/verbs_rma.c, check_stall).
 * Before that bound, such a run hung until the harness killed it.
 */
/* EXPECT: gshmem: PE 0: gst_verbs: PE 1: (work completion failed: |the connection to it failed: |no completion for 20 s \(GSHMEM_WAIT_TIMEOUT\)) */
/* EXPECT_WITHIN: 60 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long buf[1024];
static volatile long done;

/* A survivor still putting after 45 s never saw the failure: say how far
 * it got (a hang's log would say nothing) and fail. */
static void on_alarm(int sig)
{
    char line[128];
    int n =
        snprintf(line, sizeof(line),
                 "bad_verbs_peer_dies: PE 0: %ld puts done after 45 s, no failed completion\n",
                 done);

    (void)sig;
    if (n > 0 && write(2, line, (size_t)n) < 0)
        _exit(3);
    _exit(3);
}

/* The launcher's rank of this process, before shmem_init: -1 if none says. */
static int launcher_rank(void)
{
    static const char *const names[] = {"PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
                                        "OMPI_COMM_WORLD_RANK"};

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *v = getenv(names[i]);

        if (v && *v)
            return atoi(v);
    }
    return -1;
}

int main(void)
{
    if (launcher_rank() == 1) {
        pid_t child = fork();
        int st;

        if (child < 0) {
            perror("bad_verbs_peer_dies: fork");
            return 2;
        }
        if (child > 0) {
            /* Stay until the launcher ends the job (PE 0's failure). */
            if (waitpid(child, &st, 0) < 0 || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
                fprintf(stderr, "bad_verbs_peer_dies: PE 1 ended otherwise than by SIGKILL\n");
            for (;;)
                pause();
        }
    }
    setenv("GSHMEM_WAIT_TIMEOUT", "20", 1);
    shmem_init();
    if (shmem_n_pes() != 2) {
        fprintf(stderr, "bad_verbs_peer_dies: needs 2 PEs\n");
        return 2;
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        fprintf(stderr, "bad_verbs_peer_dies: PE 1 (pid %d) past the barrier, killing itself\n",
                (int)getpid());
        raise(SIGKILL);
    }
    signal(SIGALRM, on_alarm);
    alarm(45);
    for (done = 0; done < 100000000; done++)
        shmem_putmem(buf, buf, sizeof(buf), 1);
    fprintf(stderr, "bad_verbs_peer_dies: 1e8 puts to a dead PE succeeded\n");
    shmem_finalize();
    return 0;
}
