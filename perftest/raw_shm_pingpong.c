/*
 * raw_shm_pingpong.c - the physical floor for p_pingpong: two processes
 * (fork) sharing one anonymous MAP_SHARED mapping, ping-pong of an 8-byte
 * value with C11 atomics (release store, acquire spin load). No SHMEM.
 *
 * Same protocol as p_pingpong.c (round i writes i, waits for i), same JSON
 * line with "impl":"raw_shm", half the mean round trip in ns.
 * Each direction's flag has its own cache line, like a symmetric variable
 * that lives on the receiving PE. The two processes are pinned to different
 * CPUs when at least two are allowed (mpirun/oshrun bind 2 ranks to 2 cores
 * too); RAW_PIN=0 disables that.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#define BENCH_NO_SHMEM
#include "bench.h"

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>

typedef struct shared_flags {
    alignas(64) _Atomic long to_parent; /* written by the child */
    alignas(64) _Atomic long to_child;  /* written by the parent */
} shared_flags_t;

/* Pins the calling process to the nth CPU of its allowed set, if it exists. */
static void pin_to_nth_cpu(int nth)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
        return;
    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        if (seen++ == nth) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof one, &one);
            return;
        }
    }
}

static void wait_for(_Atomic long *flag, long value)
{
    while (atomic_load_explicit(flag, memory_order_acquire) != value)
        ;
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    bench_parse(argc, argv, 100000, 10000, &opts);
    long total = opts.warmup + opts.iters;
    int pin = (int)bench_env_long("RAW_PIN", 1);

    shared_flags_t *flags = mmap(NULL, sizeof *flags, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (flags == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    atomic_init(&flags->to_parent, 0);
    atomic_init(&flags->to_child, 0);

    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        if (pin)
            pin_to_nth_cpu(1);
        for (long i = 1; i <= total; i++) {
            wait_for(&flags->to_child, i);
            atomic_store_explicit(&flags->to_parent, i, memory_order_release);
        }
        _exit(0);
    }

    if (pin)
        pin_to_nth_cpu(0);
    int64_t t_start = 0;
    for (long i = 1; i <= total; i++) {
        if (i == opts.warmup + 1)
            t_start = bench_now_ns();
        atomic_store_explicit(&flags->to_child, i, memory_order_release);
        wait_for(&flags->to_parent, i);
    }
    int64_t elapsed = bench_now_ns() - t_start;

    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "raw_shm_pingpong: child failed\n");
        return 1;
    }
    bench_report("p_pingpong", "raw_shm", 2, (long)sizeof(long), opts.iters, "lat_ns",
                 (double)elapsed / opts.iters / 2.0);
    munmap(flags, sizeof *flags);
    return 0;
}
