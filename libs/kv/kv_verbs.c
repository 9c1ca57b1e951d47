/*
 * libs/kv/kv_verbs.c - see kv_verbs.h.  librdmacm resolves the address,
 * route and path MTU and carries the token; the QPs it makes are plain RC
 * QPs on this engine's protection domain and completion queue.
 */
#include "kv_verbs.h"
#include "crypto/sha256.h"
#include "kv_cuda.h"
#include "kv_impl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define KV_VB_CHAIN 32 /* work requests a doorbell */
#define KV_VB_SQ 512   /* a QP's send queue */
#define KV_VB_CQ 8192  /* the engine's completion queue */
#define KV_VB_SCRATCH 4096
#define KV_VB_RD_ATOM 16              /* reads and atomics in flight a QP, at most */
#define KV_VB_ACK_TIMEOUT 16          /* 4.096 us x 2^16 = 268 ms a try, 7 tries */
#define KV_VB_STALL_NS 30000000000ull /* no room for 30 s: the QP is stuck */
#define KV_VB_BACKLOG 64

/* What an id's context points at: a QP of ours, or one we accepted. */
enum { KV_VB_ACTIVE = 1, KV_VB_PASSIVE };

typedef struct kv_vb_passive {
    int kind; /* KV_VB_PASSIVE */
    struct rdma_cm_id *id;
    struct kv_vb_passive *next;
} kv_vb_passive_t;

struct kv_vqp {
    int kind; /* KV_VB_ACTIVE */
    kv_vb_t *vb;
    struct rdma_cm_id *id;
    uint64_t posted, completed;
    int n; /* queued in the chain */
    struct ibv_send_wr wr[KV_VB_CHAIN];
    struct ibv_sge sge[KV_VB_CHAIN];
    uint64_t inl[KV_VB_CHAIN]; /* a signal's value, copied at the post (inline) */
    int dead;
    char why[192];
    char name[64];
    kv_vqp_t *next;
};

struct kv_vb {
    struct rdma_event_channel *ch;
    struct rdma_cm_id *listen;
    struct ibv_context *dev;
    struct ibv_pd *pd;
    struct ibv_comp_channel *cc; /* wakes the net thread on a completion */
    struct ibv_cq *cq;
    struct ibv_mr *mbox_mr, *scratch_mr;
    uint64_t *scratch; /* [0]: atomics' discarded results; [1], [2]: fetch, cas; 64 on: writes */
    int rd_atom, init_atom;
    kv_vb_addr_t addr;
    kv_vqp_t *active;
    kv_vb_passive_t *passive;
};

static const char *sa_name(const struct sockaddr *sa, char *buf, size_t len)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;

    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *s = (const struct sockaddr_in *)(const void *)sa;
        inet_ntop(AF_INET, &s->sin_addr, host, sizeof host);
        port = ntohs(s->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)(const void *)sa;
        inet_ntop(AF_INET6, &s->sin6_addr, host, sizeof host);
        port = ntohs(s->sin6_port);
    }
    snprintf(buf, len, "%s:%d", host, port);
    return buf;
}

/* The device's limit on reads and atomics in flight a QP, at most ours (0: unknown). */
static int atom_limit(int dev)
{
    return dev > 0 && dev < KV_VB_RD_ATOM ? dev : KV_VB_RD_ATOM;
}

