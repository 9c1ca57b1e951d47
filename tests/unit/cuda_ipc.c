/* Unit tests of the GPU handle socket (src/gpu/cuda/cuda_ipc.c), which needs
 * no GPU: this process is PE 0 of a two-PE job and a child it forks is PE
 * 1, each with a bootstrap that only copies.  Descriptors pass between the
 * two; a message from a process that is not the PE it names, or from
 * another user, is dropped (the exchange then times out). */
#define _GNU_SOURCE
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bootstrap/bootstrap.h"
#include "core/pe.h"
#include "gpu/cuda/cuda.h"

static uint64_t job_key; /* what PE 0 "drew": the same in both processes */
static int key_phase;    /* the next allgather of gsi_cuda_ipc_open is its key's */
static int pids[2];

/* Every PE's slot gets this PE's value, except that the key's allgather
 * hands out job_key, as if PE 0 had drawn it. */
static int copy_allgather(const void *in, void *out, size_t len)
{
    for (int pe = 0; pe < 2; pe++)
        memcpy((char *)out + (size_t)pe * len,
               key_phase && len == sizeof(job_key) ? &job_key : in, len);
    key_phase = 0;
    return 0;
}

static int no_barrier(void)
{
    return 0;
}

static const gsb_ops_t copy_boot = {.name = "copy",
                                    .allgather = copy_allgather,
                                    .barrier = no_barrier};

static void become(int pe)
{
    gsi_pe.my_pe = pe;
    gsi_pe.n_pes = 2;
    gsi_pe.boot = &copy_boot;
    gsi_pe.pid = pids;
    key_phase = 1;
    cr_assert_eq(gsi_cuda_ipc_open("test"), GSI_OK);
}

static void setup(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    /* Other test runs on this machine use other names. */
    job_key = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec;
    pids[0] = (int)getpid();
}

TestSuite(cuda_ipc, .init = setup, .timeout = 30);

/* PE 1 in a child: exchange fd with PE 0, after becoming `uid` (-1: stay);
 * exits 0 when it got PE 0's descriptor, 2 on a timeout, 1 otherwise. */
static pid_t start_pe1(int fd, uid_t uid, int *go)
{
    int ready[2], go_pipe[2];
    pid_t child;
    char c = 0;

    cr_assert_eq(pipe(ready), 0);
    cr_assert_eq(pipe(go_pipe), 0);
    child = fork();
    cr_assert_neq(child, -1);
    if (child == 0) {
        int in = -1, peer = 0;
        struct stat a, b;
        gsi_status_t status;

        gsi_cuda_ipc_close();
        pids[1] = (int)getpid();
        become(1);
        if (uid != (uid_t)-1 &&
            (setresgid(uid, uid, uid) != 0 || setresuid(uid, uid, uid) != 0))
            _exit(1);
        (void)write(ready[1], &c, 1);
        (void)read(go_pipe[0], &c, 1); /* PE 0 knows this pid now */
        status = gsi_cuda_ipc_exchange(fd, &peer, 1, 7, &in, 1);
        if (status == GSI_ERR_TIMEOUT)
            _exit(2);
        _exit(status == GSI_OK && fstat(in, &a) == 0 && fstat(fd, &b) == 0 &&
                      a.st_ino == b.st_ino
                  ? 0
                  : 1);
    }
    cr_assert_eq(read(ready[0], &c, 1), 1);
    *go = go_pipe[1];
    close(ready[0]);
    close(ready[1]);
    close(go_pipe[0]);
    return child;
}

static int child_status(pid_t child)
{
    int status = 0;

    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* PE 0's side: the exchange with PE 1 (whose pid PE 0 believes is
 * claimed_pid) of a fresh memfd; returns the status, and PE 1's exit code. */
static gsi_status_t exchange_with(uid_t child_uid, int claimed_pid, int *child_code,
                                  int *same_file)
{
    int fd = memfd_create("cuda_ipc-test", MFD_CLOEXEC), peer = 1, in = -1, go;
    pid_t child;
    struct stat a, b;
    gsi_status_t status;
    char c = 0;

    cr_assert_geq(fd, 0);
    become(0);
    child = start_pe1(fd, child_uid, &go);
    pids[1] = claimed_pid ? claimed_pid : (int)child;
    (void)write(go, &c, 1);
    status = gsi_cuda_ipc_exchange(fd, &peer, 1, 7, &in, 1);
    *same_file = status == GSI_OK && fstat(in, &a) == 0 && fstat(fd, &b) == 0 &&
                 a.st_ino == b.st_ino;
    *child_code = child_status(child);
    close(go);
    return status;
}

Test(cuda_ipc, the_two_pes_pass_descriptors)
{
    int child, same;
    gsi_status_t status = exchange_with((uid_t)-1, 0, &child, &same);

    cr_expect_eq(status, GSI_OK, "PE 0's exchange: %s", gsi_status_str(status));
    cr_expect(same, "PE 0 did not get PE 1's descriptor");
    cr_expect_eq(child, 0, "PE 1's exchange ended with %d", child);
}

Test(cuda_ipc, a_process_that_is_not_the_pe_is_dropped)
{
    int child, same;
    /* PE 0 was told PE 1 is pid 1: the child's message is an impostor's. */
    gsi_status_t status = exchange_with((uid_t)-1, 1, &child, &same);

    cr_expect_eq(status, GSI_ERR_TIMEOUT,
                 "a descriptor from pid %d, not PE 1 (pid 1), was "
                 "taken (%s)",
                 (int)getpid(), gsi_status_str(status));
    cr_expect_eq(child, 0, "PE 1 (the real PE 0's peer) ended with %d", child);
}

Test(cuda_ipc, another_users_message_is_dropped)
{
    int child, same;
    gsi_status_t status;

    if (geteuid() != 0)
        cr_skip_test("needs root to send as another user");
    /* The right pid, another user (nobody). */
    status = exchange_with(65534, 0, &child, &same);
    cr_expect_eq(status, GSI_ERR_TIMEOUT, "a descriptor from uid 65534 was taken (%s)",
                 gsi_status_str(status));
}

Test(cuda_ipc, sender_check)
{
    struct ucred me = {.pid = getpid(), .uid = geteuid(), .gid = getegid()}, c;

    gsi_pe.n_pes = 2;
    gsi_pe.pid = pids;
    pids[1] = 4242;
    cr_expect(gsi_cuda_ipc_sender_ok(&me, 0));
    cr_expect_not(gsi_cuda_ipc_sender_ok(&me, 1), "pid %d is not PE 1's", (int)me.pid);
    cr_expect_not(gsi_cuda_ipc_sender_ok(&me, 2), "PE 2 is out of range");
    cr_expect_not(gsi_cuda_ipc_sender_ok(&me, -1), "PE -1 is out of range");
    cr_expect_not(gsi_cuda_ipc_sender_ok(NULL, 0), "no credentials");
    c = me;
    c.uid = me.uid + 1;
    cr_expect_not(gsi_cuda_ipc_sender_ok(&c, 0), "another user");
}
