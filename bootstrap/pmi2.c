/* bootstrap/pmi2.c - PEs launched by a PMI-2 server: Slurm's srun --mpi=pmi2.
 *
 * The PMI-2 wire protocol, spoken over the socket the launcher hands over in
 * PMI_FD: a PMI-1 style "cmd=init" line picks version 2, then every request
 * and response is a 6-character decimal length and "cmd=NAME;key=value;...".
 * Allgather is kvs-put of our bytes, kvs-fence, and a kvs-get per rank.  A
 * value may not hold ';' and is at most 1024 characters, so the bytes go as
 * hex in chunks of CHUNK_BYTES, one key per chunk. */
#include "bootstrap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define MSG_MAX 2048    /* longest request or response (values <= 1024) */
#define CHUNK_BYTES 480 /* 960 hex digits per value */

static int pmi_fd = -1;
static int job_rank;
static int job_size;
static unsigned long allgather_round;
/* As the PMIx bootstrap's connection: made once and kept for the life of
 * the process, so that shmem_init after shmem_finalize finds it (PMI-2's
 * finalize ends the session, and slurmstepd takes no second fullinit on
 * the descriptor it handed us).  `finalized`: the library is finalized
 * now, so the session ends at exit (pmi2_at_exit); a process that exits
 * without shmem_finalize leaves it as before. */
static int connected, finalized, at_exit_set;

