/*
 * libs/kv/kv_listen.c - gshmem_kv_listen and gshmem_kv_connect: the blob
 * of kv_net.c, exchanged over TCP between processes that prove they know
 * the same secret.
 *
 * The handshake (after the connection):
 *   listener -> client   "GSKVLSN1", nonce_l (32 random bytes)
 *   client -> listener   nonce_c, HMAC(secret, "gshmem-kv connect" nonce_l nonce_c)
 *   listener -> client   verdict (u32: 0 ok, 1 refused), and when ok
 *                        the blob's length (u32), the blob, and
 *                        HMAC(secret, "gshmem-kv listen" nonce_c nonce_l blob)
 * Each side checks the other's MAC (compared in constant time) before it
 * trusts anything: the secret never crosses the wire, a recorded exchange
 * does not replay (fresh nonces each way), the labels keep one side's MAC
 * from serving as the other's, and the blob cannot be changed on the way.
 * The client then adds the blob as gshmem_kv_peer_add would.
 *
 * The listener is a thread of the engine that serves one connection at a
 * time, each message within KV_IO_MS: a client that stalls delays the next
 * by that much at most.  It builds the blob under the engine's lock (the
 * layouts registered at that moment) and does its socket I/O without it.
 */
#define _GNU_SOURCE /* accept4, pipe2 */
#include "kv_impl.h"

#include "crypto/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define KV_LISTEN_MAGIC 0x314e534c564b5347ull /* "GSKVLSN1" */
#define KV_NONCE 32
#define KV_MIN_SECRET 16
#define KV_IO_MS 5000           /* the listener's bound on each message */
#define KV_MAX_BLOB (64u << 20) /* a longer blob is not one */
#define LABEL_CONNECT "gshmem-kv connect"
#define LABEL_LISTEN "gshmem-kv listen"

struct kv_listen {
    int fd, stop_pipe[2];
    pthread_t thread;
    char *secret;
    size_t secret_len;
    char where[256];
};

/* ---- sockets ------------------------------------------------------------------- */

/* All n bytes, each wait bounded by the deadline (ns, kv_now_ns): 0, or
 * ETIMEDOUT, or the errno (EPIPE when the other side closed). */
static int io_all(int fd, void *buf, size_t n, int write_it, uint64_t deadline)
{
    char *p = (char *)buf;

    while (n > 0) {
        struct pollfd pfd = {.fd = fd, .events = write_it ? POLLOUT : POLLIN};
        uint64_t now = kv_now_ns();
        ssize_t got;
        int r;

        if (now >= deadline)
            return ETIMEDOUT;
        r = poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            return ETIMEDOUT;
        got = write_it ? send(fd, p, n, MSG_NOSIGNAL) : recv(fd, p, n, 0);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got < 0)
            return errno;
        if (got == 0)
            return EPIPE;
        p += got, n -= (size_t)got;
    }
    return 0;
}

/* "host:port" (host may be empty, or "[v6]"): its parts, in host (cap
 * bytes) and port; 0, or -1 when there is no ":port". */
static int split(const char *address, char *host, size_t cap, char *port, size_t pcap)
{
    const char *colon = strrchr(address, ':');
    size_t hl;

    if (!colon || !colon[1] || strlen(colon + 1) >= pcap)
        return -1;
    hl = (size_t)(colon - address);
    if (hl >= 2 && address[0] == '[' && address[hl - 1] == ']')
        address++, hl -= 2;
    if (hl >= cap)
        return -1;
    memcpy(host, address, hl);
    host[hl] = '\0';
    strcpy(port, colon + 1);
    return 0;
}

static int random_bytes(void *p, size_t n)
{
    unsigned char *c = (unsigned char *)p;

    while (n > 0) {
        ssize_t got = getrandom(c, n, 0);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        c += got, n -= (size_t)got;
    }
    return 0;
}

static void mac_of(const char *secret, size_t slen, const char *label, const void *a, const void *b,
                   const void *blob, size_t blob_len, uint8_t out[GSC_SHA256_BYTES])
{
    gsc_hmac_t h;

    gsc_hmac_init(&h, secret, slen);
    gsc_hmac_update(&h, label, strlen(label));
    gsc_hmac_update(&h, a, KV_NONCE);
    gsc_hmac_update(&h, b, KV_NONCE);
    if (blob_len)
        gsc_hmac_update(&h, blob, blob_len);
    gsc_hmac_final(&h, out);
    gsc_wipe(&h, sizeof h);
}

static int check_secret(const char *secret, const char *fn)
{
    if (secret == NULL || strlen(secret) < KV_MIN_SECRET)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "the secret is %s: give at least %d characters (32 random bytes in hex "
                       "are a good one), the same on both sides",
                       secret ? "too short" : "NULL", KV_MIN_SECRET);
    return 0;
}

