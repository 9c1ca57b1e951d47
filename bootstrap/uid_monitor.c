/* bootstrap/uid_monitor.c - the monitor thread of the unique-id bootstrap,
 * and the end of the job.
 *
 * Each process runs one monitor thread from init to finalize; it reads every
 * message that arrives, so a connection that closes is noticed at once even
 * while the program computes or waits in a barrier on shared memory:
 *  - rank 0 watches every rank: an end of file from rank k that has not said
 *    goodbye (finalize) means k died; rank 0 tells the others and exits;
 *  - the others watch rank 0: the notice, or an end of file from rank 0,
 *    ends them.
 * shmem_global_exit sends its status through rank 0 to everyone.  Each
 * process that is ended prints one line naming the PE that caused it. */
#define _GNU_SOURCE
#include "uid_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gsb_uid_state_t *const g = &gsb_uid_state;

/* ---- reporting --------------------------------------------------------- */

/* One line to stderr, with one write(2), as the core's log does. */
void gsb_uid_say(const char *fmt, ...)
{
    char line[GSB_TEXT_MAX + 128];
    va_list ap;
    int n = snprintf(line, sizeof(line), "gshmem: PE %d: ", g->rank);

    va_start(ap, fmt);
    vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n = (int)strlen(line);
    line[n++] = '\n';
    if (write(STDERR_FILENO, line, (size_t)n) < 0)
        return;
}

/* Exit from any thread: flush what stdio holds unless another thread is
 * inside it (then flushing could wait forever). */
void gsb_uid_leave(int status)
{
    FILE *streams[2] = {stdout, stderr};

    for (int i = 0; i < 2; i++)
        if (ftrylockfile(streams[i]) == 0) {
            fflush_unlocked(streams[i]);
            funlockfile(streams[i]);
        }
    _exit(status);
}

const char *gsb_uid_describe(int r, char *buf, size_t len)
{
    const gsb_peer_t *p = &g->peer[g->rank == 0 ? r : 0];

    snprintf(buf, len, "PE %d (pid %d on %s)", r, p->pid, p->host);
    return buf;
}

int gsb_uid_send_to(int r, uint32_t type, int rank, int value, uint64_t round, const void *payload,
                    size_t len)
{
    int rc;

    pthread_mutex_lock(&g->send_lock);
    rc = gsb_msg_send(g->peer[r].fd, type, rank, value, round, payload, len);
    pthread_mutex_unlock(&g->send_lock);
    return rc;
}

/* A send to a peer failed: the monitor is about to report why (a death, the
 * end of the job).  Give it the time to, then let the caller report. */
void gsb_uid_settle(void)
{
    usleep((GSB_END_GRACE_MS + 1000) * 1000);
}

/* ---- the end of the job ------------------------------------------------ */

/* Rank 0: tell every open rank but `skip` that the job ends, then exit with
 * `status` once they have closed (the monitor watches) or after the grace
 * time.  Returns when the job was already ending. */
void gsb_uid_root_end(uint32_t type, int origin, int status, const char *text, int skip)
{
    pthread_mutex_lock(&g->lock);
    if (g->ending) {
        pthread_mutex_unlock(&g->lock);
        return;
    }
    g->ending = 1;
    g->end_status = status;
    g->end_skip = skip;
    g->end_deadline = gsb_now_ms() + GSB_END_GRACE_MS;
    pthread_mutex_unlock(&g->lock);
    for (int k = 1; k < g->size; k++)
        if (k != skip && g->peer[k].fd >= 0)
            gsb_uid_send_to(k, type, origin, status, 0, text, text ? strlen(text) + 1 : 0);
}

/* Ranks rank 0 still waits for before it exits (the lock is held). */
int gsb_uid_root_open_peers(void)
{
    int n = 0;

    for (int k = 1; k < g->size; k++)
        if (g->peer[k].open && !(g->ending && k == g->end_skip))
            n++;
    return n;
}

static void root_peer_died(int k, const char *why)
{
    char who[128], text[GSB_TEXT_MAX];

    snprintf(text, sizeof(text), "%s died: %s", gsb_uid_describe(k, who, sizeof(who)), why);
    gsb_uid_say("%s; ending the job", text);
    gsb_uid_root_end(GSB_MSG_DEAD, k, 1, text, k);
}

/* ---- the monitor threads ----------------------------------------------- */

