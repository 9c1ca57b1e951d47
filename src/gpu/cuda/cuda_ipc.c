/* src/gpu/cuda/cuda_ipc.c - pass file descriptors (the device heap's CUDA VMM
 * handles, exported as POSIX fds) to node peers.
 *
 * Each PE binds an AF_UNIX datagram socket in the abstract namespace
 * (nothing in the file system to clean up; PEs sharing memory share the
 * network namespace, src/core/peers.c), named after a random job key that PE 0
 * draws and every PE learns through the bootstrap, and its world PE.  An
 * exchange sends the fd to every listed peer with SCM_RIGHTS and receives
 * one from each.  Sends and receives are interleaved and non-blocking, so
 * no PE blocks on a full peer queue while that peer blocks on ours; a peer
 * may already send the next exchange's message, which waits in a stash.
 *
 * An abstract name has no owner or mode, and /proc/net/unix shows it to
 * every local user: anyone may send to it.  So the name proves nothing;
 * the kernel's record of the sender does.  With SO_PASSCRED each message
 * carries the sender's pid and uid (SCM_CREDENTIALS, which an unprivileged
 * sender cannot forge), and one is taken only from the process of the PE
 * it claims to come from (its pid from the init cards, gsi_pe.pid), run by
 * this user.  Nor can another user take a PE's name first and receive the
 * handles sent to it: every PE's bind must succeed, or no PE goes on. */
#define _GNU_SOURCE
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "bootstrap/bootstrap.h"
#include "core/pe.h"
#include "core/wait.h"

#define IPC_MAGIC 0x6773686d63756461ull /* "gshmcuda" */

typedef struct ipc_msg {
    uint64_t magic;
    uint64_t job;
    uint64_t tag;
    int32_t from;
    int32_t pad;
} ipc_msg_t;

typedef struct ipc_stashed {
    uint64_t tag;
    int from;
    int fd;
} ipc_stashed_t;

static struct {
    int sock;
    uint64_t job;
    ipc_stashed_t *stash;
    size_t n_stash, cap_stash;
} ipc = {.sock = -1};

static socklen_t name_of(struct sockaddr_un *a, uint64_t job, int pe)
{
    int n;

    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    /* sun_path[0] == 0: the abstract namespace. */
    n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "gshmem-cuda-%016llx-%d",
                 (unsigned long long)job, pe);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static uint64_t draw_key(void)
{
    struct timespec ts;
    uint64_t k;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        ssize_t n = read(fd, &k, sizeof(k));

        close(fd);
        if (n == (ssize_t)sizeof(k))
            return k;
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 16);
}

int gsi_cuda_ipc_sender_ok(const struct ucred *cred, int from)
{
    return cred && cred->uid == geteuid() && from >= 0 && from < gsi_pe.n_pes && gsi_pe.pid &&
           cred->pid == gsi_pe.pid[from];
}

gsi_status_t gsi_cuda_ipc_open(const char *fn)
{
    struct sockaddr_un a;
    socklen_t len;
    uint64_t mine = draw_key(), *all;
    int on = 1;
    gsi_status_t status = GSI_OK;

    all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));
    if (!all)
        return GSI_ERR_NOMEM;
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0) {
        free(all);
        return GSI_ERR_BOOTSTRAP;
    }
    ipc.job = all[0];
    ipc.sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    len = name_of(&a, ipc.job, gsi_pe.my_pe);
    if (ipc.sock < 0 || setsockopt(ipc.sock, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) != 0 ||
        bind(ipc.sock, (struct sockaddr *)&a, len) != 0) {
        GSI_WARN("%s: cannot open the socket for node peers' GPU memory handles: %s%s", fn,
                 strerror(errno), gsi_errno_hint(errno));
        status = GSI_ERR_SYSTEM;
    }
    /* Every socket is bound once all have passed, and by its PE: a name
     * some other process holds already fails that PE's bind, and then no
     * PE sends anything to any name (a failed PE still comes, so the
     * others do not wait for it). */
    mine = status == GSI_OK;
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0) {
        if (status == GSI_OK)
            status = GSI_ERR_BOOTSTRAP;
    } else {
        for (int pe = 0; pe < gsi_pe.n_pes && status == GSI_OK; pe++)
            if (!all[pe]) {
                GSI_WARN("%s: PE %d could not open its socket for GPU memory handles", fn, pe);
                status = GSI_ERR_SYSTEM;
            }
    }
    free(all);
    if (status != GSI_OK)
        gsi_cuda_ipc_close();
    return status;
}

void gsi_cuda_ipc_close(void)
{
    if (ipc.sock >= 0)
        close(ipc.sock);
    ipc.sock = -1;
    for (size_t i = 0; i < ipc.n_stash; i++)
        close(ipc.stash[i].fd);
    free(ipc.stash);
    ipc.stash = NULL;
    ipc.n_stash = ipc.cap_stash = 0;
}

static int send_fd(int to, uint64_t tag, int fd)
{
    struct sockaddr_un a;
    ipc_msg_t m = {.magic = IPC_MAGIC, .job = ipc.job, .tag = tag, .from = gsi_pe.my_pe};
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof(m)};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {0};
    struct cmsghdr *c;

    memset(&control, 0, sizeof(control));
    msg.msg_name = &a;
    msg.msg_namelen = name_of(&a, ipc.job, to);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(ipc.sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)sizeof(m) ? 0 : -1;
}

/* One message: 1 and (from, tag, fd), 0 when none is waiting, -1 on error.
 * A message that is not one of ours, from the PE it names, is dropped. */
