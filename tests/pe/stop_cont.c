/*
 * tests/pe/stop_cont.c - PEs stopped (SIGSTOP) and continued (SIGCONT) in
 * the middle of a run and inside shmem_finalize still finish, and the job
 * exits.  Its -net twin runs the same over UCX: there a PE that left the
 * finalize barrier tore its transport down at once, and a peer whose last
 * flag or reply was still on its way (a stopped PE makes that window wide)
 * waited forever: every PE had printed its results, the job never exited.
 *
 * In each of ROUNDS rounds one PE stops itself between two barriers, so
 * that the others wait for it in the second, and the next PE continues it
 * once it sees it stopped; at the end the last PE
 * stops itself at a random point of shmem_finalize and PE 0 continues it
 * from a thread.  The PEs must share a host (they signal each other by
 * pid); elsewhere the test skips.
 */
#define _GNU_SOURCE
#include "pe_test.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 20
#define MAX_PES 64

static int pids[MAX_PES], blind;
static long counter, box[8];

/* The state letter of /proc/pid/stat ('T': stopped); 0 once it is gone. */
static char state_of(int pid)
{
    char path[64], buf[512], *close;
    FILE *f;
    size_t n;

    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    f = fopen(path, "r");
    if (!f)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    close = strrchr(buf, ')'); /* the command may hold spaces */
    return close && close[1] == ' ' ? close[2] : 0;
}

/* Wait (10 s at most) until pid is stopped, then continue it after `us`;
 * 1 if it was seen stopped, 0 if it ended first or never stopped. */
static int continue_when_stopped(int pid, unsigned us)
{
    for (int i = 0; i < 100000; i++) {
        char s = state_of(pid);

        if (s == 'T') {
            usleep(us);
            kill(pid, SIGCONT);
            return 1;
        }
        if (s == 0 || s == 'Z' || s == 'X')
            return 0;
        usleep(100);
    }
    kill(pid, SIGCONT); /* never seen stopped: do not leave it stopped */
    return 0;
}

static unsigned stop_after_us;

static void *stop_self(void *arg)
{
    (void)arg;
    usleep(stop_after_us);
    raise(SIGSTOP);
    return NULL;
}

static void *continue_peer(void *arg)
{
    continue_when_stopped(*(int *)arg, 20000);
    return NULL;
}

int main(void)
{
    int status, same_host = 1, victim, last;
    pthread_t helper;
    int helping = 0;

    shmem_init();
    pt_setup();
    if (pt_npes > MAX_PES)
        return pt_skip("more than 64 PEs");
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (int pe = 0; pe < pt_npes; pe++)
        shmem_int_p(&pids[pt_me], getpid(), pe);
    shmem_barrier_all();
    for (int pe = 0; pe < pt_npes; pe++)
        same_host &= state_of(pids[pe]) != 0;
    /* Every PE must agree to skip: count those that cannot see them all. */
    if (!same_host)
        shmem_int_atomic_inc(&blind, 0);
    shmem_barrier_all();
    if (shmem_int_g(&blind, 0))
        return pt_skip("the PEs are not all on this host");

    for (int r = 0; r < ROUNDS && pt_npes > 1; r++) {
        int peer = (pt_me + 1) % pt_npes;
        long src[8];

        victim = r % pt_npes;
        for (int i = 0; i < 8; i++)
            src[i] = r * 100 + pt_me;
        shmem_long_put(box, src, 8, peer);
        shmem_long_atomic_add(&counter, 1, peer);
        /* Nobody may need the victim for what it does before it continues
         * the victim (over TCP the victim's worker must answer a get). */
        shmem_barrier_all();
        if (pt_me == victim)
            raise(SIGSTOP); /* returns once the next PE has continued it */
        else if (pt_me == (victim + 1) % pt_npes)
            PT_CHECK("continue_when_stopped",
                     continue_when_stopped(pids[victim], (unsigned)(rand() % 20000)),
                     "the victim seen stopped");
        shmem_barrier_all();
        PT_CHECK_EQ_F("shmem_long_put", (r * 100 + (pt_me + pt_npes - 1) % pt_npes), box[7],
                      "box[7] in round %d", r);
        PT_CHECK_EQ_F("shmem_long_atomic_add", r + 1, counter, "counter in round %d", r);
        shmem_barrier_all();
    }
    status = pt_verdict();

    /* The last PE stops itself somewhere in shmem_finalize; PE 0 continues it. */
    last = pt_npes - 1;
    if (pt_npes > 1 && pt_me == last) {
        stop_after_us = (unsigned)(rand() % 3000);
        helping = pthread_create(&helper, NULL, stop_self, NULL) == 0;
    } else if (pt_npes > 1 && pt_me == 0) {
        helping = pthread_create(&helper, NULL, continue_peer, &pids[last]) == 0;
    }
    shmem_finalize();
    if (helping && pt_me == 0)
        pthread_join(helper, NULL); /* the stopper may still sleep: it ends with exit */
    return status;
}