static int write_all(const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(pmi_fd, buf, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            gsb_set_error("pmi2: write to PMI_FD %d failed: %s", pmi_fd,
                          n < 0 ? strerror(errno) : "closed");
            return -EIO;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int read_all(char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = read(pmi_fd, buf, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            gsb_set_error("pmi2: the launcher closed PMI_FD %d (%s)", pmi_fd,
                          n < 0 ? strerror(errno) : "end of file");
            return -EIO;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Send "cmd=...;" with its length prefix. */
static int send_cmd(const char *cmd)
{
    char head[7];
    size_t len = strlen(cmd);

    if (len >= MSG_MAX) {
        gsb_set_error("pmi2: a request of %zu characters is too long", len);
        return -EMSGSIZE;
    }
    snprintf(head, sizeof(head), "%-6zu", len);
    if (write_all(head, 6) != 0)
        return -EIO;
    return write_all(cmd, len);
}

/* Receive one response into buf (NUL-terminated); it must be `expect`'s. */
static int recv_cmd(const char *expect, char *buf, size_t size)
{
    char head[7] = {0};
    char want[64];
    long len;

    if (read_all(head, 6) != 0)
        return -EIO;
    len = strtol(head, NULL, 10);
    if (len <= 0 || (size_t)len >= size) {
        gsb_set_error("pmi2: bad response length \"%s\"", head);
        return -EPROTO;
    }
    if (read_all(buf, (size_t)len) != 0)
        return -EIO;
    buf[len] = '\0';
    snprintf(want, sizeof(want), "cmd=%s;", expect);
    if (strncmp(buf, want, strlen(want)) != 0) {
        gsb_set_error("pmi2: expected %s, got \"%.80s\"", expect, buf);
        return -EPROTO;
    }
    return 0;
}

/* The value of `key` in a response ("...;key=value;..."), copied into out. */
static int field(const char *msg, const char *key, char *out, size_t size)
{
    size_t klen = strlen(key);

    for (const char *p = msg; p && *p; p = strchr(p, ';'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            const char *v = p + klen + 1;
            size_t vlen = strcspn(v, ";");

            if (vlen >= size)
                break;
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return 0;
        }
    }
    gsb_set_error("pmi2: no %s in \"%.80s\"", key, msg);
    return -EPROTO;
}

/* A response's rc must be 0. */
static int check_rc(const char *what, const char *msg)
{
    char rc[16];

    if (field(msg, "rc", rc, sizeof(rc)) != 0)
        return -EPROTO;
    if (strcmp(rc, "0") != 0) {
        gsb_set_error("pmi2: %s failed with rc=%s", what, rc);
        return -EIO;
    }
    return 0;
}

static int env_int(const char *name, int *out)
{
    const char *text = getenv(name);
    char *end;
    long v;

    if (!text || !*text) {
        gsb_set_error("pmi2: %s is not set (is this process started by srun --mpi=pmi2?)", name);
        return -EINVAL;
    }
    v = strtol(text, &end, 10);
    if (*end || v < 0 || v > 1 << 30) {
        gsb_set_error("pmi2: %s=\"%s\" is not a number", name, text);
        return -EINVAL;
    }
    *out = (int)v;
    return 0;
}

/* The PMI-1 style line that selects version 2 of the protocol. */
static int handshake(void)
{
    static const char init[] = "cmd=init pmi_version=2 pmi_subversion=0\n";
    char line[128];
    size_t got = 0;

    if (write_all(init, sizeof(init) - 1) != 0)
        return -EIO;
    while (got < sizeof(line) - 1) {
        if (read_all(line + got, 1) != 0)
            return -EIO;
        if (line[got++] == '\n')
            break;
    }
    line[got] = '\0';
    if (strncmp(line, "cmd=response_to_init", 20) != 0 || !strstr(line, "rc=0") ||
        !strstr(line, "pmi_version=2")) {
        gsb_set_error("pmi2: the launcher refused PMI version 2: \"%.80s\"", line);
        return -EPROTO;
    }
    return 0;
}

static int pmi2_init(const void *args, gsb_info_t *info)
{
    char msg[MSG_MAX], value[32];
    int rc;

    (void)args;
    if (connected) { /* a later init of this process: the session goes on */
        finalized = 0;
        info->rank = job_rank;
        info->size = job_size;
        return 0;
    }
    if (env_int("PMI_FD", &pmi_fd) != 0 || env_int("PMI_RANK", &job_rank) != 0 ||
        env_int("PMI_SIZE", &job_size) != 0)
        return -EINVAL;
    /* slurmstepd is our parent: if it dies, so do we, rather than wait
     * forever for peers it took down with it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    rc = handshake();
    if (rc != 0)
        return rc;
    snprintf(msg, sizeof(msg), "cmd=fullinit;pmijobid=%s;pmirank=%d;threaded=FALSE;",
             getenv("PMI_JOBID") ? getenv("PMI_JOBID") : "0", job_rank);
    if ((rc = send_cmd(msg)) != 0 || (rc = recv_cmd("fullinit-response", msg, sizeof(msg))) != 0 ||
        (rc = check_rc("fullinit", msg)) != 0)
        return rc;
    if ((rc = field(msg, "size", value, sizeof(value))) != 0)
        return rc;
    if (atoi(value) != job_size) {
        gsb_set_error("pmi2: the launcher says %s processes, PMI_SIZE %d", value, job_size);
        return -EPROTO;
    }
    connected = 1;
    info->rank = job_rank;
    info->size = job_size;
    return 0;
}

/* kvs-fence, its answer waited for within the wait limits (bootstrap.h):
 * a rank that never reaches the fence no longer holds this one forever. */
static int fence(const char *what)
{
    char msg[MSG_MAX];
    gsb_wait_t w;
    int rc;

    if ((rc = send_cmd("cmd=kvs-fence;")) != 0)
        return rc;
    gsb_wait_begin(&w);
    if ((rc = gsb_wait_fd(&w, pmi_fd, "pmi2", what)) != 0 ||
        (rc = recv_cmd("kvs-fence-response", msg, sizeof(msg))) != 0)
        return rc;
    return check_rc("kvs-fence", msg);
}

static int put_chunk(unsigned long round, size_t chunk, const unsigned char *bytes, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char msg[MSG_MAX];
    int len, rc;

    len = snprintf(msg, sizeof(msg), "cmd=kvs-put;key=gs%lu.%d.%zu;value=", round, job_rank, chunk);
    for (size_t i = 0; i < n; i++) {
        msg[len++] = hex[bytes[i] >> 4];
        msg[len++] = hex[bytes[i] & 15];
    }
    msg[len++] = ';';
    msg[len] = '\0';
    if ((rc = send_cmd(msg)) != 0 || (rc = recv_cmd("kvs-put-response", msg, sizeof(msg))) != 0)
        return rc;
    return check_rc("kvs-put", msg);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int get_chunk(unsigned long round, int r, size_t chunk, unsigned char *bytes, size_t n)
{
    char msg[MSG_MAX], value[2 * CHUNK_BYTES + 1], found[8];
    int rc;

    snprintf(msg, sizeof(msg), "cmd=kvs-get;jobid=%s;srcid=-1;key=gs%lu.%d.%zu;",
             getenv("PMI_JOBID") ? getenv("PMI_JOBID") : "0", round, r, chunk);
    if ((rc = send_cmd(msg)) != 0 || (rc = recv_cmd("kvs-get-response", msg, sizeof(msg))) != 0 ||
        (rc = check_rc("kvs-get", msg)) != 0 || (rc = field(msg, "found", found, sizeof(found))))
        return rc;
    if (strcmp(found, "TRUE") != 0 || field(msg, "value", value, sizeof(value)) != 0 ||
        strlen(value) != 2 * n) {
        gsb_set_error("pmi2: rank %d's part %zu of allgather %lu is missing or of the wrong size",
                      r, chunk, round);
        return -EPROTO;
    }
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(value[2 * i]), lo = hex_digit(value[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            gsb_set_error("pmi2: rank %d published a value that is not hex", r);
            return -EPROTO;
        }
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}

static int pmi2_allgather(const void *in, void *out, size_t len)
{
    unsigned long round = allgather_round++;
    size_t chunks = (len + CHUNK_BYTES - 1) / CHUNK_BYTES;
    char what[80];
    int rc;

    for (size_t c = 0; c < chunks; c++) {
        size_t n = len - c * CHUNK_BYTES < CHUNK_BYTES ? len - c * CHUNK_BYTES : CHUNK_BYTES;

        if ((rc = put_chunk(round, c, (const unsigned char *)in + c * CHUNK_BYTES, n)) != 0)
            return rc;
    }
    snprintf(what, sizeof(what), "every PE to reach exchange %lu (kvs-fence)", round);
    if ((rc = fence(what)) != 0)
        return rc;
    for (int r = 0; r < job_size; r++) {
        unsigned char *dst = (unsigned char *)out + (size_t)r * len;

        if (r == job_rank) {
            memmove(dst, in, len);
            continue;
        }
        for (size_t c = 0; c < chunks; c++) {
            size_t n = len - c * CHUNK_BYTES < CHUNK_BYTES ? len - c * CHUNK_BYTES : CHUNK_BYTES;

            if ((rc = get_chunk(round, r, c, dst + c * CHUNK_BYTES, n)) != 0)
                return rc;
        }
    }
    return 0;
}

static int pmi2_barrier(void)
{
    return fence("every PE to reach the barrier (kvs-fence)");
}

/* "isworld=TRUE" has slurmstepd kill the whole step; no response comes. */
static void pmi2_abort(int status, const char *msg)
{
    char req[512];
    size_t len;

    fflush(NULL);
    len = (size_t)snprintf(req, sizeof(req), "cmd=abort;isworld=TRUE;msg=%s",
                           msg ? msg : "gshmem: job aborted");
    if (len >= sizeof(req) - 1)
        len = sizeof(req) - 2;
    /* ';' ends a value: keep the message in one. */
    for (size_t i = sizeof("cmd=abort;isworld=TRUE;msg=") - 1; i < len; i++)
        if (req[i] == ';')
            req[i] = ',';
    req[len++] = ';';
    req[len] = '\0';
    send_cmd(req);
    _exit(status);
}

/* The session's end: finalize, and the descriptor closed. */
static int end_session(void)
{
    char msg[MSG_MAX];
    int rc;

    connected = 0;
    if ((rc = send_cmd("cmd=finalize;")) != 0 ||
        (rc = recv_cmd("finalize-response", msg, sizeof(msg))) != 0)
        return rc;
    rc = check_rc("finalize", msg);
    close(pmi_fd);
    pmi_fd = -1;
    return rc;
}

static void pmi2_at_exit(void)
{
    if (connected && finalized)
        end_session();
}

/* Kept open for a later init; ended at exit (see `connected`).  The exit
 * handler is registered here, not at init, so that it runs after a
 * finalize that an exit handler of the program's (start_pes) makes. */
static int pmi2_finalize(void)
{
    finalized = 1;
    if (!at_exit_set && atexit(pmi2_at_exit) == 0)
        at_exit_set = 1;
    if (at_exit_set)
        return 0;
    return end_session(); /* no exit handler: ended now, as before */
}

const gsb_ops_t gsb_pmi2_ops = {
    .name = "pmi2",
    .init = pmi2_init,
    .allgather = pmi2_allgather,
    .barrier = pmi2_barrier,
    .abort = pmi2_abort,
    .finalize = pmi2_finalize,
};
