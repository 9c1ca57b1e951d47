/* src/net/ucx/ucx_am.c - small puts, gets and atomics as UCX active messages (see
 * ucx_am.h). */
#include "config.h"
#include "net/ucx/ucx_am.h"
#include "base/copy.h"
#include "net/ucx/ucx_state.h"

#ifdef GSHMEM_HAVE_UCX

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Handler ids. */
enum { AM_PUT, AM_GET, AM_AMO, AM_FLUSH, AM_REPLY, AM_BATCH, AM_COUNT };

typedef struct am_put_hdr {
    uint64_t offset;
    uint32_t region;
} am_put_hdr_t;

typedef struct am_get_hdr {
    uint64_t offset, len, id;
    uint32_t region;
} am_get_hdr_t;

typedef struct am_amo_hdr {
    uint64_t offset, operand, compare, id;
    uint32_t region;
    uint8_t op, size, reply;
} am_amo_hdr_t;

typedef struct am_flush_hdr {
    uint64_t id;
} am_flush_hdr_t;

typedef struct am_reply_hdr {
    uint64_t id;
} am_reply_hdr_t;

/* An AM_BATCH message is a run of records, each followed by its payload
 * padded to 8 bytes: a put's len bytes, or an atomic's 8-byte operand. */
enum { REC_PUT, REC_AMO };

typedef struct am_rec {
    uint64_t offset;
    uint32_t len; /* put: bytes; atomic: its size, 4 or 8 */
    uint8_t region, kind, op, pad;
} am_rec_t;

#define REC_PAD(n) (((n) + 7) & ~(size_t)7)

typedef struct am_batch_hdr {
    uint64_t records;
} am_batch_hdr_t;

/* One batch buffer: filled by the _nbi calls for one peer, then sent as
 * one message.  UCX may still read it after the send returns (a request
 * in flight), so there is a ring of them and `free` says when it may be
 * filled again. */
typedef struct am_batch {
    am_batch_hdr_t h;
    size_t used;
    int pe;
    volatile int free; /* 0 while a send of it is in flight */
    uint64_t data[GST_UCX_AM_BATCH / 8];
} am_batch_t;

/* Batch buffers: as many sends as may be in flight before a sender waits
 * for the oldest. */
#define N_BATCH 16

static struct {
    gst_ucx_am_args_t a;
    void *base[GST_MAX_REGIONS];
    size_t size[GST_MAX_REGIONS];
    unsigned char *unflushed; /* [n_pes] 1: sent something since its last flush */
    int any_unflushed;
    /* The one call waiting for replies (calls are serialized): replies
     * carrying another id are stale and dropped. */
    uint64_t id;
    void *dst;
    size_t len;
    int remaining;
    volatile int done;
    am_batch_t *batch; /* [N_BATCH] */
    int cur;           /* the batch being filled */
    int batch_failed;  /* a batch's send failed: every later flush fails */
    int held;          /* it holds records (read unlocked by gst_ucx_am_holding) */
} am;

/* ---- target side ------------------------------------------------------------ */

/* Where (region, offset) of len bytes is here, or NULL (and a line on
 * stderr) when a peer names bytes outside the region. */
static void *local(uint32_t region, uint64_t offset, uint64_t len, const char *what)
{
    if (region < (uint32_t)am.a.n_regions && offset <= am.size[region] &&
        len <= am.size[region] - offset)
        return (char *)am.base[region] + offset;
    fprintf(stderr,
            "gshmem: PE %d: a peer's %s of %llu bytes at offset %llu of region %u is "
            "outside it; ignored\n",
            am.a.my_pe, what, (unsigned long long)len, (unsigned long long)offset, region);
    return NULL;
}

/* A message's header, copied into out when it has the size this build
 * sends for `what` (UCX hands it over at any alignment: over TCP it may sit
 * at an odd address, so it is never read in place); else a line on stderr
 * and 0, and the message is ignored. */
static int header_of(void *out, size_t size, const void *header, size_t header_length,
                     const char *what)
{
    if (header && header_length == size) {
        memcpy(out, header, size);
        return 1;
    }
    fprintf(stderr,
            "gshmem: PE %d: a peer's %s message has a header of %zu bytes, not %zu; ignored\n",
            am.a.my_pe, what, header_length, size);
    return 0;
}

