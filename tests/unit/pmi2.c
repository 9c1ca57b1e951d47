/* Unit tests of the PMI-2 bootstrap (bootstrap/pmi2.c) against a small fake
 * PMI-2 server on the other end of a socketpair, so the wire protocol, the
 * hex chunking of large allgathers and the error paths are checked where no
 * Slurm runs.  The server plays a job of 2 ranks in which we are rank 0; rank
 * 1's value for every key is ours with each byte inverted, so the test knows
 * what the allgather must return.  tests/slurm/srun.tap runs it under the
 * real srun --mpi=pmi2. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bootstrap/bootstrap.h"

#define MAX_KEYS 64

static struct server {
    int fd;
    int refuse_version; /* answer cmd=init with rc=1 */
    int lose_values;    /* kvs-get answers found=FALSE */
    int hold_fence;     /* kvs-fence is never answered: a rank that never comes */
    char *keys[MAX_KEYS];
    char *values[MAX_KEYS];
    int n_keys;
    int gets;      /* kvs-get requests served */
    int fullinits; /* fullinit requests served */
} srv;

static int read_n(int fd, char *buf, size_t n)
{
    while (n > 0) {
        ssize_t r = read(fd, buf, n);

        if (r <= 0)
            return -1;
        buf += r;
        n -= (size_t)r;
    }
    return 0;
}

static void reply(const char *msg)
{
    char head[7];

    snprintf(head, sizeof(head), "%-6zu", strlen(msg));
    cr_assert_eq(write(srv.fd, head, 6), 6);
    cr_assert_eq(write(srv.fd, msg, strlen(msg)), (ssize_t)strlen(msg));
}