static socklen_t sa_len(const struct sockaddr *sa)
{
    return sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

/* ---- the engine's side ----------------------------------------------------- */

int kv_vb_open(kv_vb_t **out, const char *where, void *mbox, size_t len, const char *fn)
{
    const int remote = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
                       IBV_ACCESS_REMOTE_ATOMIC;
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    struct ibv_device_attr da;
    kv_vb_t *vb = (kv_vb_t *)calloc(1, sizeof *vb);
    char name[80];
    int e, rc;

    if (!vb)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    if ((e = getaddrinfo(where, NULL, &hints, &ai)) != 0) {
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                     "GSHMEM_KV_VERBS=%s is not a numeric IPv4 or IPv6 address of this host: %s",
                     where, gai_strerror(e));
        goto err;
    }
    if (!(vb->ch = rdma_create_event_channel())) {
        rc = kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                     "GSHMEM_KV_VERBS=%s: librdmacm rdma_create_event_channel: %s (no RDMA "
                     "device, or the rdma_ucm module is not loaded)",
                     where, strerror(errno));
        goto err;
    }
    if (rdma_create_id(vb->ch, &vb->listen, NULL, RDMA_PS_TCP) != 0 ||
        rdma_bind_addr(vb->listen, ai->ai_addr) != 0) {
        rc = kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                     "GSHMEM_KV_VERBS=%s: rdma_bind_addr: %s (it must be an address of an RDMA "
                     "device's interface here: rdma link show)",
                     where, strerror(errno));
        goto err;
    }
    if (!vb->listen->verbs) {
        rc = kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                     "GSHMEM_KV_VERBS=%s: no RDMA device holds that address (rdma link show)",
                     where);
        goto err;
    }
    vb->dev = vb->listen->verbs;
    if (rdma_listen(vb->listen, KV_VB_BACKLOG) != 0) {
        rc = kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn, "GSHMEM_KV_VERBS=%s: rdma_listen: %s", where,
                     strerror(errno));
        goto err;
    }
    if (ibv_query_device(vb->dev, &da) != 0)
        memset(&da, 0, sizeof da);
    vb->rd_atom = atom_limit(da.max_qp_rd_atom);
    vb->init_atom = atom_limit(da.max_qp_init_rd_atom);
    vb->pd = ibv_alloc_pd(vb->dev);
    vb->cc = vb->pd ? ibv_create_comp_channel(vb->dev) : NULL;
    vb->cq = vb->cc ? ibv_create_cq(vb->dev, KV_VB_CQ, NULL, vb->cc, 0) : NULL;
    vb->scratch = (uint64_t *)aligned_alloc(64, KV_VB_SCRATCH);
    if (!vb->pd || !vb->cc || !vb->cq || !vb->scratch) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "GSHMEM_KV_VERBS=%s: %s on %s: %s", where,
                     !vb->pd   ? "ibv_alloc_pd"
                     : !vb->cc ? "ibv_create_comp_channel"
                     : !vb->cq ? "ibv_create_cq"
                               : "aligned_alloc",
                     ibv_get_device_name(vb->dev->device), strerror(errno));
        goto err;
    }
    memset(vb->scratch, 0, KV_VB_SCRATCH);
    vb->scratch_mr = ibv_reg_mr(vb->pd, vb->scratch, KV_VB_SCRATCH, IBV_ACCESS_LOCAL_WRITE);
    vb->mbox_mr = vb->scratch_mr ? ibv_reg_mr(vb->pd, mbox, len, remote) : NULL;
    if (!vb->mbox_mr) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "GSHMEM_KV_VERBS=%s: ibv_reg_mr of the mailbox: %s",
                     where, strerror(errno));
        goto err;
    }
    if (getrandom(vb->addr.token, sizeof vb->addr.token, 0) != (ssize_t)sizeof vb->addr.token) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "getrandom: %s", strerror(errno));
        goto err;
    }
    {
        struct sockaddr *sa = rdma_get_local_addr(vb->listen);

        vb->addr.sa_len = sa_len(sa);
        memcpy(vb->addr.sa, sa, vb->addr.sa_len);
    }
    vb->addr.mbox_rkey = vb->mbox_mr->rkey;
    fcntl(vb->ch->fd, F_SETFL, fcntl(vb->ch->fd, F_GETFL) | O_NONBLOCK);
    fcntl(vb->cc->fd, F_SETFL, fcntl(vb->cc->fd, F_GETFL) | O_NONBLOCK);
    freeaddrinfo(ai);
    if (kv_info_on())
        fprintf(stderr,
                "gshmem: libgshmem_kv: verbs for peers outside the job: %s, listening on %s\n",
                ibv_get_device_name(vb->dev->device),
                sa_name((struct sockaddr *)(void *)vb->addr.sa, name, sizeof name));
    *out = vb;
    return 0;