static void free_sent(void *request, ucs_status_t status, void *user_data)
{
    (void)status;
    free(user_data);
    ucp_request_free(request);
}

/* Answers request id through reply_ep from inside a handler, where nothing
 * may wait: from data itself if UCX sends it at once, else from a copy
 * that is freed once it is sent. */
static void reply(ucp_ep_h reply_ep, uint64_t id, const void *data, size_t len)
{
    am_reply_hdr_t h = {.id = id};
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS |
                                             UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL,
                             .flags = UCP_AM_SEND_FLAG_EAGER};
    ucs_status_ptr_t req = ucp_am_send_nbx(reply_ep, AM_REPLY, &h, sizeof(h), data, len, &p);
    char *copy;

    if (req == NULL)
        return;
    if (UCS_PTR_STATUS(req) == UCS_ERR_NO_RESOURCE && (copy = malloc(sizeof(h) + len)) != NULL) {
        memcpy(copy, &h, sizeof(h));
        memcpy(copy + sizeof(h), data, len);
        p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK |
                         UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.send = free_sent;
        p.user_data = copy;
        req = ucp_am_send_nbx(reply_ep, AM_REPLY, copy, sizeof(h), copy + sizeof(h), len, &p);
        if (!UCS_PTR_IS_PTR(req))
            free(copy);
        if (!UCS_PTR_IS_ERR(req))
            return;
    }
    fprintf(stderr, "gshmem: PE %d: cannot answer a peer's request: %s\n", am.a.my_pe,
            ucs_status_string(UCS_PTR_STATUS(req)));
}

static ucp_ep_h reply_ep_of(const ucp_am_recv_param_t *param)
{
    return (param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) ? param->reply_ep : NULL;
}

/* Into a peer's segment: the P2P path's copy (base/copy.h), since glibc's
 * memcpy into another process's shared mapping is the slow case it avoids
 * (the direct put over UCX's posix mapping ran at 0.75-0.94x OSHMEM's from
 * 16 KiB to 4 MiB with memcpy here). */
void gst_ucx_store(void *at, const void *data, size_t len)
{
    /* data may be at any alignment (a message's payload): read by memcpy. */
    if (len == 8 && ((uintptr_t)at & 7) == 0) {
        uint64_t v;

        memcpy(&v, data, sizeof(v));
        __atomic_store_n((uint64_t *)at, v, __ATOMIC_RELAXED);
    } else if (len == 4 && ((uintptr_t)at & 3) == 0) {
        uint32_t v;

        memcpy(&v, data, sizeof(v));
        __atomic_store_n((uint32_t *)at, v, __ATOMIC_RELAXED);
    } else {
        gsi_copy(at, data, len);
    }
}

