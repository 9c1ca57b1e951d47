/*
 * tests/kv/kv_intrude.c - what another local user tries against a KV
 * server it was not given the secret of (kv-other-user.sh runs it as that
 * user):
 *
 *   kv_intrude ADDRESS PID   connect to the listener at ADDRESS with a
 *                            wrong secret (must be GSHMEM_KV_ERR_AUTH),
 *                            then read the server process PID's memory
 *                            directly, as the same-host path does
 *                            (process_vm_readv: must be EPERM) and
 *                            through /proc/PID/mem (must be refused).
 * Exit 0 when every attempt was refused, 1 (a line each) otherwise.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <shmem.h>

#include "gshmem_kv.h"

int main(int argc, char **argv)
{
    gshmem_kv_t *kv = NULL;
    char byte, path[64];
    struct iovec l = {&byte, 1}, r;
    int peer = -1, fails = 0, rc, fd;
    pid_t pid;

    if (argc != 3) {
        fprintf(stderr, "usage: kv_intrude ADDRESS PID\n");
        return 2;
    }
    pid = (pid_t)atoi(argv[2]);
    shmem_init();
    if (gshmem_kv_create(NULL, &kv) != 0)
        return 1;
    rc = gshmem_kv_connect(kv, argv[1], "a guess at the secret, long enough", 5000, &peer);
    if (rc != GSHMEM_KV_ERR_AUTH) {
        printf("kv_intrude: FAIL: connect with a wrong secret returned %d (%s), not "
               "GSHMEM_KV_ERR_AUTH\n",
               rc, gshmem_kv_status_str(rc));
        fails++;
    }
    /* Any address: the permission check comes before the address's. */
    r.iov_base = (void *)(uintptr_t)0x400000, r.iov_len = 1;
    if (process_vm_readv(pid, &l, 1, &r, 1, 0) >= 0 || errno != EPERM) {
        printf("kv_intrude: FAIL: process_vm_readv of pid %d was not refused with EPERM (%s)\n",
               (int)pid, strerror(errno));
        fails++;
    }
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    if ((fd = open(path, O_RDONLY)) >= 0) {
        printf("kv_intrude: FAIL: %s opened\n", path);
        close(fd);
        fails++;
    }
    gshmem_kv_destroy(kv);
    shmem_finalize();
    printf("kv_intrude: %s\n", fails ? "FAIL" : "every attempt refused");
    return fails ? 1 : 0;
}
