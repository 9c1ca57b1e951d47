/*
 * tests/pe/bad_wait_warn.c - a long wait says what it waits for early:
 * every PE but the last waits in shmem_barrier_all, the last sleeps outside
 * the library.  With GSHMEM_WAIT_WARN=1 the waiters print one line after
 * 1 s, long before GSHMEM_WAIT_TIMEOUT=6 ends the job (a wait used to say
 * nothing until the timeout, 10 minutes by default).
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_barrier_all: still waiting after 1 s for the other PEs to reach the barrier */
/* The line comes once GSHMEM_WAIT_TIMEOUT has passed, on purpose: */
/* EXPECT_WITHIN: 20 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    setenv("GSHMEM_WAIT_WARN", "1", 1);
    setenv("GSHMEM_WAIT_TIMEOUT", "6", 1);
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        sleep(40); /* never arrives; the others' timeout ends the job first */
        fprintf(stderr, "bad_wait_warn: the job outlived the waiters' timeout\n");
        return 1;
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_wait_warn: shmem_barrier_all returned\n");
    return 1;
}
