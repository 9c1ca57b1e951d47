/* bootstrap/uid_door.c - rank 0's door: the connections it accepted that
 * have not proven they belong to the job yet (uid_int.h).
 *
 * Anyone who can reach rank 0's port can connect, so nothing a connection
 * does at the door may hold the job up: every connection is non-blocking
 * and read only when poll(2) says so, each has GSB_DOOR_MS from its accept
 * to a whole hello with the right MAC, and the listening socket stays in
 * the same poll, so the job's real ranks walk past any number of silent,
 * slow or lying ones.  A rank is counted only once it authenticated. */
#define _GNU_SOURCE
#include "uid_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* What read_some and take return when nothing was decided (the GSB_DOOR_*
 * events are 0 to 2, errors negative). */
enum { NOTHING = 3 };

void gsb_door_open(gsb_door_t *d, int lfd, const uint8_t *secret, const gsb_hello_t *root)
{
    d->lfd = lfd;
    d->secret = secret;
    d->root = *root;
    d->n = 0;
}

/* Take connection i off the table (the last one moves into its place). */
static void forget(gsb_door_t *d, int i, int close_it)
{
    if (close_it)
        close(d->conn[i].fd);
    d->conn[i] = d->conn[--d->n];
}

static int drop(gsb_door_t *d, int i, gsb_door_event_t *ev, const char *why)
{
    snprintf(ev->why, sizeof(ev->why), "a connection from %s: %s", d->conn[i].from, why);
    forget(d, i, 1);
    return GSB_DOOR_DROPPED;
}

/* A wrong MAC is most often a rank of another job or one with another
 * secret: it is told so (nothing secret in that), then closed. */
static int refuse(gsb_door_t *d, int i, gsb_door_event_t *ev)
{
    static const char text[] = "this process did not prove it knows the job's secret (its "
                               "unique id, or GSHMEM_UID's secret, is not the one rank 0 has)";

    /* Non-blocking: if the peer does not read, it simply misses the text. */
    gsb_msg_send(d->conn[i].fd, GSB_MSG_REJECT, 0, 0, 0, text, sizeof(text));
    return drop(d, i, ev,
                "it failed authentication (wrong secret, another job, or not "
                "a gshmem rank)");
}

static int admit(gsb_door_t *d, int i, gsb_door_event_t *ev)
{
    gsb_door_conn_t *c = &d->conn[i];
    gsb_hello_t proof = d->root;
    gsb_msg_t m;

    memcpy(&m, c->in, sizeof(m));
    memcpy(&ev->hello, c->in + sizeof(m), sizeof(ev->hello));
    if (m.type != GSB_MSG_HELLO || m.len != sizeof(gsb_hello_t) ||
        ev->hello.magic != GSB_WIRE_MAGIC)
        return drop(d, i, ev,
                    "it sent something else than a gshmem hello (another program, "
                    "or an older gshmem)");
    if (!gsb_auth_join_ok(d->secret, c->challenge, &ev->hello))
        return refuse(d, i, ev);
    ev->hello.host[sizeof(ev->hello.host) - 1] = '\0';
    /* Authentic: rank 0 proves itself back before anything else goes to
     * this rank, so that the rank can trust what follows. */
    memset(proof.rand, 0, sizeof(proof.rand));
    gsb_auth_root_mac(d->secret, c->challenge, &ev->hello, &proof);
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) & ~O_NONBLOCK);
    gsb_sock_tune(c->fd);
    if (gsb_msg_send(c->fd, GSB_MSG_PROOF, 0, 0, 0, &proof, sizeof(proof)) != 0)
        return drop(d, i, ev, "it closed before rank 0's proof reached it");
    ev->fd = c->fd;
    forget(d, i, 0);
    return GSB_DOOR_JOINED;
}

/* Read what connection i has sent: NOTHING yet, or an event. */
static int read_some(gsb_door_t *d, int i, gsb_door_event_t *ev)
{
    gsb_door_conn_t *c = &d->conn[i];
    ssize_t n = recv(c->fd, c->in + c->got, sizeof(c->in) - c->got, 0);

    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return NOTHING;
    if (n <= 0)
        return drop(d, i, ev, "it closed before its hello was whole");
    c->got += (size_t)n;
    if (c->got >= sizeof(gsb_msg_t)) {
        gsb_msg_t m;

        memcpy(&m, c->in, sizeof(m));
        if (m.type != GSB_MSG_HELLO || m.len != sizeof(gsb_hello_t))
            return drop(d, i, ev,
                        "it sent something else than a gshmem hello "
                        "(another program, or an older gshmem)");
    }
    return c->got == sizeof(c->in) ? admit(d, i, ev) : NOTHING;
}