/* ---- the listener ------------------------------------------------------------- */

/* One connection: the handshake, then the blob.  Failures are lines here;
 * the client learns them as a refusal or a closed connection. */
static void serve_one(gshmem_kv_t *kv, struct kv_listen *ls, int fd)
{
    const char *fn = "gshmem_kv_listen";
    uint64_t magic = KV_LISTEN_MAGIC, deadline = kv_now_ns() + (uint64_t)KV_IO_MS * 1000000u;
    unsigned char nl[KV_NONCE], nc[KV_NONCE], mac[GSC_SHA256_BYTES], want[GSC_SHA256_BYTES];
    unsigned char *blob = NULL;
    uint32_t verdict = 1, blen;
    size_t len = 0;
    int e, rc;

    if (random_bytes(nl, sizeof nl) != 0) {
        kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "no random bytes for a challenge (getrandom failed)");
        return;
    }
    if ((e = io_all(fd, &magic, sizeof magic, 1, deadline)) != 0 ||
        (e = io_all(fd, nl, sizeof nl, 1, deadline)) != 0 ||
        (e = io_all(fd, nc, sizeof nc, 0, deadline)) != 0 ||
        (e = io_all(fd, mac, sizeof mac, 0, deadline)) != 0) {
        kv_fail(GSHMEM_KV_ERR_PEER, fn, "a connection to %s ended in its handshake: %s", ls->where,
                strerror(e));
        return;
    }
    mac_of(ls->secret, ls->secret_len, LABEL_CONNECT, nl, nc, NULL, 0, want);
    if (!gsc_equal_ct(mac, want, sizeof want)) {
        kv_fail(GSHMEM_KV_ERR_AUTH, fn, "refused a connection to %s: it does not know the secret",
                ls->where);
        io_all(fd, &verdict, sizeof verdict, 1, deadline);
        return;
    }
    pthread_mutex_lock(&kv->lock);
    rc = kv_net_blob(kv, &blob, &len, fn);
    pthread_mutex_unlock(&kv->lock);
    if (rc != 0 || len > KV_MAX_BLOB) {
        io_all(fd, &verdict, sizeof verdict, 1, deadline);
        free(blob);
        return;
    }
    verdict = 0, blen = (uint32_t)len;
    mac_of(ls->secret, ls->secret_len, LABEL_LISTEN, nc, nl, blob, len, mac);
    if ((e = io_all(fd, &verdict, sizeof verdict, 1, deadline)) != 0 ||
        (e = io_all(fd, &blen, sizeof blen, 1, deadline)) != 0 ||
        (e = io_all(fd, blob, len, 1, deadline)) != 0 ||
        (e = io_all(fd, mac, sizeof mac, 1, deadline)) != 0)
        kv_fail(GSHMEM_KV_ERR_PEER, fn, "a connection to %s ended before its blob was sent: %s",
                ls->where, strerror(e));
    free(blob);
}

