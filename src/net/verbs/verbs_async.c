/* src/net/verbs/verbs_async.c - the device's asynchronous events, watched
 * by a thread of their own.
 *
 * A port that goes down, a QP or CQ that breaks, or a device that dies is
 * reported on the context's async fd, not through any completion: on rxe a
 * port whose netdev goes down keeps carrying this host's own traffic, and a
 * PE that only waits on memory (a barrier's flag) polls no CQ at all.  So
 * the events cannot wait for the data path to look: a thread sleeps in
 * poll() on the async fd and, on a fatal event, prints one line naming the
 * port or the peer and ends the job (gsi_fatal).  Other events (a port
 * coming up, a GID change) are acknowledged and dropped.  An eventfd wakes
 * the thread at finalize. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/log.h"
#include "net/verbs/verbs_state.h"

static struct {
    pthread_t thread;
    int stop_fd; /* eventfd; -1: no thread */
} watch = {.stop_fd = -1};

/* The PE whose QP this is (-1: not one of ours). */
static int qp_peer(const struct ibv_qp *qp)
{
    for (int pe = 0; gst_verbs.qp && pe < gst_verbs.n_pes; pe++)
        if (gst_verbs.qp[pe] == qp)
            return pe;
    return -1;
}

/* One event: return to watching, or end the job. */
static void handle(const struct ibv_async_event *ev)
{
    const char *what = ibv_event_type_str(ev->event_type);

    switch (ev->event_type) {
    case IBV_EVENT_PORT_ERR:
        if (ev->element.port_num != gst_verbs.port.port)
            return;
        gsi_fatal("gst_verbs", "port %d of %s went down (%s)", ev->element.port_num,
                  gst_verbs.port.dev_name, what);
        break;
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
        gsi_fatal("gst_verbs", "PE %d: its QP (%u) on %s is in error: %s", qp_peer(ev->element.qp),
                  ev->element.qp->qp_num, gst_verbs.port.dev_name, what);
        break;
    case IBV_EVENT_CQ_ERR:
        gsi_fatal("gst_verbs", "the completion queue on %s overran or broke: %s",
                  gst_verbs.port.dev_name, what);
        break;
    case IBV_EVENT_DEVICE_FATAL:
        gsi_fatal("gst_verbs", "RDMA device %s failed: %s", gst_verbs.port.dev_name, what);
        break;
    default: break;
    }
}

static void *watch_events(void *arg)
{
    struct pollfd fds[2] = {{.fd = gst_verbs.ctx->async_fd, .events = POLLIN},
                            {.fd = watch.stop_fd, .events = POLLIN}};

    (void)arg;
    for (;;) {
        struct ibv_async_event ev;

        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            gsi_fatal("gst_verbs", "poll on %s's event fd failed: %s", gst_verbs.port.dev_name,
                      strerror(errno));
        }
        if (fds[1].revents)
            return NULL;
        if (!(fds[0].revents & POLLIN))
            continue;
        /* The fd is non-blocking: another reader cannot make this wait. */
        if (ibv_get_async_event(gst_verbs.ctx, &ev))
            continue;
        handle(&ev);
        ibv_ack_async_event(&ev);
    }
}

gsi_status_t gst_verbs_async_start(char *err, size_t errlen)
{
    int flags = fcntl(gst_verbs.ctx->async_fd, F_GETFL);
    int rc;

    if (flags < 0 || fcntl(gst_verbs.ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        snprintf(err, errlen, "%s: cannot make the event fd non-blocking: %s",
                 gst_verbs.port.dev_name, strerror(errno));
        return GSI_ERR_SYSTEM;
    }
    watch.stop_fd = eventfd(0, EFD_CLOEXEC);
    if (watch.stop_fd < 0) {
        snprintf(err, errlen, "eventfd for the event thread: %s", strerror(errno));
        return GSI_ERR_SYSTEM;
    }
    rc = pthread_create(&watch.thread, NULL, watch_events, NULL);
    if (rc) {
        close(watch.stop_fd);
        watch.stop_fd = -1;
        snprintf(err, errlen, "cannot start the event thread: %s", strerror(rc));
        return GSI_ERR_SYSTEM;
    }
    return GSI_OK;
}

void gst_verbs_async_stop(void)
{
    uint64_t one = 1;

    if (watch.stop_fd < 0)
        return;
    if (write(watch.stop_fd, &one, sizeof(one)) == (ssize_t)sizeof(one))
        pthread_join(watch.thread, NULL);
    close(watch.stop_fd);
    watch.stop_fd = -1;
}

#endif