/* Rank 0: one message from rank k. */
static void root_from(int k)
{
    gsb_peer_t *p = &g->peer[k];
    gsb_msg_t m;
    void *buf = NULL;
    int rc = gsb_msg_recv(p->fd, &m), gone;

    if (!rc && m.type == GSB_MSG_GATHER && m.len) {
        buf = malloc(m.len);
        rc = buf ? gsb_sock_recv(p->fd, buf, m.len) : -ENOMEM;
    }
    if (rc) {
        free(buf);
        pthread_mutex_lock(&g->lock);
        p->open = 0;
        gone = p->said_bye || g->ending;
        pthread_mutex_unlock(&g->lock);
        if (rc == -ENOMEM) {
            gsb_uid_say("out of memory for a %llu-byte allgather from PE %d; ending the job",
                        (unsigned long long)m.len, k);
            gsb_uid_root_end(GSB_MSG_ABORT, 0, 1, NULL, -1);
        } else if (!gone) {
            root_peer_died(k, rc == -EPROTO
                                  ? "it sent a malformed message to rank 0"
                                  : "its connection to rank 0 closed before shmem_finalize "
                                    "(killed, or crashed)");
        }
        return;
    }
    switch (m.type) {
    case GSB_MSG_GATHER:
        pthread_mutex_lock(&g->lock);
        rc = p->staged;
        if (!rc) {
            p->stage = buf;
            p->stage_len = m.len;
            p->stage_round = m.round;
            p->staged = 1;
            pthread_cond_broadcast(&g->cond);
        }
        pthread_mutex_unlock(&g->lock);
        if (rc) {
            free(buf);
            root_peer_died(k, "it sent two allgather parts in one round (a protocol error)");
        }
        return;
    case GSB_MSG_BYE:
        pthread_mutex_lock(&g->lock);
        p->said_bye = 1;
        g->n_bye++;
        pthread_cond_broadcast(&g->cond);
        pthread_mutex_unlock(&g->lock);
        return;
    case GSB_MSG_ABORT:
        if (!g->ending)
            gsb_uid_say("PE %d called shmem_global_exit(%d); ending the job", k, m.value);
        gsb_uid_root_end(GSB_MSG_ABORT, k, m.value, NULL, k);
        return;
    default:
        root_peer_died(k, "it sent an unexpected message to rank 0 (a protocol error)");
        return;
    }
}

static void *root_monitor(void *unused)
{
    struct pollfd *p = calloc((size_t)g->size, sizeof(*p));
    int *who = calloc((size_t)g->size, sizeof(*who));

    (void)unused;
    if (!p || !who) {
        gsb_uid_say("out of memory for the bootstrap monitor; ending the job");
        gsb_uid_leave(1);
    }
    for (;;) {
        int n = 1, timeout = -1, ending, status;
        int64_t deadline;

        p[0] = (struct pollfd){.fd = g->wake[0], .events = POLLIN};
        pthread_mutex_lock(&g->lock);
        for (int k = 1; k < g->size; k++)
            if (g->peer[k].open && !(g->ending && k == g->end_skip)) {
                who[n] = k;
                p[n++] = (struct pollfd){.fd = g->peer[k].fd, .events = POLLIN};
            }
        ending = g->ending;
        status = g->end_status;
        deadline = g->end_deadline;
        pthread_mutex_unlock(&g->lock);
        if (ending) {
            int64_t left = deadline - gsb_now_ms();

            if (n == 1 || left <= 0)
                gsb_uid_leave(status);
            timeout = (int)left;
        }
        if (poll(p, (nfds_t)n, timeout) < 0)
            continue;
        if (p[0].revents)
            break; /* finalize */
        for (int i = 1; i < n; i++)
            if (p[i].revents)
                root_from(who[i]);
    }
    free(p);
    free(who);
    return NULL;
}

/* Others: rank 0's connection closed.  Returns 1 in finalize (the end). */
static int member_lost_root(int rc)
{
    char who[128];
    int leaving, ending, status;

    pthread_mutex_lock(&g->lock);
    leaving = g->leaving;
    ending = g->ending;
    status = g->end_status;
    if (leaving) {
        g->zero_bye = 1;
        pthread_cond_broadcast(&g->cond);
    }
    g->peer[0].open = 0;
    pthread_mutex_unlock(&g->lock);
    if (ending)
        gsb_uid_leave(status); /* our shmem_global_exit went through */
    if (leaving)
        return 1;
    gsb_uid_say("%s died: %s; ending this PE", gsb_uid_describe(0, who, sizeof(who)),
                rc == -EPROTO ? "it sent a malformed message"
                              : "the bootstrap connection to it closed (killed, or crashed)");
    gsb_uid_leave(1);
}