static void *listen_thread(void *arg)
{
    gshmem_kv_t *kv = (gshmem_kv_t *)arg;
    struct kv_listen *ls = kv->listen;
    struct pollfd pfd[2] = {{.fd = ls->fd, .events = POLLIN},
                            {.fd = ls->stop_pipe[0], .events = POLLIN}};

    for (;;) {
        int fd;

        if (poll(pfd, 2, -1) < 0 && errno != EINTR)
            break;
        if (pfd[1].revents)
            break; /* destroy */
        if (!(pfd[0].revents & POLLIN))
            continue;
        fd = accept4(ls->fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        serve_one(kv, ls, fd);
        close(fd);
    }
    return NULL;
}

/* The socket bound to address, listening; -1 and a line. */
static int bind_listen(const char *address, char *where, size_t wcap, const char *fn)
{
    char host[256], port[32];
    struct addrinfo hints = {0}, *ai = NULL;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = -1, one = 1, e;

    if (address == NULL || !*address)
        address = ":0";
    if (split(address, host, sizeof host, port, sizeof port) != 0) {
        kv_fail(GSHMEM_KV_ERR_INVALID, fn, "address \"%s\" is not host:port (host may be empty)",
                address);
        return -1;
    }
    hints.ai_family = AF_UNSPEC, hints.ai_socktype = SOCK_STREAM, hints.ai_flags = AI_PASSIVE;
    if ((e = getaddrinfo(*host ? host : NULL, port, &hints, &ai)) != 0) {
        kv_fail(GSHMEM_KV_ERR_INVALID, fn, "address \"%s\": %s", address, gai_strerror(e));
        return -1;
    }
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
        kv_fail(GSHMEM_KV_ERR_INVALID, fn, "cannot listen at \"%s\": %s", address, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    if (!*host && gethostname(host, sizeof host) != 0)
        strcpy(host, "localhost");
    host[sizeof host - 1] = '\0';
    snprintf(where, wcap, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host,
             ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                      : ntohs(((struct sockaddr_in *)&ss)->sin_port));
    return fd;
}

int gshmem_kv_listen(gshmem_kv_t *kv, const char *address, const char *secret, char *bound,
                     size_t bound_len)
{
    const char *fn = "gshmem_kv_listen";
    struct kv_listen *ls;
    int rc, e;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((rc = check_secret(secret, fn)) != 0)
        goto out;
    if (kv->listen) {
        rc = kv_fail(GSHMEM_KV_ERR_STATE, fn, "the engine listens at %s already",
                     kv->listen->where);
        goto out;
    }
    ls = (struct kv_listen *)calloc(1, sizeof *ls);
    if (!ls || !(ls->secret = strdup(secret))) {
        free(ls);
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto out;
    }
    ls->secret_len = strlen(secret);
    ls->stop_pipe[0] = ls->stop_pipe[1] = -1;
    if ((ls->fd = bind_listen(address, ls->where, sizeof ls->where, fn)) < 0) {
        rc = GSHMEM_KV_ERR_INVALID;
        goto err_free;
    }
    if (bound && bound_len && strlen(ls->where) >= bound_len) {
        rc = kv_fail(GSHMEM_KV_ERR_RANGE, fn, "bound has room for %zu bytes; \"%s\" needs %zu",
                     bound_len, ls->where, strlen(ls->where) + 1);
        goto err_close;
    }
    if (pipe2(ls->stop_pipe, O_CLOEXEC) != 0) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "pipe: %s", strerror(errno));
        goto err_close;
    }
    kv->listen = ls;
    if ((e = pthread_create(&ls->thread, NULL, listen_thread, kv)) != 0) {
        kv->listen = NULL;
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "cannot start the listener thread: %s", strerror(e));
        goto err_close;
    }
    if (bound && bound_len)
        strcpy(bound, ls->where);
    goto out;

err_close:
    close(ls->fd);
    if (ls->stop_pipe[0] >= 0)
        close(ls->stop_pipe[0]), close(ls->stop_pipe[1]);
err_free:
    gsc_wipe(ls->secret, ls->secret_len);
    free(ls->secret), free(ls);
out:
    kv_leave(kv);
    return rc;
}

void kv_listen_stop(gshmem_kv_t *kv)
{
    struct kv_listen *ls = kv->listen;
    char b = 0;

    if (!ls)
        return;
    if (write(ls->stop_pipe[1], &b, 1) != 1)
        shutdown(ls->fd, SHUT_RDWR); /* poll then sees the socket end */
    pthread_join(ls->thread, NULL);
    close(ls->fd), close(ls->stop_pipe[0]), close(ls->stop_pipe[1]);
    gsc_wipe(ls->secret, ls->secret_len);
    free(ls->secret), free(ls);
    kv->listen = NULL;
}

/* ---- the client ---------------------------------------------------------------- */

/* A connected socket to address within the deadline; -1 with *rc set. */
static int dial(const char *address, uint64_t deadline, int *rc, const char *fn)
{
    char host[256], port[32];
    struct addrinfo hints = {0}, *ai = NULL, *a;
    int fd = -1, e, last = 0;

    if (address == NULL || split(address, host, sizeof host, port, sizeof port) != 0 || !*host) {
        *rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "address \"%s\" is not host:port",
                      address ? address : "(NULL)");
        return -1;
    }
    hints.ai_family = AF_UNSPEC, hints.ai_socktype = SOCK_STREAM;
    if ((e = getaddrinfo(host, port, &hints, &ai)) != 0) {
        *rc = kv_fail(GSHMEM_KV_ERR_PEER, fn, "address \"%s\": %s", address, gai_strerror(e));
        return -1;
    }
    for (a = ai; a && fd < 0; a = a->ai_next) {
        struct pollfd pfd;
        socklen_t sl = sizeof last;
        uint64_t now = kv_now_ns();

        fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) {
            last = errno;
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            last = errno;
            close(fd), fd = -1;
            continue;
        }
        pfd = (struct pollfd){.fd = fd, .events = POLLOUT};
        if (now >= deadline || poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1) != 1) {
            last = ETIMEDOUT;
            close(fd), fd = -1;
            continue;
        }
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &last, &sl) != 0 || last != 0) {
            close(fd), fd = -1;
            continue;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0)
        *rc = kv_fail(last == ETIMEDOUT ? GSHMEM_KV_ERR_TIMEOUT : GSHMEM_KV_ERR_PEER, fn,
                      "cannot connect to %s: %s", address, strerror(last));
    return fd;
}