static ucs_status_t on_put(void *arg, const void *header, size_t header_length, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    am_put_hdr_t h;
    void *at;

    (void)arg, (void)param;
    if (!header_of(&h, sizeof(h), header, header_length, "put"))
        return UCS_OK;
    at = local(h.region, h.offset, length, "put");
    if (at)
        gst_ucx_store(at, data, length);
    /* Whoever reads these bytes next, on any thread, sees them before any
     * later message's. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return UCS_OK;
}

static ucs_status_t on_get(void *arg, const void *header, size_t header_length, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    am_get_hdr_t h;
    const void *at;
    static const char zeros[GST_UCX_AM_MAX];

    (void)arg, (void)data, (void)length;
    if (!header_of(&h, sizeof(h), header, header_length, "get"))
        return UCS_OK;
    at = local(h.region, h.offset, h.len, "get");
    if (reply_ep_of(param))
        reply(param->reply_ep, h.id, at ? at : zeros, at || h.len <= sizeof(zeros) ? h.len : 0);
    return UCS_OK;
}

/* One atomic of type T at `at` (see gst_ucx_amo_apply). */
#define AMO_APPLY(T, at, op, v, c)                                                           \
    do {                                                                                     \
        T *p_ = (T *)(at), v_ = (T)(v), c_ = (T)(c);                                         \
        switch (op) {                                                                        \
        case GST_AMO_FETCH: return __atomic_load_n(p_, __ATOMIC_SEQ_CST);                    \
        case GST_AMO_SET: __atomic_store_n(p_, v_, __ATOMIC_SEQ_CST); return 0;              \
        case GST_AMO_SWAP: return __atomic_exchange_n(p_, v_, __ATOMIC_SEQ_CST);             \
        case GST_AMO_CSWAP:                                                                  \
            __atomic_compare_exchange_n(p_, &c_, v_, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
            return c_;                                                                       \
        case GST_AMO_FADD: return __atomic_fetch_add(p_, v_, __ATOMIC_SEQ_CST);              \
        case GST_AMO_FAND: return __atomic_fetch_and(p_, v_, __ATOMIC_SEQ_CST);              \
        case GST_AMO_FOR: return __atomic_fetch_or(p_, v_, __ATOMIC_SEQ_CST);                \
        case GST_AMO_FXOR: return __atomic_fetch_xor(p_, v_, __ATOMIC_SEQ_CST);              \
        default: return 0;                                                                   \
        }                                                                                    \
    } while (0)

uint64_t gst_ucx_amo_apply(void *at, unsigned op, unsigned size, uint64_t v, uint64_t c)
{
    if (size == 4)
        AMO_APPLY(uint32_t, at, op, v, c);
    AMO_APPLY(uint64_t, at, op, v, c);
}

#undef AMO_APPLY

static ucs_status_t on_amo(void *arg, const void *header, size_t header_length, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    am_amo_hdr_t h;
    void *at;
    uint64_t old = 0;
    unsigned char bytes[8];

    (void)arg, (void)data, (void)length;
    if (!header_of(&h, sizeof(h), header, header_length, "atomic"))
        return UCS_OK;
    at = (h.size == 4 || h.size == 8) ? local(h.region, h.offset, h.size, "atomic") : NULL;
    if (at && ((uintptr_t)at & (h.size - 1)) == 0)
        old = gst_ucx_amo_apply(at, h.op, h.size, h.operand, h.compare);
    if (h.reply && reply_ep_of(param)) {
        /* A size this build never sends answers 8 bytes: reply() reads
         * h.size bytes of `bytes`. */
        if (h.size != 4)
            h.size = 8;
        gst_ucx_bits_to(bytes, old, h.size);
        reply(param->reply_ep, h.id, bytes, h.size);
    }
    return UCS_OK;
}

/* Every message this peer sent before it has been applied: handlers run in
 * arrival order. */
static ucs_status_t on_flush(void *arg, const void *header, size_t header_length, void *data,
                             size_t length, const ucp_am_recv_param_t *param)
{
    am_flush_hdr_t h;

    (void)arg, (void)data, (void)length;
    if (!header_of(&h, sizeof(h), header, header_length, "flush"))
        return UCS_OK;
    if (reply_ep_of(param))
        reply(param->reply_ep, h.id, NULL, 0);
    return UCS_OK;
}

/* A peer's packed puts and atomics, applied in the order it issued them. */
static ucs_status_t on_batch(void *arg, const void *header, size_t header_length, void *data,
                             size_t length, const ucp_am_recv_param_t *param)
{
    const char *p = data, *end = p + length;
    am_batch_hdr_t h;
    am_rec_t r;

    (void)arg, (void)param;
    if (!header_of(&h, sizeof(h), header, header_length, "batch"))
        return UCS_OK;
    while ((size_t)(end - p) >= sizeof(r)) {
        void *at;
        uint64_t operand;

        memcpy(&r, p, sizeof(r));
        p += sizeof(r);
        if (r.kind == REC_PUT) {
            if (REC_PAD(r.len) > (size_t)(end - p))
                break;
            at = local(r.region, r.offset, r.len, "put");
            if (at)
                gst_ucx_store(at, p, r.len);
            p += REC_PAD(r.len);
            continue;
        }
        if ((size_t)(end - p) < sizeof(operand))
            break;
        memcpy(&operand, p, sizeof(operand));
        p += sizeof(operand);
        at = (r.len == 4 || r.len == 8) ? local(r.region, r.offset, r.len, "atomic") : NULL;
        if (at && ((uintptr_t)at & (r.len - 1)) == 0)
            (void)gst_ucx_amo_apply(at, r.op, r.len, operand, 0);
    }
    if (p != end)
        fprintf(stderr, "gshmem: PE %d: a peer's batch of %zu bytes is malformed; rest ignored\n",
                am.a.my_pe, length);
    /* As on_put: these bytes before any later message's. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return UCS_OK;
}

/* ---- initiator side --------------------------------------------------------- */

static ucs_status_t on_reply(void *arg, const void *header, size_t header_length, void *data,
                             size_t length, const ucp_am_recv_param_t *param)
{
    am_reply_hdr_t h;

    (void)arg, (void)param;
    if (!header_of(&h, sizeof(h), header, header_length, "reply"))
        return UCS_OK;
    if (h.id != am.id || am.remaining == 0)
        return UCS_OK;
    if (am.dst)
        memcpy(am.dst, data, length < am.len ? length : am.len);
    if (--am.remaining == 0)
        am.done = 1;
    return UCS_OK;
}

/* The next call's wait: `replies` answers, the data of the first into dst. */
static uint64_t expect(void *dst, size_t len, int replies)
{
    am.id++;
    am.dst = dst;
    am.len = len;
    am.remaining = replies;
    am.done = replies == 0;
    return am.id;
}

static void mark_unflushed(int pe)
{
    am.unflushed[pe] = 1;
    am.any_unflushed = 1;
}

static void batch_sent(void *request, ucs_status_t status, void *user_data)
{
    am_batch_t *b = user_data;

    /* The puts are lost: the next flush (quiet, fence's completion) fails,
     * and its caller ends the job, rather than let the program read data
     * that never arrived. */
    if (status != UCS_OK) {
        fprintf(stderr, "gshmem: PE %d: sending a batch of puts to PE %d failed: %s\n", am.a.my_pe,
                b->pe, ucs_status_string(status));
        __atomic_store_n(&am.batch_failed, 1, __ATOMIC_RELAXED);
    }
    b->free = 1;
    ucp_request_free(request);
}

/* Sends the batch being filled, if any, without waiting for it to leave:
 * its buffer is free again when UCX is done with it (batch_sent). */
static gsi_status_t batch_post(void)
{
    am_batch_t *b = am.batch ? &am.batch[am.cur] : NULL;
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA,
        .flags = UCP_AM_SEND_FLAG_EAGER,
        .cb.send = batch_sent,
        .user_data = b,
    };
    ucs_status_ptr_t req;

    if (!b || !b->used)
        return GSI_OK;
    b->free = 0;
    req = ucp_am_send_nbx(am.a.ep[b->pe], AM_BATCH, &b->h, sizeof(b->h), b->data, b->used, &p);
    b->used = 0;
    am.cur = (am.cur + 1) % N_BATCH;
    __atomic_store_n(&am.held, 0, __ATOMIC_RELAXED);
    if (UCS_PTR_IS_PTR(req))
        return GSI_OK; /* batch_sent frees it */
    b->free = 1;
    return UCS_PTR_IS_ERR(req) ? GSI_ERR_SYSTEM : GSI_OK;
}

/* Room for `need` more bytes of records to pe in the current batch: sends
 * the current one first if it is for another peer or full, and waits for
 * the next buffer if its last send is still in flight. */
static gsi_status_t batch_room(int pe, size_t need, am_batch_t **out)
{
    am_batch_t *b = &am.batch[am.cur];
    gsi_status_t status = GSI_OK;

    if (pe < 0 || pe >= am.a.n_pes || !am.a.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    if (b->used && (b->pe != pe || b->used + need > sizeof(b->data))) {
        status = batch_post();
        b = &am.batch[am.cur];
    }
    if (!b->used) {
        gst_ucx_wait_done(&b->free);
        b->pe = pe;
        b->h.records = 0;
    }
    mark_unflushed(pe);
    __atomic_store_n(&am.held, 1, __ATOMIC_RELAXED);
    *out = b;
    return status;
}

/* Sends one message and returns once header and data may be reused;
 * `answered`: the target gets an endpoint to reply through.  What the _nbi
 * calls packed goes first, so one peer's messages keep their order. */
static gsi_status_t send_am(int pe, unsigned id, const void *header, size_t header_length,
                            const void *data, size_t length, int answered)
{
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
        .flags = UCP_AM_SEND_FLAG_EAGER | (answered ? UCP_AM_SEND_FLAG_REPLY : 0),
    };
    gsi_status_t status;

    if (pe < 0 || pe >= am.a.n_pes || !am.a.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    status = batch_post();
    if (status != GSI_OK)
        return status;
    return gst_ucx_wait_request(
        ucp_am_send_nbx(am.a.ep[pe], id, header, header_length, data, length, &p));
}

gsi_status_t gst_ucx_am_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    am_put_hdr_t h = {.offset = offset, .region = (uint32_t)region};

    if (len > GST_UCX_AM_MAX)
        return GSI_ERR_INVALID;
    mark_unflushed(pe);
    return send_am(pe, AM_PUT, &h, sizeof(h), src, len, 0);
}

gsi_status_t gst_ucx_am_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    am_get_hdr_t h = {.offset = offset, .len = len, .region = (uint32_t)region};
    gsi_status_t status;

    if (len > GST_UCX_AM_MAX)
        return GSI_ERR_INVALID;
    h.id = expect(dst, len, 1);
    status = send_am(pe, AM_GET, &h, sizeof(h), NULL, 0, 1);
    if (status == GSI_OK)
        gst_ucx_wait_done(&am.done);
    return status;
}

gsi_status_t gst_ucx_am_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched)
{
    am_amo_hdr_t h = {.offset = offset,
                      .operand = gst_ucx_bits_of(operand, size),
                      .compare = gst_ucx_bits_of(compare, size),
                      .region = (uint32_t)region,
                      .op = (uint8_t)op,
                      .size = (uint8_t)size,
                      .reply = fetched != NULL};
    gsi_status_t status;

    if (size != 4 && size != 8)
        return GSI_ERR_UNSUPPORTED;
    if (!fetched) {
        mark_unflushed(pe);
        return send_am(pe, AM_AMO, &h, sizeof(h), NULL, 0, 0);
    }
    h.id = expect(fetched, size, 1);
    status = send_am(pe, AM_AMO, &h, sizeof(h), NULL, 0, 1);
    if (status == GSI_OK)
        gst_ucx_wait_done(&am.done);
    return status;
}