/* Others: one message from rank 0.  Returns 1 when the monitor is done. */
static int member_from_root(void)
{
    int fd = g->peer[0].fd, rc = 0, ok;
    char text[GSB_TEXT_MAX];
    gsb_msg_t m;

    rc = gsb_msg_recv(fd, &m);
    if (rc)
        return member_lost_root(rc);
    switch (m.type) {
    case GSB_MSG_RESULT:
        pthread_mutex_lock(&g->lock);
        ok = g->want_result && !g->result_done && m.round == g->result_round &&
             m.len == g->result_len;
        pthread_mutex_unlock(&g->lock);
        if (!ok) {
            gsb_uid_say("rank 0 sent allgather round %llu of %llu bytes, which this PE did not "
                        "ask for (a protocol error); ending this PE",
                        (unsigned long long)m.round, (unsigned long long)m.len);
            gsb_uid_leave(1);
        }
        if (m.len && (rc = gsb_sock_recv(fd, g->result, m.len)) != 0)
            return member_lost_root(rc);
        pthread_mutex_lock(&g->lock);
        g->result_done = 1;
        pthread_cond_broadcast(&g->cond);
        pthread_mutex_unlock(&g->lock);
        return 0;
    case GSB_MSG_ABORT:
        pthread_mutex_lock(&g->lock);
        ok = g->ending; /* this PE is ending the job itself */
        pthread_mutex_unlock(&g->lock);
        if (ok)
            gsb_uid_leave(g->end_status);
        gsb_uid_say("PE %d called shmem_global_exit(%d)", m.rank, m.value);
        gsb_uid_leave(m.value);
    case GSB_MSG_DEAD:
        if (m.len > sizeof(text) || gsb_sock_recv(fd, text, m.len) != 0 || m.len == 0)
            snprintf(text, sizeof(text), "PE %d died", m.rank);
        text[sizeof(text) - 1] = '\0';
        gsb_uid_say("%s; ending this PE", text);
        gsb_uid_leave(1);
    case GSB_MSG_BYE:
        pthread_mutex_lock(&g->lock);
        g->zero_bye = 1;
        pthread_cond_broadcast(&g->cond);
        pthread_mutex_unlock(&g->lock);
        return 1;
    default: return member_lost_root(-EPROTO);
    }
}

static void *member_monitor(void *unused)
{
    (void)unused;
    for (;;) {
        struct pollfd p[2] = {{.fd = g->wake[0], .events = POLLIN},
                              {.fd = g->peer[0].fd, .events = POLLIN}};

        if (poll(p, 2, -1) < 0)
            continue;
        if (p[0].revents)
            return NULL;
        if (p[1].revents && member_from_root())
            return NULL;
    }
}

int gsb_uid_start_monitor(void)
{
    sigset_t all, old;
    int rc;

    if (pipe2(g->wake, O_CLOEXEC) != 0) {
        rc = -errno;
        gsb_set_error("pipe: %s", strerror(-rc));
        return rc;
    }
    /* Signals stay with the program's threads. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&g->monitor, NULL, g->rank == 0 ? root_monitor : member_monitor, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        gsb_set_error("cannot start the monitor thread: %s", strerror(rc));
        goto err_close_pipe;
    }
    pthread_setname_np(g->monitor, "gshmem-uid");
    g->monitor_on = 1;
    return 0;

err_close_pipe:
    close(g->wake[0]);
    close(g->wake[1]);
    g->wake[0] = g->wake[1] = -1;
    return -rc;
}

void gsb_uid_stop_monitor(void)
{
    char byte = 0;

    if (g->monitor_on) {
        if (write(g->wake[1], &byte, 1) < 0)
            gsb_uid_say("cannot wake the bootstrap's monitor thread: %s", strerror(errno));
        pthread_join(g->monitor, NULL);
        g->monitor_on = 0;
    }
    for (int i = 0; i < 2; i++)
        if (g->wake[i] >= 0) {
            close(g->wake[i]);
            g->wake[i] = -1;
        }
}