err:
    if (ai)
        freeaddrinfo(ai);
    kv_vb_close(vb);
    return rc;
}

void kv_vb_addr(const kv_vb_t *vb, kv_vb_addr_t *a)
{
    *a = vb->addr;
}

int kv_vb_fd(const kv_vb_t *vb)
{
    return vb->ch->fd;
}

int kv_vb_cq_fd(const kv_vb_t *vb)
{
    return vb->cc->fd;
}

int kv_vb_arm(kv_vb_t *vb)
{
    struct ibv_cq *cq;
    void *ctx;

    while (ibv_get_cq_event(vb->cc, &cq, &ctx) == 0) /* the fd is non-blocking */
        ibv_ack_cq_events(cq, 1);
    ibv_req_notify_cq(vb->cq, 0);
    /* What completed between the last poll and the arm raised no event. */
    return kv_vb_poll(vb) > 0;
}

static kv_vqp_t *find_qp(kv_vb_t *vb, uint32_t qp_num)
{
    for (kv_vqp_t *c = vb->active; c; c = c->next)
        if (c->id->qp && c->id->qp->qp_num == qp_num)
            return c;
    return NULL;
}

static const char *op_name(enum ibv_wc_opcode op)
{
    switch (op) {
    case IBV_WC_RDMA_READ: return "read";
    case IBV_WC_RDMA_WRITE: return "write";
    case IBV_WC_FETCH_ADD: return "atomic add";
    case IBV_WC_COMP_SWAP: return "compare-and-swap";
    default: return "work request";
    }
}

int kv_vb_poll(kv_vb_t *vb)
{
    struct ibv_wc wc[32];
    int n, reaped = 0;

    while ((n = ibv_poll_cq(vb->cq, 32, wc)) > 0) {
        reaped += n;
        for (int i = 0; i < n; i++) {
            kv_vqp_t *c = find_qp(vb, wc[i].qp_num);

            if (!c) /* a QP since destroyed */
                continue;
            if (wc[i].status == IBV_WC_SUCCESS) {
                if (wc[i].wr_id > c->completed && wc[i].wr_id <= c->posted)
                    c->completed = wc[i].wr_id;
            } else if (!c->dead) {
                c->dead = 1;
                snprintf(c->why, sizeof c->why,
                         "an RDMA %s to %s completed with %s (vendor error 0x%x)",
                         wc[i].status == IBV_WC_WR_FLUSH_ERR ? "work request"
                                                             : op_name(wc[i].opcode),
                         c->name, ibv_wc_status_str(wc[i].status), wc[i].vendor_err);
            }
        }
    }
    return reaped;
}

/* A connection request: accepted with a QP of this engine when it carries
 * the token, else rejected (lock held). */
static void accept_or_reject(kv_vb_t *vb, struct rdma_cm_id *id, const struct rdma_conn_param *cp)
{
    struct ibv_qp_init_attr qa =
        {.send_cq = vb->cq,
         .recv_cq = vb->cq,
         .cap = {.max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1},
         .qp_type = IBV_QPT_RC};
    struct rdma_conn_param ap = {0};
    kv_vb_passive_t *p;

    if (!cp->private_data || cp->private_data_len < KV_VB_TOKEN || id->verbs != vb->dev) {
        rdma_reject(id, NULL, 0);
        rdma_destroy_id(id);
        return;
    }
    p = gsc_equal_ct(cp->private_data, vb->addr.token, KV_VB_TOKEN)
            ? (kv_vb_passive_t *)calloc(1, sizeof *p)
            : NULL;
    if (!p || rdma_create_qp(id, vb->pd, &qa) != 0) {
        rdma_reject(id, NULL, 0);
        rdma_destroy_id(id);
        free(p);
        return;
    }
    /* As the target of the peer's reads and atomics.  The request's
     * values are from this side's point of view: its responder_resources
     * is the peer's initiator depth. */
    ap.responder_resources = cp->responder_resources < vb->rd_atom ? cp->responder_resources
                                                                   : (uint8_t)vb->rd_atom;
    ap.initiator_depth = 0;
    ap.rnr_retry_count = 7;
    if (rdma_accept(id, &ap) != 0) {
        rdma_destroy_qp(id);
        rdma_destroy_id(id);
        free(p);
        return;
    }
    p->kind = KV_VB_PASSIVE, p->id = id;
    id->context = p;
    p->next = vb->passive;
    vb->passive = p;
}