gsi_status_t gst_ucx_am_put_nbi(int pe, int region, size_t offset, const void *src, size_t len)
{
    am_rec_t r = {.offset = offset,
                  .len = (uint32_t)len,
                  .region = (uint8_t)region,
                  .kind = REC_PUT};
    am_batch_t *b;
    gsi_status_t status;

    if (len > GST_UCX_AM_PACK_MAX)
        return gst_ucx_am_put(pe, region, offset, src, len);
    status = batch_room(pe, sizeof(r) + REC_PAD(len), &b);
    if (status != GSI_OK)
        return status;
    memcpy((char *)b->data + b->used, &r, sizeof(r));
    memcpy((char *)b->data + b->used + sizeof(r), src, len);
    b->used += sizeof(r) + REC_PAD(len);
    b->h.records++;
    return GSI_OK;
}

gsi_status_t gst_ucx_am_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                                uint64_t operand)
{
    am_rec_t r = {.offset = offset,
                  .len = (uint32_t)size,
                  .region = (uint8_t)region,
                  .kind = REC_AMO,
                  .op = (uint8_t)op};
    am_batch_t *b;
    gsi_status_t status;

    if (size != 4 && size != 8)
        return GSI_ERR_UNSUPPORTED;
    status = batch_room(pe, sizeof(r) + sizeof(operand), &b);
    if (status != GSI_OK)
        return status;
    memcpy((char *)b->data + b->used, &r, sizeof(r));
    memcpy((char *)b->data + b->used + sizeof(r), &operand, sizeof(operand));
    b->used += sizeof(r) + sizeof(operand);
    b->h.records++;
    return GSI_OK;
}

