/* bootstrap/uid_sock.c - the TCP sockets and framed messages under the
 * unique-id bootstrap. */
#define _GNU_SOURCE
#include "uid_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int64_t gsb_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gsb_sock_pick_addr(const char *ifname, struct in_addr *out)
{
    int automatic = !ifname || !*ifname || !strcmp(ifname, "auto");
    struct ifaddrs *all, *ifa;
    struct in_addr found = {.s_addr = htonl(INADDR_LOOPBACK)};
    int have = 0;

    if (getifaddrs(&all) != 0) {
        gsb_set_error("getifaddrs: %s", strerror(errno));
        return -errno;
    }
    for (ifa = all; ifa && !have; ifa = ifa->ifa_next) {
        if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != AF_INET)
            continue;
        if (automatic ? !(ifa->ifa_flags & IFF_UP) || (ifa->ifa_flags & IFF_LOOPBACK)
                      : strcmp(ifa->ifa_name, ifname) != 0)
            continue;
        found = ((const struct sockaddr_in *)ifa->ifa_addr)->sin_addr;
        have = 1;
    }
    freeifaddrs(all);
    if (!have && !automatic) {
        gsb_set_error("GSHMEM_UID_IFNAME=%s names no interface with an IPv4 address", ifname);
        return -ENODEV;
    }
    *out = found; /* automatic and none up: loopback, for one-host jobs */
    return 0;
}

int gsb_sock_listen(struct in_addr addr, uint16_t port, int *fd_out, uint16_t *port_out)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = addr, .sin_port = htons(port)};
    socklen_t sa_len = sizeof(sa);
    char ip[INET_ADDRSTRLEN] = "?";
    int one = 1, fd, err;

    inet_ntop(AF_INET, &addr, ip, sizeof(ip));
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        err = errno;
        gsb_set_error("socket: %s", strerror(err));
        return -err;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sa_len) != 0) {
        err = errno;
        gsb_set_error("cannot listen on %s:%u: %s", ip, (unsigned)port, strerror(err));
        close(fd);
        return -err;
    }
    *fd_out = fd;
    *port_out = ntohs(sa.sin_port);
    return 0;
}

void gsb_sock_tune(int fd)
{
    int one = 1, idle = 10, interval = 2, count = 3;
    unsigned user_timeout_ms = 20000;

    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof(user_timeout_ms));
}

static int remaining_ms(int64_t deadline_ms)
{
    int64_t left = deadline_ms - gsb_now_ms();

    return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

int gsb_sock_wait(int fd, int64_t deadline_ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};

    for (;;) {
        int n = poll(&p, 1, remaining_ms(deadline_ms));

        if (n > 0)
            return 1;
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -errno;
    }
}

/* One attempt, no longer than `limit_ms`: 0 or a positive errno. */
static int connect_once(const struct sockaddr_in *sa, int limit_ms, int *fd_out)
{
    struct pollfd p;
    socklen_t len = sizeof(int);
    int fd, err = 0;

    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return errno;
    if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) != 0) {
        if (errno != EINPROGRESS) {
            err = errno;
            goto err_close;
        }
        p.fd = fd;
        p.events = POLLOUT;
        if (poll(&p, 1, limit_ms) <= 0) {
            err = ETIMEDOUT;
            goto err_close;
        }
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
            err = errno;
        if (err)
            goto err_close;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    *fd_out = fd;
    return 0;

err_close:
    close(fd);
    return err;
}

int gsb_sock_connect(struct in_addr addr, uint16_t port, int64_t deadline_ms, int *fd_out)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = addr, .sin_port = htons(port)};
    int pause_ms = 10, err;

    for (;;) {
        int left = remaining_ms(deadline_ms);

        err = connect_once(&sa, left < 2000 ? (left > 0 ? left : 1) : 2000, fd_out);
        if (!err)
            return 0;
        left = remaining_ms(deadline_ms);
        if (left <= 0)
            return -err;
        /* Rank 0 may not listen yet, or its interface is still coming up. */
        if (pause_ms > left)
            pause_ms = left;
        usleep((useconds_t)pause_ms * 1000);
        if (pause_ms < 250)
            pause_ms *= 2;
    }
}

int gsb_sock_send(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == ECONNRESET ? -EPIPE : -errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int gsb_sock_recv(int fd, void *buf, size_t len)
{
    char *p = buf;

    while (len > 0) {
        ssize_t n = recv(fd, p, len, 0);

        if (n == 0)
            return -EPIPE;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == ECONNRESET ? -EPIPE : -errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int gsb_msg_send(int fd, uint32_t type, int rank, int value, uint64_t round, const void *payload,
                 size_t len)
{
    gsb_msg_t m = {.type = type, .rank = rank, .value = value, .round = round, .len = len};
    struct iovec iov[2] = {{&m, sizeof(m)}, {(void *)payload, len}};
    struct msghdr mh = {.msg_iov = iov, .msg_iovlen = len ? 2 : 1};
    size_t total = sizeof(m) + len, done;
    ssize_t n;

    /* The header and a small payload leave in one segment. */
    do
        n = sendmsg(fd, &mh, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return errno == ECONNRESET ? -EPIPE : -errno;
    done = (size_t)n;
    if (done >= total)
        return 0;
    if (done < sizeof(m)) {
        int rc = gsb_sock_send(fd, (char *)&m + done, sizeof(m) - done);

        if (rc)
            return rc;
        done = sizeof(m);
    }
    return gsb_sock_send(fd, (const char *)payload + (done - sizeof(m)), total - done);
}

int gsb_msg_recv(int fd, gsb_msg_t *msg)
{
    int rc = gsb_sock_recv(fd, msg, sizeof(*msg));

    if (rc)
        return rc;
    if (msg->type < GSB_MSG_CHALLENGE || msg->type > GSB_MSG_BYE || msg->len > GSB_MSG_MAX_LEN)
        return -EPROTO;
    return 0;
}

int gsb_sock_recv_by(int fd, void *buf, size_t len, int64_t deadline_ms)
{
    char *p = buf;

    /* poll before every recv: a peer that sends part of a message and then
     * nothing costs at most the time left, never a blocked thread. */
    while (len > 0) {
        int rc = gsb_sock_wait(fd, deadline_ms);
        ssize_t n;

        if (rc == 0)
            return -ETIMEDOUT;
        if (rc < 0)
            return rc;
        n = recv(fd, p, len, MSG_DONTWAIT);
        if (n == 0)
            return -EPIPE;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            return errno == ECONNRESET ? -EPIPE : -errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int gsb_msg_recv_by(int fd, gsb_msg_t *msg, int64_t deadline_ms)
{
    int rc = gsb_sock_recv_by(fd, msg, sizeof(*msg), deadline_ms);

    if (rc)
        return rc;
    if (msg->type < GSB_MSG_CHALLENGE || msg->type > GSB_MSG_BYE || msg->len > GSB_MSG_MAX_LEN)
        return -EPROTO;
    return 0;
}
