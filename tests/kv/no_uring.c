/*
 * tests/kv/no_uring.c - run a command where the kernel refuses io_uring,
 * as a container's seccomp profile does: a seccomp filter that fails
 * io_uring_setup with EPERM, inherited by everything the command starts.
 * kv-file-no-uring.sh uses it to check the storage tier's fallback to
 * pread/pwrite.  Exit 77 where seccomp filters cannot be installed.
 *
 *   no_uring COMMAND [ARG...]
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

int main(int argc, char **argv)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};

    if (argc < 2) {
        fprintf(stderr, "usage: no_uring COMMAND [ARG...]\n");
        return 2;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        printf("no_uring: SKIP: cannot install a seccomp filter: %s\n", strerror(errno));
        return 77;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_uring: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
