/* Unit tests of the GPU watcher's logic (src/gpu/watch_loop.c) with a fake
 * context query, no GPU: which driver errors end the job (only sticky
 * ones: a query refused during a stream capture must not), the exit
 * request of device gshmem_global_exit, and the stop at process exit (a
 * program that ends without shmem_finalize: the driver's exit handlers
 * tear the context down, and the watcher must be gone by then). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu/watch_loop.h"
#include "gsd/state.h"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

    nanosleep(&t, NULL);
}

Test(gpu_watch, sticky_errors_are_fatal)
{
    static const CUresult fatal[] = {CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_INSTRUCTION,
                                     CUDA_ERROR_LAUNCH_FAILED,   CUDA_ERROR_MISALIGNED_ADDRESS,
                                     CUDA_ERROR_ASSERT,          CUDA_ERROR_ECC_UNCORRECTABLE,
                                     CUDA_ERROR_UNKNOWN};

    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        cr_expect_eq(gsi_cu_error_is_sticky(fatal[i]), 1, "error %d is sticky", (int)fatal[i]);
}

Test(gpu_watch, errors_of_the_call_are_not)
{
    static const CUresult benign[] = {CUDA_SUCCESS,
                                      CUDA_ERROR_NOT_READY,
                                      CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                                      CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                                      CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                                      CUDA_ERROR_NOT_PERMITTED,
                                      CUDA_ERROR_DEINITIALIZED,
                                      CUDA_ERROR_CONTEXT_IS_DESTROYED};

    for (size_t i = 0; i < sizeof benign / sizeof benign[0]; i++)
        cr_expect_eq(gsi_cu_error_is_sticky(benign[i]), 0, "error %d is not sticky",
                     (int)benign[i]);
}

/* The fake context: what the query answers, and what the watcher did. */
static CUresult answer;
static int queries, failed_with, exit_status = -1;
static uint64_t exit_word;

static CUresult fake_query(void)
{
    __atomic_add_fetch(&queries, 1, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&answer, __ATOMIC_SEQ_CST);
}
static void fake_failed(CUresult r)
{
    __atomic_store_n(&failed_with, (int)r, __ATOMIC_SEQ_CST);
}
static void fake_exit(int status)
{
    __atomic_store_n(&exit_status, status, __ATOMIC_SEQ_CST);
}
static const gsi_watch_ops_t fake_ops = {.query = fake_query,
                                         .failed = fake_failed,
                                         .exit_requested = fake_exit};

/* Runs the watcher (1 ms ticks) until it asked at least n times. */
static void watch_for(int n)
{
    cr_assert_eq(gsi_watch_loop_start(&fake_ops, &exit_word, 1), 0);
    while (__atomic_load_n(&queries, __ATOMIC_SEQ_CST) < n)
        sleep_ms(1);
    gsi_watch_loop_stop();
}

Test(gpu_watch, a_capture_refusal_does_not_end_the_job)
{
    answer = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    watch_for(5);
    answer = CUDA_ERROR_NOT_PERMITTED;
    watch_for(10);
    cr_expect_eq(failed_with, 0, "the watcher reported error %d", failed_with);
}

Test(gpu_watch, a_trap_ends_the_job)
{
    answer = CUDA_ERROR_ILLEGAL_INSTRUCTION;
    watch_for(3);
    cr_expect_eq(failed_with, (int)CUDA_ERROR_ILLEGAL_INSTRUCTION, "failed with %d",
                 failed_with);
}

Test(gpu_watch, a_global_exit_wins_over_its_trap)
{
    exit_word = GSD_EXIT_REQUESTED | 5;
    answer = CUDA_ERROR_ILLEGAL_INSTRUCTION;
    watch_for(3);
    cr_expect_eq(exit_status, 5, "exit status %d", exit_status);
}

/* Process exit without a stop: the "driver" (an exit handler registered
 * before the watcher started, as cuInit's are) marks the context torn
 * down and waits a few ticks; the watcher must not ask it afterwards. */
static int torn_down, asked_after;

static CUresult teardown_query(void)
{
    if (__atomic_load_n(&torn_down, __ATOMIC_SEQ_CST))
        __atomic_store_n(&asked_after, 1, __ATOMIC_SEQ_CST);
    return CUDA_SUCCESS;
}
static void driver_teardown(void)
{
    __atomic_store_n(&torn_down, 1, __ATOMIC_SEQ_CST);
    sleep_ms(50);
    if (__atomic_load_n(&asked_after, __ATOMIC_SEQ_CST))
        _exit(3);
}

Test(gpu_watch, stopped_before_the_driver_at_exit)
{
    static const gsi_watch_ops_t ops = {.query = teardown_query,
                                        .failed = fake_failed,
                                        .exit_requested = fake_exit};
    int status = 0;
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (pid == 0) {
        atexit(driver_teardown);
        if (gsi_watch_loop_start(&ops, &exit_word, 1) != 0)
            _exit(2);
        sleep_ms(20);
        exit(0); /* no gsi_watch_loop_stop: the program forgot shmem_finalize */
    }
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the child ended with status %d (3: the watcher asked a torn-down context)",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