gsi_status_t gst_ucx_am_post(void)
{
    return batch_post();
}

int gst_ucx_am_holding(void)
{
    return __atomic_load_n(&am.held, __ATOMIC_RELAXED);
}

int gst_ucx_am_unflushed(int pe)
{
    return pe < 0 ? am.any_unflushed : am.unflushed && am.unflushed[pe];
}

gsi_status_t gst_ucx_am_flush(int pe)
{
    am_flush_hdr_t h;
    gsi_status_t status = GSI_OK;
    int n = 0;

    if (__atomic_load_n(&am.batch_failed, __ATOMIC_RELAXED))
        return GSI_ERR_SYSTEM;
    if (!gst_ucx_am_unflushed(pe))
        return GSI_OK;
    for (int p = 0; p < am.a.n_pes; p++)
        n += am.unflushed[p] && (pe < 0 || p == pe);
    h.id = expect(NULL, 0, n);
    for (int p = 0; p < am.a.n_pes; p++) {
        if (!am.unflushed[p] || (pe >= 0 && p != pe))
            continue;
        am.unflushed[p] = 0;
        if (send_am(p, AM_FLUSH, &h, sizeof(h), NULL, 0, 1) != GSI_OK) {
            status = GSI_ERR_SYSTEM;
            am.remaining--;
        }
    }
    if (am.remaining)
        gst_ucx_wait_done(&am.done);
    am.any_unflushed = 0;
    for (int p = 0; p < am.a.n_pes; p++)
        am.any_unflushed |= am.unflushed[p];
    return status;
}