static int recv_fd(int *from, uint64_t *tag, int *fd)
{
    ipc_msg_t m;
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof(m)};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
    } control;
    struct msghdr msg = {0};
    struct cmsghdr *c;
    struct ucred cred, *sender = NULL;
    ssize_t n;

    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    n = recvmsg(ipc.sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    *fd = -1;
    for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET)
            continue;
        if (c->cmsg_type == SCM_RIGHTS && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
            /* Any extra descriptors are closed: only one is ours. */
            for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
                int got;

                memcpy(&got, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
                if (*fd < 0)
                    *fd = got;
                else
                    close(got);
            }
        } else if (c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len >= CMSG_LEN(sizeof(cred))) {
            memcpy(&cred, CMSG_DATA(c), sizeof(cred));
            sender = &cred;
        }
    }
    if (n != (ssize_t)sizeof(m) || m.magic != IPC_MAGIC || m.job != ipc.job || *fd < 0 ||
        (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || !gsi_cuda_ipc_sender_ok(sender, m.from)) {
        if (*fd >= 0)
            close(*fd);
        if (sender)
            GSI_WARN("a message on the GPU handle socket from pid %d (uid %d) that is not "
                     "PE %d's was dropped",
                     (int)sender->pid, (int)sender->uid, (int)m.from);
        else
            GSI_WARN("a stray message on the GPU handle socket was dropped");
        return recv_fd(from, tag, fd);
    }
    *from = m.from;
    *tag = m.tag;
    return 1;
}

static int index_of(const int *peers, int n, int pe)
{
    for (int i = 0; i < n; i++)
        if (peers[i] == pe)
            return i;
    return -1;
}

static gsi_status_t stash(int from, uint64_t tag, int fd)
{
    if (ipc.n_stash == ipc.cap_stash) {
        size_t cap = ipc.cap_stash ? 2 * ipc.cap_stash : 16;
        ipc_stashed_t *s = realloc(ipc.stash, cap * sizeof(*s));

        if (!s)
            return GSI_ERR_NOMEM;
        ipc.stash = s;
        ipc.cap_stash = cap;
    }
    ipc.stash[ipc.n_stash++] = (ipc_stashed_t){.tag = tag, .from = from, .fd = fd};
    return GSI_OK;
}

/* A received (from, tag, fd): this exchange's, a later one's, or stale. */
static gsi_status_t take(const int *peers, int n, uint64_t tag, int *in, int *n_in, int from,
                         uint64_t t, int fd)
{
    int i = index_of(peers, n, from);

    if (t == tag && i >= 0 && in[i] < 0) {
        in[i] = fd;
        ++*n_in;
        return GSI_OK;
    }
    if (t > tag)
        return stash(from, t, fd);
    close(fd);
    GSI_WARN("an unexpected GPU handle from PE %d (exchange %llu, now %llu) was dropped", from,
             (unsigned long long)t, (unsigned long long)tag);
    return GSI_OK;
}

gsi_status_t gsi_cuda_ipc_exchange(int fd, const int *peers, int n, uint64_t tag, int *in,
                                   int timeout_s)
{
    char *sent = calloc((size_t)n + 1, 1);
    int n_sent = 0, n_in = 0;
    uint64_t deadline = gsi_now_ns() + (uint64_t)timeout_s * 1000000000u;
    gsi_status_t status = GSI_OK;

    if (!sent)
        return GSI_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        in[i] = -1;
    /* What arrived early, during the previous exchange. */
    for (size_t k = 0; k < ipc.n_stash;) {
        ipc_stashed_t s = ipc.stash[k];
        int i = index_of(peers, n, s.from);

        if (s.tag == tag && i >= 0 && in[i] < 0) {
            in[i] = s.fd;
            n_in++;
            ipc.stash[k] = ipc.stash[--ipc.n_stash];
        } else {
            k++;
        }
    }
    while (status == GSI_OK && (n_sent < n || n_in < n)) {
        struct pollfd p = {.fd = ipc.sock, .events = POLLIN};
        int from, got, progress = 0;
        uint64_t t;

        for (int i = 0; i < n; i++) {
            if (sent[i])
                continue;
            if (send_fd(peers[i], tag, fd) == 0) {
                sent[i] = 1, n_sent++, progress = 1;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS &&
                       errno != EINTR) {
                GSI_WARN("cannot pass a GPU memory handle to PE %d: %s", peers[i], strerror(errno));
                status = GSI_ERR_SYSTEM;
                break;
            }
        }
        while (status == GSI_OK) {
            int rfd;

            got = recv_fd(&from, &t, &rfd);
            if (got == 0)
                break;
            if (got < 0) {
                GSI_WARN("receiving GPU memory handles: %s", strerror(errno));
                status = GSI_ERR_SYSTEM;
                break;
            }
            progress = 1;
            status = take(peers, n, tag, in, &n_in, from, t, rfd);
        }
        if (status != GSI_OK || (n_sent == n && n_in == n))
            break;
        if (gsi_now_ns() > deadline) {
            GSI_WARN("node peers' GPU memory handles: %d of %d received, %d of %d sent after "
                     "%d s",
                     n_in, n, n_sent, n, timeout_s);
            status = GSI_ERR_TIMEOUT;
            break;
        }
        if (!progress)
            poll(&p, 1, 1);
    }
    free(sent);
    if (status != GSI_OK)
        for (int i = 0; i < n; i++)
            if (in[i] >= 0) {
                close(in[i]);
                in[i] = -1;
            }
    return status;
}