static int oldest(const gsb_door_t *d)
{
    int old = 0;

    for (int i = 1; i < d->n; i++)
        if (d->conn[i].deadline < d->conn[old].deadline)
            old = i;
    return old;
}

/* A new connection: a fresh challenge, and GSB_DOOR_MS to answer it.  When
 * the door is full the oldest connection makes room. */
static int take(gsb_door_t *d, gsb_door_event_t *ev)
{
    struct sockaddr_in sa;
    socklen_t sa_len = sizeof(sa);
    gsb_challenge_t ch = {.magic = GSB_WIRE_MAGIC};
    char ip[INET_ADDRSTRLEN] = "?";
    gsb_door_conn_t *c;
    int fd, evicted = 0, rc;

    fd = accept4(d->lfd, (struct sockaddr *)&sa, &sa_len, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
        /* The connection waits in the backlog, and poll would wake at once
         * again: free a descriptor, or let time pass. */
        if (d->n > 0)
            return drop(d, oldest(d), ev,
                        "it was still at the door when rank 0 ran out of "
                        "file descriptors");
        usleep(10000);
        return NOTHING;
    }
    if (fd < 0)
        return NOTHING; /* the client gave up, or a signal */
    if (d->n == GSB_DOOR_MAX) {
        drop(d, oldest(d), ev, "it was still at the door when the door was full");
        evicted = 1;
    }
    if ((rc = gsb_auth_random(ch.rand, sizeof(ch.rand))) != 0) {
        close(fd);
        return rc;
    }
    c = &d->conn[d->n];
    memset(c, 0, sizeof(*c));
    c->fd = fd;
    c->deadline = gsb_now_ms() + GSB_DOOR_MS;
    memcpy(c->challenge, ch.rand, sizeof(ch.rand));
    if (sa.sin_family == AF_INET)
        inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
    snprintf(c->from, sizeof(c->from), "%s:%u", ip, (unsigned)ntohs(sa.sin_port));
    d->n++;
    /* The first bytes on a new socket always fit its send buffer. */
    if (gsb_msg_send(fd, GSB_MSG_CHALLENGE, 0, 0, 0, &ch, sizeof(ch)) != 0 && !evicted)
        return drop(d, d->n - 1, ev, "it closed before rank 0's challenge reached it");
    return evicted ? GSB_DOOR_DROPPED : NOTHING;
}

int gsb_door_next(gsb_door_t *d, int64_t deadline_ms, gsb_door_event_t *ev)
{
    struct pollfd p[1 + GSB_DOOR_MAX];

    for (;;) {
        int64_t now = gsb_now_ms(), until = deadline_ms;
        int n, rc;

        for (int i = 0; i < d->n; i++) {
            if (d->conn[i].deadline <= now) {
                char why[96];

                snprintf(why, sizeof(why), "it sent no whole hello within %d s",
                         GSB_DOOR_MS / 1000);
                return drop(d, i, ev, why);
            }
            if (d->conn[i].deadline < until)
                until = d->conn[i].deadline;
        }
        if (now >= deadline_ms)
            return GSB_DOOR_TIMEOUT;
        p[0] = (struct pollfd){.fd = d->lfd, .events = POLLIN};
        for (int i = 0; i < d->n; i++)
            p[1 + i] = (struct pollfd){.fd = d->conn[i].fd, .events = POLLIN};
        n = poll(p, (nfds_t)(1 + d->n), (int)(until - now));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = -errno;
            gsb_set_error("rank 0: poll at its listening socket: %s", strerror(-rc));
            return rc;
        }
        /* The connections first: a rank that answered is admitted before a
         * full door could evict it. */
        for (int i = d->n - 1; i >= 0; i--)
            if (p[1 + i].revents && (rc = read_some(d, i, ev)) != NOTHING)
                return rc;
        if (p[0].revents & POLLIN) {
            rc = take(d, ev);
            if (rc != NOTHING)
                return rc;
        }
    }
}

void gsb_door_close(gsb_door_t *d)
{
    while (d->n > 0)
        forget(d, d->n - 1, 1);
}