/* A connection's end, either side: its QP goes with its id. */
static void close_id(struct rdma_cm_id *id)
{
    rdma_disconnect(id);
    rdma_destroy_qp(id);
    rdma_destroy_id(id);
}

static void drop_passive(kv_vb_t *vb, kv_vb_passive_t *p)
{
    for (kv_vb_passive_t **pp = &vb->passive; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    close_id(p->id);
    free(p);
}

void kv_vb_events(kv_vb_t *vb)
{
    struct rdma_cm_event *ev;

    while (rdma_get_cm_event(vb->ch, &ev) == 0) {
        struct rdma_cm_id *id = ev->id;
        const enum rdma_cm_event_type type = ev->event;
        int *kind = id ? (int *)id->context : NULL;

        if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
            struct rdma_conn_param cp = ev->param.conn;
            unsigned char token[KV_VB_TOKEN];

            /* The private data lives in the event: kept past the ack. */
            if (cp.private_data && cp.private_data_len >= KV_VB_TOKEN) {
                memcpy(token, cp.private_data, KV_VB_TOKEN);
                cp.private_data = token;
            }
            rdma_ack_cm_event(ev);
            accept_or_reject(vb, id, &cp);
            continue;
        }
        rdma_ack_cm_event(ev);
        if (type != RDMA_CM_EVENT_DISCONNECTED && type != RDMA_CM_EVENT_DEVICE_REMOVAL &&
            type != RDMA_CM_EVENT_TIMEWAIT_EXIT)
            continue;
        if (kind && *kind == KV_VB_ACTIVE) {
            kv_vqp_t *c = (kv_vqp_t *)(void *)kind;

            if (!c->dead && type != RDMA_CM_EVENT_TIMEWAIT_EXIT) {
                c->dead = 1;
                snprintf(c->why, sizeof c->why,
                         "%s %s (its process ended, or it removed this peer)", c->name,
                         type == RDMA_CM_EVENT_DEVICE_REMOVAL ? "lost its RDMA device"
                                                              : "disconnected");
            }
        } else if (kind && *kind == KV_VB_PASSIVE && type != RDMA_CM_EVENT_TIMEWAIT_EXIT) {
            drop_passive(vb, (kv_vb_passive_t *)(void *)kind);
        }
    }
}

void kv_vb_close(kv_vb_t *vb)
{
    if (!vb)
        return;
    while (vb->active)
        kv_vb_disconnect(vb, vb->active);
    while (vb->passive)
        drop_passive(vb, vb->passive);
    if (vb->listen)
        rdma_destroy_id(vb->listen);
    if (vb->mbox_mr)
        ibv_dereg_mr(vb->mbox_mr);
    if (vb->scratch_mr)
        ibv_dereg_mr(vb->scratch_mr);
    if (vb->cq) {
        kv_vb_arm(vb); /* its events acknowledged: ibv_destroy_cq waits for that */
        ibv_destroy_cq(vb->cq);
    }
    if (vb->cc)
        ibv_destroy_comp_channel(vb->cc);
    if (vb->pd)
        ibv_dealloc_pd(vb->pd);
    if (vb->ch)
        rdma_destroy_event_channel(vb->ch);
    free(vb->scratch);
    free(vb);
}

/* ---- memory -------------------------------------------------------------------- */