/* ---- setup ------------------------------------------------------------------ */

int gst_ucx_am_wanted(ucp_ep_h ep)
{
    char *info = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&info, &len);
    int wanted = 0;

    if (!f)
        return 0;
    ucp_ep_print_info(ep, f);
    fclose(f);
    /* UCX lists each RMA lane's put and get protocols ("put[0]: ...") and
     * marks lanes it uses for RMA ("rma#0"); with neither, it emulates
     * RMA over its active-message lane. */
    wanted = info && strstr(info, "lane[") && !strstr(info, "put[") && !strstr(info, " rma#");
    free(info);
    return wanted;
}

gsi_status_t gst_ucx_am_init(const gst_ucx_am_args_t *args, char *err, size_t errlen)
{
    static const ucp_am_recv_callback_t handlers[AM_COUNT] = {
        [AM_PUT] = on_put,     [AM_GET] = on_get,     [AM_AMO] = on_amo,
        [AM_FLUSH] = on_flush, [AM_REPLY] = on_reply, [AM_BATCH] = on_batch,
    };

    memset(&am, 0, sizeof(am));
    if (args->n_regions > GST_MAX_REGIONS) {
        snprintf(err, errlen, "%d regions, at most %d", args->n_regions, GST_MAX_REGIONS);
        return GSI_ERR_INVALID;
    }
    am.a = *args;
    memcpy(am.base, args->base, (size_t)args->n_regions * sizeof(*am.base));
    memcpy(am.size, args->size, (size_t)args->n_regions * sizeof(*am.size));
    am.a.base = am.base;
    am.a.size = am.size;
    am.unflushed = calloc((size_t)args->n_pes, 1);
    am.batch = calloc(N_BATCH, sizeof(*am.batch));
    if (!am.unflushed || !am.batch) {
        snprintf(err, errlen, "out of memory for %d PEs", args->n_pes);
        gst_ucx_am_finalize();
        return GSI_ERR_NOMEM;
    }
    for (int i = 0; i < N_BATCH; i++)
        am.batch[i].free = 1;
    for (unsigned id = 0; id < AM_COUNT; id++) {
        ucp_am_handler_param_t hp = {
            .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                          UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
            .id = id,
            .cb = handlers[id],
            .flags = UCP_AM_FLAG_WHOLE_MSG,
        };
        ucs_status_t status = ucp_worker_set_am_recv_handler(args->worker, &hp);

        if (status != UCS_OK) {
            snprintf(err, errlen, "UCX ucp_worker_set_am_recv_handler: %s",
                     ucs_status_string(status));
            gst_ucx_am_finalize();
            return GSI_ERR_SYSTEM;
        }
    }
    return GSI_OK;
}

void gst_ucx_am_finalize(void)
{
    free(am.batch);
    free(am.unflushed);
    memset(&am, 0, sizeof(am));
}

#endif /* GSHMEM_HAVE_UCX */