/* The handshake as the client: the listener's blob (malloc'd) in *blob. */
static int handshake(int fd, const char *address, const char *secret, uint64_t deadline,
                     unsigned char **blob, size_t *len, const char *fn)
{
    unsigned char nl[KV_NONCE], nc[KV_NONCE], mac[GSC_SHA256_BYTES], want[GSC_SHA256_BYTES];
    uint64_t magic = 0;
    uint32_t verdict = 1, blen = 0;
    unsigned char *b;
    int e;

    if ((e = io_all(fd, &magic, sizeof magic, 0, deadline)) != 0 || magic != KV_LISTEN_MAGIC)
        return kv_fail(e == ETIMEDOUT ? GSHMEM_KV_ERR_TIMEOUT : GSHMEM_KV_ERR_PEER, fn,
                       "%s is not a gshmem_kv listener (%s)", address,
                       e ? strerror(e) : "it sent something else");
    if (random_bytes(nc, sizeof nc) != 0)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "no random bytes for a challenge");
    if ((e = io_all(fd, nl, sizeof nl, 0, deadline)) == 0) {
        mac_of(secret, strlen(secret), LABEL_CONNECT, nl, nc, NULL, 0, mac);
        if ((e = io_all(fd, nc, sizeof nc, 1, deadline)) == 0 &&
            (e = io_all(fd, mac, sizeof mac, 1, deadline)) == 0)
            e = io_all(fd, &verdict, sizeof verdict, 0, deadline);
    }
    if (e != 0)
        return kv_fail(e == ETIMEDOUT ? GSHMEM_KV_ERR_TIMEOUT : GSHMEM_KV_ERR_PEER, fn,
                       "the handshake with %s ended: %s", address, strerror(e));
    if (verdict != 0)
        return kv_fail(GSHMEM_KV_ERR_AUTH, fn,
                       "the listener at %s refused this process: not the same secret (or its "
                       "blob failed: see its line)",
                       address);
    if ((e = io_all(fd, &blen, sizeof blen, 0, deadline)) != 0 || blen == 0 || blen > KV_MAX_BLOB)
        return kv_fail(GSHMEM_KV_ERR_PEER, fn, "%s sent no blob (%s)", address,
                       e ? strerror(e) : "a length out of range");
    if (!(b = (unsigned char *)malloc(blen)))
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for a blob of %u bytes", blen);
    if ((e = io_all(fd, b, blen, 0, deadline)) != 0 ||
        (e = io_all(fd, mac, sizeof mac, 0, deadline)) != 0) {
        free(b);
        return kv_fail(GSHMEM_KV_ERR_PEER, fn, "%s: the blob did not arrive: %s", address,
                       strerror(e));
    }
    mac_of(secret, strlen(secret), LABEL_LISTEN, nc, nl, b, blen, want);
    if (!gsc_equal_ct(mac, want, sizeof want)) {
        free(b);
        return kv_fail(GSHMEM_KV_ERR_AUTH, fn,
                       "%s does not know the secret, or its blob was changed on the way", address);
    }
    *blob = b, *len = blen;
    return 0;
}

int gshmem_kv_connect(gshmem_kv_t *kv, const char *address, const char *secret, int64_t timeout_ms,
                      int *peer)
{
    const char *fn = "gshmem_kv_connect";
    unsigned char *blob = NULL;
    uint64_t deadline;
    size_t len = 0;
    int fd, rc = 0;

    /* Checked without the lock; the I/O runs without it too, so the
     * engine's other calls go on meanwhile. */
    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (timeout_ms == 0)
        timeout_ms = kv->cfg.default_timeout_ms;
    kv_leave(kv);
    if ((rc = check_secret(secret, fn)) != 0)
        return rc;
    if (peer == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "peer is NULL");
    if (timeout_ms < 0)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "timeout_ms %lld is negative",
                       (long long)timeout_ms);
    deadline = kv_now_ns() + (uint64_t)timeout_ms * 1000000u;
    if ((fd = dial(address, deadline, &rc, fn)) < 0)
        return rc;
    rc = handshake(fd, address, secret, deadline, &blob, &len, fn);
    close(fd);
    if (rc != 0)
        return rc;
    if (kv_enter(kv, fn) == NULL) {
        free(blob);
        return GSHMEM_KV_ERR_HANDLE; /* destroyed meanwhile */
    }
    rc = kv_net_add(kv, blob, len, peer, fn);
    kv_leave(kv);
    free(blob);
    return rc;
}
