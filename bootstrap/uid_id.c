/* bootstrap/uid_id.c - the unique id: its 128 bytes, a new id with rank
 * 0's listening socket behind it, and the id of the environment mode
 * (GSHMEM_UID=<ip>:<port>:<secret>). */
#define _GNU_SOURCE
#include "uid_int.h"

#include "crypto/sha256.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

gsb_uid_pending_t gsb_uid_pending = {.fd = -1};

/* The id's layout, big-endian: magic, version, family, address, port,
 * secret; the last 8 bytes are an FNV-1a checksum of the rest. */
#define UID_MAGIC 0x4753555au /* "GSUZ" */
#define UID_VERSION 1
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 4,
    OFF_FAMILY = 6,
    OFF_ADDR = 8,
    OFF_PORT = 12,
    OFF_SECRET = 16,
    OFF_SUM = GSB_UID_BYTES - 8,
};
_Static_assert(OFF_SECRET + GSB_UID_SECRET <= OFF_SUM, "the id's fields fit");

static void put_be(unsigned char *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint64_t get_be(const unsigned char *p, int n)
{
    uint64_t v = 0;

    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;

    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

void gsb_uid_encode(const gsb_uid_body_t *body, gsb_uid_t *out)
{
    unsigned char *p = out->bytes;

    memset(p, 0, GSB_UID_BYTES);
    put_be(p + OFF_MAGIC, UID_MAGIC, 4);
    put_be(p + OFF_VERSION, UID_VERSION, 2);
    put_be(p + OFF_FAMILY, AF_INET, 2);
    memcpy(p + OFF_ADDR, &body->addr.s_addr, 4); /* already network order */
    put_be(p + OFF_PORT, body->port, 2);
    memcpy(p + OFF_SECRET, body->secret, GSB_UID_SECRET);
    put_be(p + OFF_SUM, checksum(p, OFF_SUM), 8);
}

int gsb_uid_decode(const gsb_uid_t *uid, gsb_uid_body_t *out)
{
    const unsigned char *p = uid->bytes;
    gsb_uid_body_t body;

    if (get_be(p + OFF_MAGIC, 4) != UID_MAGIC) {
        gsb_set_error("the unique id is not one (its first bytes are wrong): pass the %d bytes "
                      "that gshmemx_get_uniqueid wrote, unchanged",
                      GSB_UID_BYTES);
        return -EINVAL;
    }
    if (get_be(p + OFF_VERSION, 2) != UID_VERSION) {
        gsb_set_error("the unique id has version %u, this library reads version %d (mixed "
                      "gshmem versions?)",
                      (unsigned)get_be(p + OFF_VERSION, 2), UID_VERSION);
        return -EINVAL;
    }
    if (get_be(p + OFF_SUM, 8) != checksum(p, OFF_SUM) || get_be(p + OFF_FAMILY, 2) != AF_INET) {
        gsb_set_error("the unique id is corrupt (checksum mismatch): pass the %d bytes that "
                      "gshmemx_get_uniqueid wrote, unchanged",
                      GSB_UID_BYTES);
        return -EINVAL;
    }
    memcpy(&body.addr.s_addr, p + OFF_ADDR, 4);
    body.port = (uint16_t)get_be(p + OFF_PORT, 2);
    memcpy(body.secret, p + OFF_SECRET, GSB_UID_SECRET);
    *out = body;
    return 0;
}

const char *gsb_uid_where(const gsb_uid_body_t *body, char *buf, size_t len)
{
    char ip[INET_ADDRSTRLEN] = "?";

    inet_ntop(AF_INET, &body->addr, ip, sizeof(ip));
    snprintf(buf, len, "%s:%u", ip, (unsigned)body->port);
    return buf;
}

int gsb_uid_create(const char *ifname, gsb_uid_t *out)
{
    gsb_uid_body_t body;
    uint16_t port;
    int fd, rc;

    rc = gsb_sock_pick_addr(ifname, &body.addr);
    if (rc)
        return rc;
    /* The secret of the job: whoever holds the id may join it. */
    rc = gsb_auth_random(body.secret, sizeof(body.secret));
    if (rc)
        return rc;
    rc = gsb_sock_listen(body.addr, 0, &fd, &port);
    if (rc)
        return rc;
    body.port = port;
    if (gsb_uid_pending.fd >= 0)
        close(gsb_uid_pending.fd); /* a newer id replaces it */
    gsb_uid_pending.fd = fd;
    gsb_uid_pending.id = body;
    gsb_uid_encode(&body, out);
    return 0;
}

int gsb_uid_check(const gsb_uid_t *uid)
{
    gsb_uid_body_t body;

    return gsb_uid_decode(uid, &body);
}

/* "<ip>:<port>:<secret>" into body.  The messages quote the address, never
 * the secret. */
static int parse_uid_text(const char *text, gsb_uid_body_t *body)
{
    const char *c1 = strchr(text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    int shown = (int)(c2 ? (size_t)(c2 - text) : strlen(text));
    char host[64], *end;
    unsigned long port;

    if (!c1 || (size_t)(c1 - text) >= sizeof(host)) {
        gsb_set_error("GSHMEM_UID=\"%.*s%s\" is not <IPv4 address>:<port>:<secret>", shown, text,
                      c2 ? ":<secret>" : "");
        return -EINVAL;
    }
    memcpy(host, text, (size_t)(c1 - text));
    host[c1 - text] = '\0';
    errno = 0;
    port = strtoul(c1 + 1, &end, 10);
    if (inet_pton(AF_INET, host, &body->addr) != 1 || end == c1 + 1 || (*end && *end != ':') ||
        errno || port < 1 || port > 65535) {
        gsb_set_error("GSHMEM_UID=\"%.*s%s\" is not <IPv4 address>:<port>:<secret> with a port "
                      "from 1 to 65535",
                      shown, text, c2 ? ":<secret>" : "");
        return -EINVAL;
    }
    body->port = (uint16_t)port;
    /* Without a secret anyone who reaches the port could join the job, or
     * pose as its rank 0: refused, not defaulted. */
    if (!c2 || !c2[1]) {
        gsb_set_error("GSHMEM_UID=\"%.*s\" has no secret: GSHMEM_BOOTSTRAP=uid needs "
                      "GSHMEM_UID=<ip>:<port>:<secret>, with %d hex digits that only the "
                      "job's processes know (tests/uid/uidrun makes them)",
                      shown, text, 2 * GSB_UID_SECRET);
        return -EINVAL;
    }
    return gsb_auth_parse_secret(c2 + 1, body->secret);
}

int gsb_uid_args_from_env(const char *text, long long rank, long long size, long long timeout_s,
                          gsb_uid_args_t *out)
{
    gsb_uid_body_t body = {0};
    int rc;

    if (!text || !*text || !strcmp(text, "none")) {
        gsb_set_error("GSHMEM_BOOTSTRAP=uid needs GSHMEM_UID=<ip>:<port>:<secret> (rank 0 "
                      "listens there; the secret is %d hex digits only the job's processes "
                      "know), GSHMEM_UID_RANK and GSHMEM_UID_SIZE",
                      2 * GSB_UID_SECRET);
        return -EINVAL;
    }
    rc = parse_uid_text(text, &body);
    if (rc)
        goto err_wipe;
    rc = -EINVAL;
    if (size < 1) {
        gsb_set_error("GSHMEM_BOOTSTRAP=uid needs GSHMEM_UID_SIZE, the number of processes");
        goto err_wipe;
    }
    if (rank < 0 || rank >= size) {
        if (rank == -1)
            gsb_set_error("GSHMEM_BOOTSTRAP=uid needs GSHMEM_UID_RANK, this process's rank "
                          "from 0 to %lld",
                          size - 1);
        else
            gsb_set_error("GSHMEM_UID_RANK=%lld is out of range for GSHMEM_UID_SIZE=%lld "
                          "(0 to %lld)",
                          rank, size, size - 1);
        goto err_wipe;
    }
    /* Every process builds the same id from the same text. */
    out->rank = (int)rank;
    out->size = (int)size;
    out->timeout_s = (int)timeout_s;
    gsb_uid_encode(&body, &out->uid);
    gsc_wipe(&body, sizeof(body));
    return 0;

err_wipe:
    gsc_wipe(&body, sizeof(body));
    return rc;
}