int kv_vb_reg(kv_vb_t *vb, void *addr, size_t len, int gpu, kv_vmr_t **out, const char *fn)
{
    const int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    struct ibv_mr *mr = NULL;
    char why[192] = "";
    int e, peermem = 0;

    if (gpu) {
        /* The dma-buf's range on host-page bounds; its IOVA is its own
         * address, so the blob's addresses stay the layout's. */
        const uintptr_t a0 = (uintptr_t)addr & ~(uintptr_t)4095;
        const uintptr_t a1 = ((uintptr_t)addr + len + 4095) & ~(uintptr_t)4095;
        int fd;

        if (kv_cuda_dmabuf((void *)a0, a1 - a0, &fd, why, sizeof why) == 0) {
            mr = ibv_reg_dmabuf_mr(vb->pd, 0, a1 - a0, a0, fd, acc);
            e = errno;
            close(fd); /* the MR holds the dma-buf */
            if (!mr)
                snprintf(why, sizeof why, "ibv_reg_dmabuf_mr: %s", strerror(e));
        }
        peermem = access("/sys/module/nvidia_peermem", F_OK) == 0;
        if (!mr && peermem)
            mr = ibv_reg_mr(vb->pd, addr, len, acc);
    } else {
        mr = ibv_reg_mr(vb->pd, addr, len, acc);
        e = errno;
        snprintf(why, sizeof why, "ibv_reg_mr: %s%s", strerror(e),
                 e == ENOMEM || e == EPERM || e == EFAULT ? " (locked memory: ulimit -l)" : "");
    }
    if (!mr) {
        /* GPU memory the NIC cannot reach is a capability, not a shortage. */
        return kv_fail(gpu ? GSHMEM_KV_ERR_UNSUPPORTED : GSHMEM_KV_ERR_NOMEM, fn,
                       "registering %zu bytes of %s memory at %p on %s: %s%s", len,
                       gpu ? "GPU" : "host", addr, ibv_get_device_name(vb->dev->device), why,
                       !gpu      ? ""
                       : peermem ? " (and so did ibv_reg_mr through nvidia_peermem)"
                                 : " (and nvidia_peermem is not loaded)");
    }
    *out = mr;
    return 0;
}

void kv_vb_dereg(kv_vmr_t *m)
{
    if (m)
        ibv_dereg_mr(m);
}

uint32_t kv_vb_lkey(const kv_vmr_t *m)
{
    return m->lkey;
}

uint32_t kv_vb_rkey(const kv_vmr_t *m)
{
    return m->rkey;
}

/* ---- connections --------------------------------------------------------------- */

/* The next event of a connect's own channel, until deadline: its type,
 * -1 past the deadline, -2 when it cannot be read (errno).  Meanwhile the
 * engine's own connection requests are answered here: the caller holds
 * the lock the net thread would need, and the peer may be this engine
 * (its own blob added) or wait on it. */
static int next_event(kv_vb_t *vb, struct rdma_event_channel *ch, uint64_t deadline_ns, int *status)
{
    struct pollfd pfd[2] = {{.fd = ch->fd, .events = POLLIN}, {.fd = vb->ch->fd, .events = POLLIN}};
    struct rdma_cm_event *ev;
    int type;

    for (;;) {
        uint64_t now = kv_now_ns();

        if (now >= deadline_ns)
            return -1;
        if (poll(pfd, 2, (int)((deadline_ns - now) / 1000000u) + 1) <= 0)
            continue;
        if (pfd[1].revents)
            kv_vb_events(vb);
        if (pfd[0].revents)
            break;
    }
    if (rdma_get_cm_event(ch, &ev) != 0)
        return -2;
    type = (int)ev->event;
    *status = ev->status;
    rdma_ack_cm_event(ev);
    return type;
}