/* The value of key= in a request, up to its ';'. */
static char *field(const char *msg, const char *key)
{
    char pat[32];
    const char *p;

    snprintf(pat, sizeof(pat), ";%s=", key);
    p = strstr(msg, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    return strndup(p, strcspn(p, ";"));
}

/* Rank 1's value for `key` (gsR.1.C): rank 0's (gsR.0.C) inverted. */
static void serve_get(const char *key)
{
    char want[64], msg[2048];
    const char *dot = strchr(key, '.');

    srv.gets++;
    cr_assert(dot && dot[1] == '1' && dot[2] == '.', "kvs-get of our own key %s", key);
    snprintf(want, sizeof(want), "%.*s.0.%s", (int)(dot - key), key, dot + 3);
    for (int i = 0; i < srv.n_keys && !srv.lose_values; i++) {
        if (strcmp(srv.keys[i], want) != 0)
            continue;
        char *v = strdup(srv.values[i]);

        for (size_t j = 0; v[j]; j++) {
            int d = v[j] <= '9' ? v[j] - '0' : v[j] - 'a' + 10;

            v[j] = "0123456789abcdef"[15 - d];
        }
        snprintf(msg, sizeof(msg), "cmd=kvs-get-response;rc=0;found=TRUE;value=%s;", v);
        free(v);
        reply(msg);
        return;
    }
    reply("cmd=kvs-get-response;rc=0;found=FALSE;");
}

static void *serve(void *arg)
{
    char line[128], head[7] = {0}, msg[2048];
    size_t got = 0;

    (void)arg;
    while (got < sizeof(line) - 1 && read_n(srv.fd, line + got, 1) == 0 && line[got++] != '\n')
        ;
    line[got] = '\0';
    cr_assert_str_eq(line, "cmd=init pmi_version=2 pmi_subversion=0\n");
    snprintf(line, sizeof(line), "cmd=response_to_init rc=%d pmi_version=2 pmi_subversion=0\n",
             srv.refuse_version);
    cr_assert_eq(write(srv.fd, line, strlen(line)), (ssize_t)strlen(line));
    while (read_n(srv.fd, head, 6) == 0) {
        long len = strtol(head, NULL, 10);

        cr_assert(len > 0 && len < (long)sizeof(msg), "request length \"%s\"", head);
        cr_assert_eq(read_n(srv.fd, msg, (size_t)len), 0);
        msg[len] = '\0';
        if (!strncmp(msg, "cmd=fullinit;", 13)) {
            char *rank = field(msg, "pmirank");

            cr_assert_str_eq(rank, "0");
            free(rank);
            srv.fullinits++;
            reply("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=0;size=2;"
                  "appnum=-1;debugged=FALSE;pmiverbose=FALSE;");
        } else if (!strncmp(msg, "cmd=kvs-put;", 12)) {
            cr_assert_lt(srv.n_keys, MAX_KEYS);
            srv.keys[srv.n_keys] = field(msg, "key");
            srv.values[srv.n_keys] = field(msg, "value");
            cr_assert_leq(strlen(srv.values[srv.n_keys]), 1024,
                          "a value longer than PMI-2's 1024");
            srv.n_keys++;
            reply("cmd=kvs-put-response;rc=0;");
        } else if (!strcmp(msg, "cmd=kvs-fence;")) {
            if (!srv.hold_fence)
                reply("cmd=kvs-fence-response;rc=0;");
        } else if (!strncmp(msg, "cmd=kvs-get;", 12)) {
            char *key = field(msg, "key");

            serve_get(key);
            free(key);
        } else if (!strcmp(msg, "cmd=finalize;")) {
            reply("cmd=finalize-response;rc=0;");
            break;
        } else {
            cr_assert_fail("unexpected request \"%s\"", msg);
        }
    }
    return NULL;
}

static pthread_t server_thread;

/* Start the fake server and hand the client its end, as srun does. */
static void start_server(void)
{
    int sv[2];
    char fd[16];

    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    srv.fd = sv[1];
    snprintf(fd, sizeof(fd), "%d", sv[0]);
    setenv("PMI_FD", fd, 1);
    setenv("PMI_RANK", "0", 1);
    setenv("PMI_SIZE", "2", 1);
    cr_assert_eq(pthread_create(&server_thread, NULL, serve, NULL), 0);
}

static void check_allgather(size_t len)
{
    unsigned char *in = malloc(len), *out = malloc(2 * len);

    for (size_t i = 0; i < len; i++)
        in[i] = (unsigned char)(i * 7 + len);
    cr_assert_eq(gsb_pmi2_ops.allgather(in, out, len), 0, "allgather of %zu bytes: %s", len,
                 gsb_error());
    for (size_t i = 0; i < len; i++) {
        cr_assert_eq(out[i], in[i], "byte %zu of rank 0: %#x, expected %#x", i, out[i], in[i]);
        cr_assert_eq(out[len + i], (unsigned char)~in[i],
                     "byte %zu of rank 1: %#x, expected %#x", i, out[len + i],
                     (unsigned char)~in[i]);
    }
    free(in);
    free(out);
}

/* Wait up to 10 s for the server to see cmd=finalize (its loop ends there). */
static void join_server(void)
{
    struct timespec deadline;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    cr_assert_eq(pthread_timedjoin_np(server_thread, NULL, &deadline), 0,
                 "the launcher saw no cmd=finalize within 10 s");
}

/* The session is kept across finalize (a later init in the process reuses
 * it, as under srun no second fullinit is taken on PMI_FD); it ends at exit
 * (exit_ends_the_session). */
Test(pmi2, init_allgather_barrier_finalize)
{
    gsb_info_t info;
    int gets;

    start_server();
    cr_assert_eq(gsb_pmi2_ops.init(NULL, &info), 0, "init: %s", gsb_error());
    cr_expect_eq(info.rank, 0);
    cr_expect_eq(info.size, 2);
    /* 1 byte, exactly one chunk (480), and 2000 bytes: 5 chunks, the last short. */
    check_allgather(1);
    check_allgather(480);
    gets = srv.gets;
    check_allgather(2000);
    cr_expect_eq(srv.gets - gets, 5, "2000 bytes took %d kvs-gets, expected 5",
                 srv.gets - gets);
    cr_assert_eq(gsb_pmi2_ops.barrier(), 0, "barrier: %s", gsb_error());
    cr_assert_eq(gsb_pmi2_ops.finalize(), 0, "finalize: %s", gsb_error());
    /* init after finalize: the same session, no second fullinit. */
    cr_assert_eq(gsb_pmi2_ops.init(NULL, &info), 0, "second init: %s", gsb_error());
    cr_expect_eq(info.rank, 0);
    cr_expect_eq(info.size, 2);
    check_allgather(100);
    cr_assert_eq(gsb_pmi2_ops.finalize(), 0, "second finalize: %s", gsb_error());
    cr_expect_eq(srv.fullinits, 1, "%d fullinits, expected 1", srv.fullinits);
}

/* A finalized process ends the session when it exits: the launcher gets
 * cmd=finalize (a child process here, sharing the server's socket). */
Test(pmi2, exit_ends_the_session)
{
    gsb_info_t info;
    pid_t child;
    int status;

    start_server();
    child = fork();
    cr_assert_neq(child, -1);
    if (child == 0) {
        if (gsb_pmi2_ops.init(NULL, &info) != 0 || gsb_pmi2_ops.finalize() != 0)
            _exit(2);
        exit(0);
    }
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
    join_server();
}

Test(pmi2, missing_value_is_an_error)
{
    gsb_info_t info;
    char in[8] = "abcdefg", out[16];

    srv.lose_values = 1;
    start_server();
    cr_assert_eq(gsb_pmi2_ops.init(NULL, &info), 0, "init: %s", gsb_error());
    cr_assert_neq(gsb_pmi2_ops.allgather(in, out, sizeof(in)), 0);
    cr_expect(strstr(gsb_error(), "rank 1's part 0 of allgather 0 is missing"), "error: %s",
              gsb_error());
}

static int still_waiting_lines;

static void count_still_waiting(const char *bootstrap, long long seconds, const char *what)
{
    cr_expect_str_eq(bootstrap, "pmi2");
    cr_expect_eq(seconds, 1);
    cr_expect(strstr(what, "every PE to reach exchange 0"), "what: %s", what);
    still_waiting_lines++;
}

/* A fence another rank never reaches: once "still waiting" at the warning,
 * then -ETIMEDOUT with what it waited for (it used to wait forever). */
Test(pmi2, fence_nobody_reaches_times_out)
{
    gsb_info_t info;
    char in[8] = "abcdefg", out[16];

    srv.hold_fence = 1;
    start_server();
    cr_assert_eq(gsb_pmi2_ops.init(NULL, &info), 0, "init: %s", gsb_error());
    gsb_set_wait_limits(2, 1, count_still_waiting);
    cr_assert_eq(gsb_pmi2_ops.allgather(in, out, sizeof(in)), -ETIMEDOUT, "error: %s",
                 gsb_error());
    cr_expect(strstr(gsb_error(), "pmi2: waited more than GSHMEM_WAIT_TIMEOUT=2 s for every PE "
                                  "to reach exchange 0 (kvs-fence)"),
              "error: %s", gsb_error());
    cr_expect_eq(still_waiting_lines, 1, "%d \"still waiting\" calls, expected 1",
                 still_waiting_lines);
    gsb_set_wait_limits(0, 0, NULL);
}

Test(pmi2, refused_version_is_an_error)
{
    gsb_info_t info;

    srv.refuse_version = 1;
    start_server();
    cr_assert_neq(gsb_pmi2_ops.init(NULL, &info), 0);
    cr_expect(strstr(gsb_error(), "refused PMI version 2"), "error: %s", gsb_error());
}

Test(pmi2, no_pmi_fd_is_an_error)
{
    gsb_info_t info;

    unsetenv("PMI_FD");
    cr_assert_neq(gsb_pmi2_ops.init(NULL, &info), 0);
    cr_expect(strstr(gsb_error(), "PMI_FD is not set"), "error: %s", gsb_error());
}
