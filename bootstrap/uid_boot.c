/* bootstrap/uid_boot.c - PEs started without a launcher find each other through
 * rank 0's TCP socket, named by a unique id (see uid.h).
 *
 * Every rank k keeps one connection to rank 0 (a star).  At init rank 0
 * serves its door (uid_door.c): each new connection must prove it knows the
 * job's secret, and rank 0 proves it back (uid_auth.c), before it counts as
 * a rank.  Rank 0 then checks the ranks agree (same size, a rank not yet
 * taken) and welcomes them all at once, or refuses them all with the reason.
 * Allgather and barrier go through rank 0: each rank sends its part, rank 0
 * answers with the whole.  The monitor thread (uid_monitor.c)
 * reads what arrives and ends the job when a PE dies. */
#define _GNU_SOURCE
#include "uid_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

gsb_uid_state_t gsb_uid_state = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cond = PTHREAD_COND_INITIALIZER,
    .send_lock = PTHREAD_MUTEX_INITIALIZER,
    .coll_lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = {-1, -1},
};
static gsb_uid_state_t *const g = &gsb_uid_state;

/* ---- the rendezvous ---------------------------------------------------- */

/* Rank 0 prints the first few connections it dropped at the door as they
 * happen (PE 0's stderr, like the monitor's lines); a flood would fill the
 * log, so the rest are only counted, and summed up once. */
#define DROPS_SHOWN 4

static void fill_hello(gsb_hello_t *h)
{
    memset(h, 0, sizeof(*h));
    h->magic = GSB_WIRE_MAGIC;
    h->rank = g->rank;
    h->size = g->size;
    h->pid = (int32_t)getpid();
    gethostname(h->host, sizeof(h->host) - 1);
}

static void close_peers(void)
{
    int n = g->rank == 0 ? g->size : 1;

    for (int i = 0; g->peer && i < n; i++) {
        if (g->peer[i].fd >= 0)
            close(g->peer[i].fd);
        free(g->peer[i].stage);
    }
    free(g->peer);
    g->peer = NULL;
}

/* Rank 0: the job cannot start.  Tell `fd` (when >= 0) and every rank that
 * arrived why, and leave the same sentence for the caller. */