int kv_vb_connect(kv_vb_t *vb, const kv_vb_addr_t *a, uint64_t deadline_ns, kv_vqp_t **out,
                  const char *fn)
{
    struct ibv_qp_init_attr qa = {.cap = {.max_send_wr = KV_VB_SQ,
                                          .max_recv_wr = 1,
                                          .max_send_sge = 1,
                                          .max_recv_sge = 1,
                                          .max_inline_data = sizeof(uint64_t)},
                                  .qp_type = IBV_QPT_RC,
                                  .sq_sig_all = 0};
    struct rdma_conn_param cp = {.private_data = a->token,
                                 .private_data_len = KV_VB_TOKEN,
                                 .retry_count = 7,
                                 .rnr_retry_count = 7};
    struct sockaddr_storage src, dst;
    struct rdma_event_channel *ch = NULL;
    kv_vqp_t *c = (kv_vqp_t *)calloc(1, sizeof *c);
    uint8_t ack = KV_VB_ACK_TIMEOUT;
    const char *step = "rdma_create_event_channel";
    int type = -3, status = 0, rc = GSHMEM_KV_ERR_PEER; /* -3: the call failed (errno) */

    if (!c)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    if (a->sa_len == 0 || a->sa_len > sizeof a->sa) {
        free(c);
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "the blob's RDMA address is malformed");
    }
    memset(&dst, 0, sizeof dst);
    memcpy(&dst, a->sa, a->sa_len);
    sa_name((struct sockaddr *)&dst, c->name, sizeof c->name);
    /* From GSHMEM_KV_VERBS's address: the route leaves by this engine's
     * device, whose PD the QP must be on. */
    memcpy(&src, rdma_get_local_addr(vb->listen), sa_len(rdma_get_local_addr(vb->listen)));
    if (src.ss_family == AF_INET)
        ((struct sockaddr_in *)&src)->sin_port = 0;
    else
        ((struct sockaddr_in6 *)&src)->sin6_port = 0;
    c->kind = KV_VB_ACTIVE, c->vb = vb;
    if (!(ch = rdma_create_event_channel()))
        goto fail;
    step = "rdma_create_id";
    if (rdma_create_id(ch, &c->id, c, RDMA_PS_TCP) != 0)
        goto fail;
    step = "rdma_resolve_addr";
    if (rdma_resolve_addr(c->id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 2000) != 0 ||
        (type = next_event(vb, ch, deadline_ns, &status)) != RDMA_CM_EVENT_ADDR_RESOLVED)
        goto fail_event;
    if (c->id->verbs != vb->dev) {
        rc = kv_fail(GSHMEM_KV_ERR_PEER, fn,
                     "the route to %s leaves by RDMA device %s, not GSHMEM_KV_VERBS's %s", c->name,
                     c->id->verbs ? ibv_get_device_name(c->id->verbs->device) : "(none)",
                     ibv_get_device_name(vb->dev->device));
        goto out;
    }
    rdma_set_option(c->id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &ack, sizeof ack);
    step = "rdma_resolve_route";
    if (rdma_resolve_route(c->id, 2000) != 0 ||
        (type = next_event(vb, ch, deadline_ns, &status)) != RDMA_CM_EVENT_ROUTE_RESOLVED)
        goto fail_event;
    qa.send_cq = qa.recv_cq = vb->cq;
    step = "rdma_create_qp";
    if (rdma_create_qp(c->id, vb->pd, &qa) != 0)
        goto fail;
    cp.responder_resources = 0;
    cp.initiator_depth = (uint8_t)vb->init_atom;
    step = "rdma_connect";
    if (rdma_connect(c->id, &cp) != 0 ||
        (type = next_event(vb, ch, deadline_ns, &status)) != RDMA_CM_EVENT_ESTABLISHED)
        goto fail_event;
    /* From here its events (a disconnect) come to the engine's channel. */
    step = "rdma_migrate_id";
    if (rdma_migrate_id(c->id, vb->ch) != 0)
        goto fail;
    rdma_destroy_event_channel(ch);
    c->next = vb->active;
    vb->active = c;
    *out = c;
    return 0;

