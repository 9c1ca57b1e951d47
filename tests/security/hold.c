/*
 * tests/security/hold.c - a job that holds still while shm_modes.sh looks at
 * what it made.  Each PE fills a global array and a heap array, writes its
 * pid to $GSHMEM_SEC_DIR/pe<N>.pid; PE 0 then makes $GSHMEM_SEC_DIR/ready,
 * and every PE waits until the script makes $GSHMEM_SEC_DIR/done (at most
 * GSHMEM_SEC_WAIT seconds, default 120).  At the end every PE checks that
 * nothing changed its data: exit 0 when nothing did, 1 otherwise.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define N 512

static long global_data[N];

static void make_file(const char *dir, const char *name, long value)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f) {
        perror(path);
        shmem_global_exit(1);
    }
    fprintf(f, "%ld\n", value);
    fclose(f);
}

static int wait_for(const char *dir, const char *name, int seconds)
{
    char path[4096];
    struct timespec nap = {0, 50 * 1000 * 1000};

    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (long i = 0; i < seconds * 20L; i++) {
        if (access(path, F_OK) == 0)
            return 0;
        nanosleep(&nap, NULL);
    }
    return -1;
}

int main(void)
{
    const char *dir = getenv("GSHMEM_SEC_DIR");
    const char *wait_s = getenv("GSHMEM_SEC_WAIT");
    int me, fails = 0;
    long *heap;
    char name[32];

    if (!dir) {
        fprintf(stderr, "hold: set GSHMEM_SEC_DIR\n");
        return 2;
    }
    shmem_init();
    me = shmem_my_pe();
    heap = shmem_malloc(N * sizeof(long));
    for (int i = 0; i < N; i++)
        global_data[i] = heap[i] = me * 1000000L + i;
    shmem_barrier_all();
    snprintf(name, sizeof name, "pe%d.pid", me);
    make_file(dir, name, (long)getpid());
    shmem_barrier_all();
    if (me == 0)
        make_file(dir, "ready", 1);
    if (wait_for(dir, "done", wait_s ? atoi(wait_s) : 120) != 0) {
        fprintf(stderr, "hold: PE %d: no %s/done in time\n", me, dir);
        fails++;
    }
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        if (global_data[i] != me * 1000000L + i || heap[i] != me * 1000000L + i) {
            fprintf(stderr, "hold: PE %d: element %d changed: global %ld, heap %ld\n", me, i,
                    global_data[i], heap[i]);
            fails++;
            break;
        }
    shmem_free(heap);
    shmem_finalize();
    return fails ? 1 : 0;
}