static int root_refuse(int fd, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int root_refuse(int fd, int err, const char *fmt, ...)
{
    char text[GSB_TEXT_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (fd >= 0) {
        gsb_msg_send(fd, GSB_MSG_REJECT, 0, 0, 0, text, strlen(text) + 1);
        close(fd);
    }
    for (int k = 1; k < g->size; k++)
        if (g->peer[k].fd >= 0)
            gsb_msg_send(g->peer[k].fd, GSB_MSG_REJECT, 0, 0, 0, text, strlen(text) + 1);
    gsb_set_error("%s", text);
    return -err;
}

/* "1, 3-5, 9" for the ranks that never connected. */
static void missing_ranks(char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int k = 1; k < g->size && used + 24 < len; k++) {
        int last = k;

        if (g->peer[k].fd >= 0)
            continue;
        while (last + 1 < g->size && g->peer[last + 1].fd < 0)
            last++;
        used += (size_t)snprintf(buf + used, len - used, used ? ", %d" : "%d", k);
        if (last > k)
            used += (size_t)snprintf(buf + used, len - used, "-%d", last);
        k = last;
    }
    if (used + 24 >= len)
        snprintf(buf + used, len - used, ", ...");
}

/* Rank 0: the hello of a connection that authenticated (uid_door.c).  0: the
 * rank is in; < 0: the job cannot start.  Every process that gets here knows
 * the secret, so a disagreement is a mistake in how the job was started,
 * and the whole job is refused with the reason. */
static int root_admit(int fd, const gsb_hello_t *h)
{
    gsb_peer_t *p;

    if (h->size != g->size)
        return root_refuse(fd, EINVAL,
                           "rank %d (pid %d on %s) was started with nranks %d, "
                           "rank 0 with nranks %d: every process must pass the same nranks",
                           h->rank, h->pid, h->host, h->size, g->size);
    if (h->rank <= 0 || h->rank >= g->size)
        return root_refuse(fd, EINVAL, "pid %d on %s claims rank %d, outside 1..%d", h->pid,
                           h->host, h->rank, g->size - 1);
    p = &g->peer[h->rank];
    if (p->fd >= 0)
        return root_refuse(fd, EINVAL,
                           "rank %d was claimed twice, by two processes that know "
                           "the job's secret: pid %d on %s and pid %d on %s (started with the "
                           "same rank?)",
                           h->rank, p->pid, p->host, h->pid, h->host);
    p->fd = fd;
    p->open = 1;
    p->pid = h->pid;
    memcpy(p->host, h->host, sizeof(p->host));
    return 0;
}

static int root_accept(int lfd)
{
    int64_t deadline = gsb_now_ms() + (int64_t)g->timeout_s * 1000;
    char missing[256], dropped_note[128] = "";
    gsb_door_t *door = malloc(sizeof(*door)); /* some 20 KiB: not on a caller's stack */
    gsb_door_event_t ev;
    gsb_hello_t mine;
    unsigned dropped = 0;
    int rc;

    if (!door) {
        gsb_set_error("rank 0: out of memory for its door");
        return -ENOMEM;
    }
    fill_hello(&mine);
    gsb_door_open(door, lfd, g->id.secret, &mine);
    for (int arrived = 1; arrived < g->size;) {
        rc = gsb_door_next(door, deadline, &ev);
        if (rc == GSB_DOOR_DROPPED) {
            /* Not the job's business: it goes on. */
            if (dropped++ < DROPS_SHOWN)
                gsb_uid_say("rank 0 at %s dropped %s", g->where, ev.why);
            continue;
        }
        if (rc == GSB_DOOR_JOINED) {
            rc = root_admit(ev.fd, &ev.hello);
            if (rc)
                goto err_close_door;
            arrived++;
            continue;
        }
        if (rc == GSB_DOOR_TIMEOUT) {
            missing_ranks(missing, sizeof(missing));
            if (dropped)
                snprintf(dropped_note, sizeof(dropped_note),
                         " (and rank 0 dropped %u "
                         "connection%s that did not authenticate)",
                         dropped, dropped > 1 ? "s" : "");
            rc = root_refuse(-1, ETIMEDOUT,
                             "rank 0 waited %d s (GSHMEM_UID_TIMEOUT) at %s; "
                             "rank%s %s never arrived%s",
                             g->timeout_s, g->where, strpbrk(missing, ",-") ? "s" : "", missing,
                             dropped_note);
            goto err_close_door;
        }
        rc = root_refuse(-1, -rc, "%s", gsb_error());
        goto err_close_door;
    }
    gsb_door_close(door);
    free(door);
    if (dropped > DROPS_SHOWN)
        gsb_uid_say("rank 0 at %s dropped %u more connections that did not authenticate", g->where,
                    dropped - DROPS_SHOWN);
    for (int k = 1; k < g->size; k++)
        gsb_msg_send(g->peer[k].fd, GSB_MSG_WELCOME, 0, 0, 0, NULL, 0);
    return 0;

err_close_door:
    gsb_door_close(door);
    free(door);
    return rc;
}

static int same_id(const gsb_uid_body_t *a, const gsb_uid_body_t *b)
{
    return a->addr.s_addr == b->addr.s_addr && a->port == b->port &&
           !memcmp(a->secret, b->secret, GSB_UID_SECRET);
}

static int root_rendezvous(void)
{
    uint16_t port;
    int lfd, rc;

    if (gsb_uid_pending.fd >= 0 && same_id(&gsb_uid_pending.id, &g->id)) {
        lfd = gsb_uid_pending.fd; /* made by gshmemx_get_uniqueid in this process */
        gsb_uid_pending.fd = -1;
    } else {
        if (gsb_uid_pending.fd >= 0) {
            close(gsb_uid_pending.fd);
            gsb_uid_pending.fd = -1;
        }
        if (g->size == 1)
            return 0;
        /* Rank 0 serves only a socket it bound itself: whoever holds the
         * port already is not this job's, and is never joined. */
        rc = gsb_sock_listen(g->id.addr, g->id.port, &lfd, &port);
        if (rc) {
            gsb_set_error("rank 0 cannot listen at %s (GSHMEM_UID): %s%s", g->where, strerror(-rc),
                          rc == -EADDRINUSE
                              ? ": another process holds that "
                                "port, and rank 0 never serves a socket it did not bind (pick "
                                "another port)"
                              : "");
            return rc;
        }
    }
    rc = g->size > 1 ? root_accept(lfd) : 0;
    close(lfd);
    return rc;
}

/* Others: the handshake on a new connection to rank 0 (uid_int.h).  0: rank
 * 0 proved it knows the secret, and *root is its hello; -EAGAIN: the
 * connection closed before anything was decided (a full door at rank 0, or
 * a proxy whose rank 0 is not up yet): connect again; else the error, in
 * gsb_error(). */
static int member_handshake(int fd, int64_t deadline, gsb_hello_t *root)
{
    char text[GSB_TEXT_MAX];
    gsb_challenge_t ch;
    gsb_hello_t h;
    gsb_msg_t m;
    int rc;

    rc = gsb_msg_recv_by(fd, &m, deadline);
    if (!rc && (m.type != GSB_MSG_CHALLENGE || m.len != sizeof(ch)))
        rc = -EPROTO;
    if (!rc && (rc = gsb_sock_recv_by(fd, &ch, sizeof(ch), deadline)) == 0 &&
        ch.magic != GSB_WIRE_MAGIC)
        rc = -EPROTO;
    if (rc == -EPIPE)
        return -EAGAIN;
    if (rc == -ETIMEDOUT) {
        gsb_set_error("rank %d: %s took the connection but sent no challenge within %d s "
                      "(GSHMEM_UID_TIMEOUT): is it a gshmem rank 0 of this version?",
                      g->rank, g->where, g->timeout_s);
        return rc;
    }
    if (rc) {
        gsb_set_error("rank %d: %s answered something else than gshmem's rank 0 (another "
                      "program listening there, or a gshmem of another version)",
                      g->rank, g->where);
        return -EPROTO;
    }
    fill_hello(&h);
    rc = gsb_auth_random(h.rand, sizeof(h.rand));
    if (rc)
        return rc;
    gsb_auth_join_mac(g->id.secret, ch.rand, &h);
    if (gsb_msg_send(fd, GSB_MSG_HELLO, g->rank, 0, 0, &h, sizeof(h)) != 0)
        return -EAGAIN;
    rc = gsb_msg_recv_by(fd, &m, deadline);
    if (!rc && m.type == GSB_MSG_REJECT && m.len > 0 && m.len <= sizeof(text) &&
        gsb_sock_recv_by(fd, text, m.len, deadline) == 0) {
        text[m.len - 1] = '\0';
        gsb_set_error("rank %d: %s did not take this rank's proof of the job's secret: \"%s\"",
                      g->rank, g->where, text);
        return -EACCES;
    }
    if (!rc && (m.type != GSB_MSG_PROOF || m.len != sizeof(*root)))
        rc = -EPROTO;
    if (!rc)
        rc = gsb_sock_recv_by(fd, root, sizeof(*root), deadline);
    if (rc == -EPIPE)
        return -EAGAIN;
    if (rc == -ETIMEDOUT) {
        gsb_set_error("rank %d: %s did not answer this rank's hello within %d s "
                      "(GSHMEM_UID_TIMEOUT)",
                      g->rank, g->where, g->timeout_s);
        return rc;
    }
    /* Nothing rank 0 says is believed before this check. */
    if (rc || root->magic != GSB_WIRE_MAGIC || root->rank != 0 ||
        !gsb_auth_root_ok(g->id.secret, ch.rand, &h, root)) {
        gsb_set_error("rank %d: the process at %s failed authentication as rank 0: it does not "
                      "know the job's secret (another program holds the port?); this rank "
                      "does not join it",
                      g->rank, g->where);
        return -EACCES;
    }
    root->host[sizeof(root->host) - 1] = '\0';
    return 0;
}

static int member_join(void)
{
    int64_t deadline = gsb_now_ms() + (int64_t)g->timeout_s * 1000;
    char text[GSB_TEXT_MAX];
    gsb_hello_t root;
    gsb_msg_t m;
    int fd, rc;

    if (gsb_uid_pending.fd >= 0) {
        close(gsb_uid_pending.fd); /* a fork of the process that made the id */
        gsb_uid_pending.fd = -1;
    }
    for (;;) {
        rc = gsb_sock_connect(g->id.addr, g->id.port, deadline, &fd);
        if (rc) {
            gsb_set_error("rank %d: rank 0 was unreachable at %s for %d s "
                          "(GSHMEM_UID_TIMEOUT): %s",
                          g->rank, g->where, g->timeout_s, strerror(-rc));
            return rc;
        }
        gsb_sock_tune(fd);
        rc = member_handshake(fd, deadline, &root);
        if (rc != -EAGAIN)
            break;
        close(fd);
        if (gsb_now_ms() >= deadline) {
            gsb_set_error("rank %d: %s closed every connection of this rank before the "
                          "handshake ended, for %d s (GSHMEM_UID_TIMEOUT): is it gshmem's rank "
                          "0 of this version?",
                          g->rank, g->where, g->timeout_s);
            return -ECONNRESET;
        }
        usleep(100000); /* rank 0's door was full: it makes room within GSB_DOOR_MS */
    }
    if (rc)
        goto err_close;
    /* Rank 0 answers once every rank arrived, or after its own timeout. */
    rc = gsb_msg_recv_by(fd, &m, gsb_now_ms() + ((int64_t)g->timeout_s + 15) * 1000);
    if (rc == -ETIMEDOUT) {
        gsb_set_error("rank %d: rank 0 at %s took this rank in but did not start the job "
                      "within %d s",
                      g->rank, g->where, g->timeout_s + 15);
        goto err_close;
    }
    if (!rc && m.type == GSB_MSG_REJECT && m.len > 0 && m.len <= sizeof(text) &&
        gsb_sock_recv_by(fd, text, m.len, gsb_now_ms() + GSB_DOOR_MS) == 0) {
        text[m.len - 1] = '\0';
        gsb_set_error("rank %d: rank 0 at %s refused to start the job: %s", g->rank, g->where,
                      text);
        rc = -ECONNREFUSED;
        goto err_close;
    }
    if (rc == -EPIPE) {
        gsb_set_error("rank %d: rank 0 at %s closed the connection before the job started "
                      "(it failed, or was killed)",
                      g->rank, g->where);
        goto err_close;
    }
    if (rc || m.type != GSB_MSG_WELCOME || m.len != 0) {
        gsb_set_error("rank %d: rank 0 at %s sent something else than the start of the job "
                      "(a protocol error)",
                      g->rank, g->where);
        rc = -EPROTO;
        goto err_close;
    }
    g->peer[0].fd = fd;
    g->peer[0].open = 1;
    g->peer[0].pid = root.pid;
    memcpy(g->peer[0].host, root.host, sizeof(root.host));
    return 0;

err_close:
    close(fd);
    return rc;
}

/* ---- the ops ----------------------------------------------------------- */

static int uid_init(const void *args, gsb_info_t *info)
{
    const gsb_uid_args_t *a = args;
    int rc;

    if (!a) {
        gsb_set_error("no rank, size or unique id: call gshmemx_init_attr, or set "
                      "GSHMEM_UID, GSHMEM_UID_RANK and GSHMEM_UID_SIZE");
        return -EINVAL;
    }
    if (g->up) {
        gsb_set_error("the bootstrap is already up");
        return -EBUSY;
    }
    if (a->size < 1 || a->rank < 0 || a->rank >= a->size) {
        gsb_set_error("rank %d is out of range for nranks %d (0 to %d)", a->rank, a->size,
                      a->size - 1);
        return -EINVAL;
    }
    rc = gsb_uid_decode(&a->uid, &g->id);
    if (rc)
        return rc;
    g->rank = a->rank;
    g->size = a->size;
    g->timeout_s = a->timeout_s > 0 ? a->timeout_s : 60;
    g->round = 0;
    g->n_bye = g->zero_bye = g->leaving = g->ending = 0;
    g->want_result = g->result_done = 0;
    gsb_uid_where(&g->id, g->where, sizeof(g->where));
    g->peer = calloc(g->rank == 0 ? (size_t)g->size : 1, sizeof(gsb_peer_t));
    if (!g->peer) {
        gsb_set_error("out of memory for %d ranks", g->size);
        return -ENOMEM;
    }
    for (int i = 0; i < (g->rank == 0 ? g->size : 1); i++)
        g->peer[i].fd = -1;
    rc = g->rank == 0 ? root_rendezvous() : member_join();
    if (rc)
        goto err_close;
    if (g->size > 1 && (rc = gsb_uid_start_monitor()) != 0)
        goto err_close;
    g->up = 1;
    info->rank = g->rank;
    info->size = g->size;
    return 0;

err_close:
    close_peers();
    return rc;
}

static int root_allgather(const void *in, void *out, size_t len)
{
    uint64_t r = ++g->round;
    size_t bad_len = 0;
    int bad = -1, rc = 0;
    char what[96];
    gsb_wait_t w;

    if (len)
        memcpy(out, in, len);
    gsb_wait_begin(&w);
    pthread_mutex_lock(&g->lock);
    for (int k = 1; k < g->size; k++) {
        gsb_peer_t *p = &g->peer[k];

        snprintf(what, sizeof(what), "every PE to reach exchange %llu (rank %d has not)",
                 (unsigned long long)r, k);
        while (!p->staged && !rc)
            rc = gsb_wait_cond(&w, &g->cond, &g->lock, "uid", what);
        if (rc) {
            pthread_mutex_unlock(&g->lock);
            return rc;
        }
        if ((p->stage_len != len || p->stage_round != r) && bad < 0) {
            bad = k;
            bad_len = p->stage_len;
        } else if (len) {
            memcpy((char *)out + (size_t)k * len, p->stage, len);
        }
        free(p->stage);
        p->stage = NULL;
        p->staged = 0;
    }
    pthread_mutex_unlock(&g->lock);
    if (bad >= 0) {
        gsb_set_error("allgather %llu: rank %d gave %zu bytes, rank 0 %zu (the PEs do not "
                      "make the same collective calls)",
                      (unsigned long long)r, bad, bad_len, len);
        return -EPROTO;
    }
    for (int k = 1; k < g->size && !rc; k++) {
        rc = gsb_uid_send_to(k, GSB_MSG_RESULT, 0, 0, r, out, (size_t)g->size * len);
        if (rc) {
            gsb_uid_settle();
            gsb_set_error("allgather: cannot send to rank %d: %s", k, strerror(-rc));
        }
    }
    return rc;
}

static int member_allgather(const void *in, void *out, size_t len)
{
    char what[96];
    gsb_wait_t w;
    int rc;

    pthread_mutex_lock(&g->lock);
    g->want_result = 1;
    g->result = out;
    g->result_len = (size_t)g->size * len;
    g->result_round = ++g->round;
    g->result_done = 0;
    pthread_mutex_unlock(&g->lock);
    rc = gsb_uid_send_to(0, GSB_MSG_GATHER, g->rank, 0, g->result_round, in, len);
    if (rc) {
        gsb_uid_settle();
        gsb_set_error("allgather: cannot send to rank 0 at %s: %s", g->where, strerror(-rc));
        return rc;
    }
    snprintf(what, sizeof(what), "every PE to reach exchange %llu",
             (unsigned long long)g->result_round);
    gsb_wait_begin(&w);
    pthread_mutex_lock(&g->lock);
    while (!g->result_done && !rc)
        rc = gsb_wait_cond(&w, &g->cond, &g->lock, "uid", what);
    g->want_result = 0;
    g->result = NULL;
    pthread_mutex_unlock(&g->lock);
    return rc;
}

static int uid_allgather(const void *in, void *out, size_t len)
{
    int rc;

    if (g->size == 1) {
        if (len)
            memmove(out, in, len);
        return 0;
    }
    pthread_mutex_lock(&g->coll_lock);
    rc = g->rank == 0 ? root_allgather(in, out, len) : member_allgather(in, out, len);
    pthread_mutex_unlock(&g->coll_lock);
    return rc;
}

static int uid_barrier(void)
{
    return uid_allgather(NULL, NULL, 0);
}

static void uid_abort(int status, const char *msg)
{
    int64_t deadline = gsb_now_ms() + GSB_END_GRACE_MS;

    if (msg)
        gsb_uid_say("%s", msg);
    if (!g->up || g->size == 1)
        gsb_uid_leave(status);
    if (g->rank == 0) {
        gsb_uid_root_end(GSB_MSG_ABORT, 0, status, NULL, -1);
    } else {
        pthread_mutex_lock(&g->lock);
        if (!g->ending) {
            g->ending = 1;
            g->end_status = status;
        }
        pthread_mutex_unlock(&g->lock);
        gsb_uid_send_to(0, GSB_MSG_ABORT, g->rank, status, 0, NULL, 0);
    }
    /* The monitor exits as soon as the notice went round (the connections
     * close); this is the bound. */
    for (;;) {
        int open;

        pthread_mutex_lock(&g->lock);
        open = g->rank == 0 ? gsb_uid_root_open_peers() : g->peer[0].open;
        status = g->end_status;
        pthread_mutex_unlock(&g->lock);
        if (!open || gsb_now_ms() >= deadline)
            gsb_uid_leave(status);
        usleep(5000);
    }
}

static int uid_finalize(void)
{
    struct timespec until;
    char missing[256] = "";
    int rc = 0;

    if (!g->up)
        return 0;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += g->timeout_s;
    pthread_mutex_lock(&g->lock);
    g->leaving = 1;
    pthread_mutex_unlock(&g->lock);
    if (g->size > 1 && g->rank != 0) {
        /* Goodbye first, so that rank 0 takes our end of file for the end. */
        gsb_uid_send_to(0, GSB_MSG_BYE, g->rank, 0, 0, NULL, 0);
        pthread_mutex_lock(&g->lock);
        while (!g->zero_bye && rc == 0)
            rc = pthread_cond_timedwait(&g->cond, &g->lock, &until);
        pthread_mutex_unlock(&g->lock);
        if (rc)
            gsb_set_error("rank 0 at %s did not answer the goodbye of rank %d within %d s",
                          g->where, g->rank, g->timeout_s);
    } else if (g->size > 1) {
        pthread_mutex_lock(&g->lock);
        while (g->n_bye < g->size - 1 && rc == 0)
            rc = pthread_cond_timedwait(&g->cond, &g->lock, &until);
        for (int k = 1; k < g->size; k++)
            if (!g->peer[k].said_bye)
                snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%d",
                         missing[0] ? ", " : "", k);
        pthread_mutex_unlock(&g->lock);
        if (rc)
            gsb_set_error("ranks %s did not say goodbye within %d s of rank 0's finalize", missing,
                          g->timeout_s);
        for (int k = 1; k < g->size; k++)
            if (g->peer[k].open)
                gsb_uid_send_to(k, GSB_MSG_BYE, 0, 0, 0, NULL, 0);
    }
    gsb_uid_stop_monitor();
    close_peers();
    g->up = 0;
    return rc ? -ETIMEDOUT : 0;
}

const gsb_ops_t gsb_uid_ops = {
    .name = "uid",
    .init = uid_init,
    .allgather = uid_allgather,
    .barrier = uid_barrier,
    .abort = uid_abort,
    .finalize = uid_finalize,
};