fail_event:
    if (type == -1)
        rc = kv_fail(GSHMEM_KV_ERR_TIMEOUT, fn, "RDMA connect to %s: no answer to %s in time",
                     c->name, step);
    else if (type == RDMA_CM_EVENT_REJECTED)
        rc = kv_fail(GSHMEM_KV_ERR_PEER, fn,
                     "RDMA connect to %s: refused (the blob's token is not that engine's: an old "
                     "blob, or an engine since restarted)",
                     c->name);
    else
        rc = kv_fail(GSHMEM_KV_ERR_PEER, fn, "RDMA connect to %s: %s: %s (status %d)", c->name,
                     step,
                     type >= 0 ? rdma_event_str((enum rdma_cm_event_type)type) : strerror(errno),
                     type >= 0 ? status : errno);
    goto out;
fail:
    rc = kv_fail(GSHMEM_KV_ERR_PEER, fn, "RDMA connect to %s: %s: %s", c->name, step,
                 strerror(errno));
out:
    if (c->id) {
        if (c->id->qp)
            rdma_destroy_qp(c->id);
        rdma_destroy_id(c->id);
    }
    if (ch)
        rdma_destroy_event_channel(ch);
    free(c);
    return rc;
}

void kv_vb_disconnect(kv_vb_t *vb, kv_vqp_t *c)
{
    for (kv_vqp_t **pp = &vb->active; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    close_id(c->id);
    free(c);
}

/* ---- posting ------------------------------------------------------------------- */

static int post_chain(kv_vqp_t *c)
{
    struct ibv_send_wr *bad = NULL;
    uint64_t t0 = 0;
    int e;

    if (c->n == 0)
        return 0;
    /* Room in the send queue: what is posted and not completed, and the chain. */
    while (!c->dead && c->posted - c->completed + (uint64_t)c->n > KV_VB_SQ) {
        uint64_t now = kv_now_ns();

        if (!t0)
            t0 = now;
        else if (now - t0 > KV_VB_STALL_NS) {
            c->dead = 1;
            snprintf(c->why, sizeof c->why, "the QP to %s completed nothing for %llu s", c->name,
                     (unsigned long long)(KV_VB_STALL_NS / 1000000000u));
        }
        kv_vb_poll(c->vb);
    }
    if (c->dead) {
        c->n = 0;
        return EPIPE;
    }
    for (int i = 0; i < c->n; i++) {
        c->wr[i].wr_id = c->posted + (uint64_t)i + 1;
        c->wr[i].next = i + 1 < c->n ? &c->wr[i + 1] : NULL;
    }
    c->wr[c->n - 1].send_flags |= IBV_SEND_SIGNALED;
    if ((e = ibv_post_send(c->id->qp, c->wr, &bad)) != 0) {
        c->dead = 1;
        snprintf(c->why, sizeof c->why, "ibv_post_send to %s: %s", c->name, strerror(e));
        c->n = 0;
        return e;
    }
    c->posted += (uint64_t)c->n;
    c->n = 0;
    return 0;
}

/* The next slot of the chain (posting a full one first); NULL when the QP is dead. */
static struct ibv_send_wr *slot(kv_vqp_t *c, struct ibv_sge **sge)
{
    struct ibv_send_wr *w;

    if (c->n == KV_VB_CHAIN && post_chain(c) != 0)
        return NULL;
    if (c->dead)
        return NULL;
    w = &c->wr[c->n];
    *sge = &c->sge[c->n];
    memset(w, 0, sizeof *w);
    w->sg_list = *sge;
    w->num_sge = 1;
    c->n++;
    return w;
}

int kv_vb_rdma(kv_vqp_t *c, int is_read, void *local, uint32_t lkey, uint64_t raddr, uint32_t rkey,
               size_t len)
{
    struct ibv_sge *sge;
    struct ibv_send_wr *w = slot(c, &sge);

    if (!w)
        return EPIPE;
    *sge = (struct ibv_sge){(uint64_t)(uintptr_t)local, (uint32_t)len, lkey};
    w->opcode = is_read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
    w->wr.rdma.remote_addr = raddr;
    w->wr.rdma.rkey = rkey;
    return 0;
}

int kv_vb_signal(kv_vqp_t *c, int add, uint64_t value, uint64_t raddr, uint32_t rkey)
{
    struct ibv_sge *sge;
    struct ibv_send_wr *w = slot(c, &sge);

    if (!w)
        return EPIPE;
    /* Fenced: after the reads before it have their data (RC keeps writes
     * in order without it). */
    w->send_flags = IBV_SEND_FENCE;
    if (add) {
        *sge = (struct ibv_sge){(uint64_t)(uintptr_t)&c->vb->scratch[0], sizeof(uint64_t),
                                c->vb->scratch_mr->lkey};
        w->opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        w->wr.atomic.remote_addr = raddr;
        w->wr.atomic.compare_add = value;
        w->wr.atomic.rkey = rkey;
    } else {
        const int i = (int)(w - c->wr);

        c->inl[i] = value;
        *sge = (struct ibv_sge){(uint64_t)(uintptr_t)&c->inl[i], sizeof(uint64_t), 0};
        w->send_flags |= IBV_SEND_INLINE;
        w->opcode = IBV_WR_RDMA_WRITE;
        w->wr.rdma.remote_addr = raddr;
        w->wr.rdma.rkey = rkey;
    }
    return 0;
}

int kv_vb_flush(kv_vqp_t *c, uint64_t *seq)
{
    int e = post_chain(c);

    *seq = c->posted;
    return e;
}

uint64_t kv_vb_completed(const kv_vqp_t *c)
{
    return c->completed;
}

int kv_vb_dead(const kv_vqp_t *c)
{
    return c->dead;
}

const char *kv_vb_why(const kv_vqp_t *c)
{
    return c->why;
}

const char *kv_vb_peer_name(const kv_vqp_t *c)
{
    return c->name;
}

/* Posts what is queued and waits for it, until deadline: 0, ETIMEDOUT
 * (the QP is then failed: nothing of it may land later) or EPIPE. */
static int post_wait(kv_vqp_t *c, uint64_t deadline_ns)
{
    uint64_t want;

    if (kv_vb_flush(c, &want) != 0)
        return EPIPE;
    while (!c->dead && c->completed < want) {
        if (kv_now_ns() >= deadline_ns) {
            c->dead = 1;
            snprintf(c->why, sizeof c->why, "a mailbox operation to %s did not complete in time",
                     c->name);
            return ETIMEDOUT;
        }
        kv_vb_poll(c->vb);
    }
    return c->dead ? EPIPE : 0;
}

int kv_vb_fetch(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t *out, uint64_t deadline_ns)
{
    int e = kv_vb_rdma(c, 1, &c->vb->scratch[1], c->vb->scratch_mr->lkey, raddr, rkey,
                       sizeof(uint64_t));

    if (e == 0 && (e = post_wait(c, deadline_ns)) == 0)
        *out = c->vb->scratch[1];
    return e;
}

int kv_vb_cas(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t expect, uint64_t desired,
              uint64_t *old, uint64_t deadline_ns)
{
    struct ibv_sge *sge;
    struct ibv_send_wr *w = slot(c, &sge);
    int e;

    if (!w)
        return EPIPE;
    *sge = (struct ibv_sge){(uint64_t)(uintptr_t)&c->vb->scratch[2], sizeof(uint64_t),
                            c->vb->scratch_mr->lkey};
    w->opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
    w->wr.atomic.remote_addr = raddr;
    w->wr.atomic.compare_add = expect;
    w->wr.atomic.swap = desired;
    w->wr.atomic.rkey = rkey;
    if ((e = post_wait(c, deadline_ns)) == 0)
        *old = c->vb->scratch[2];
    return e;
}

int kv_vb_write(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, const void *src, size_t n,
                uint64_t deadline_ns)
{
    char *buf = (char *)c->vb->scratch + 64;
    int e;

    if (n > KV_VB_SCRATCH - 64)
        return EMSGSIZE;
    memcpy(buf, src, n);
    if ((e = kv_vb_rdma(c, 0, buf, c->vb->scratch_mr->lkey, raddr, rkey, n)) != 0)
        return e;
    return post_wait(c, deadline_ns);
}
