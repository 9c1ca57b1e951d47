/* bootstrap/uid_auth.c - the job's secret and the MACs of the unique-id
 * bootstrap's handshake (uid_int.h describes the exchange).
 *
 * What a stranger on the network sees: a random challenge, a random of the
 * joiner's, and two MACs keyed by the secret.  The secret itself is never
 * sent, so whoever does not know it can neither join (its MAC is wrong)
 * nor pose as rank 0 (its proof is wrong). */
#define _GNU_SOURCE
#include "uid_int.h"

#include "crypto/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int gsb_auth_random(void *buf, size_t n)
{
    unsigned char *p = buf;
    int fd, err;

    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);

        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break; /* ENOSYS (old kernel, seccomp): try the device */
        p += got;
        n -= (size_t)got;
    }
    if (n == 0)
        return 0;
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        goto err_none;
    while (n > 0) {
        ssize_t got = read(fd, p, n);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        p += got;
        n -= (size_t)got;
    }
    close(fd);
    if (n == 0)
        return 0;

err_none:
    err = errno ? errno : EIO;
    gsb_set_error("no random bytes for the job's secret or challenge (getrandom and "
                  "/dev/urandom failed: %s)",
                  strerror(err));
    return -err;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int gsb_auth_parse_secret(const char *hex, uint8_t secret[GSB_UID_SECRET])
{
    size_t len = strlen(hex);

    /* The message names the rule but never the text: it is a key. */
    if (len != 2 * GSB_UID_SECRET) {
        gsb_set_error("GSHMEM_UID's secret (after <ip>:<port>:) has %zu characters; it must be "
                      "%d hex digits (%d random bytes: tests/uid/uidrun makes one, or "
                      "`od -An -N%d -tx1 /dev/urandom | tr -dc 0-9a-f`)",
                      len, 2 * GSB_UID_SECRET, GSB_UID_SECRET, GSB_UID_SECRET);
        return -EINVAL;
    }
    for (size_t i = 0; i < GSB_UID_SECRET; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            gsb_set_error("GSHMEM_UID's secret (after <ip>:<port>:) must be %d hex digits "
                          "(0-9, a-f); it has another character",
                          2 * GSB_UID_SECRET);
            gsc_wipe(secret, GSB_UID_SECRET);
            return -EINVAL;
        }
        secret[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

static void put_be32(unsigned char *p, int32_t v)
{
    uint32_t u = (uint32_t)v;

    p[0] = (unsigned char)(u >> 24);
    p[1] = (unsigned char)(u >> 16);
    p[2] = (unsigned char)(u >> 8);
    p[3] = (unsigned char)u;
}

/* HMAC-SHA256(secret, label || first || second || rank || size || pid || host).
 * Every field has a fixed length, so no two different inputs concatenate
 * to the same bytes; the integers are big-endian, so hosts of either byte
 * order agree.  `about` is the joiner (its rank and size), `speaker` the
 * one who signs (its pid and host). */
static void mac_of(const uint8_t *secret, const char label[4], const uint8_t *first,
                   const uint8_t *second, const gsb_hello_t *about, const gsb_hello_t *speaker,
                   uint8_t out[GSB_AUTH_MAC])
{
    unsigned char ints[12];
    gsc_hmac_t h;

    put_be32(ints, about->rank);
    put_be32(ints + 4, about->size);
    put_be32(ints + 8, speaker->pid);
    gsc_hmac_init(&h, secret, GSB_UID_SECRET);
    gsc_hmac_update(&h, label, 4);
    gsc_hmac_update(&h, first, GSB_AUTH_RAND);
    gsc_hmac_update(&h, second, GSB_AUTH_RAND);
    gsc_hmac_update(&h, ints, sizeof(ints));
    gsc_hmac_update(&h, speaker->host, GSB_HOST_MAX);
    gsc_hmac_final(&h, out);
}

void gsb_auth_join_mac(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                       gsb_hello_t *h)
{
    mac_of(secret, "join", challenge, h->rand, h, h, h->mac);
}

void gsb_auth_root_mac(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                       const gsb_hello_t *joiner, gsb_hello_t *root)
{
    mac_of(secret, "root", joiner->rand, challenge, joiner, root, root->mac);
}

int gsb_auth_join_ok(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                     const gsb_hello_t *h)
{
    uint8_t want[GSB_AUTH_MAC];
    int ok;

    mac_of(secret, "join", challenge, h->rand, h, h, want);
    ok = gsc_equal_ct(want, h->mac, sizeof(want));
    gsc_wipe(want, sizeof(want));
    return ok;
}

int gsb_auth_root_ok(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                     const gsb_hello_t *joiner, const gsb_hello_t *root)
{
    uint8_t want[GSB_AUTH_MAC];
    int ok;

    mac_of(secret, "root", joiner->rand, challenge, joiner, root, want);
    ok = gsc_equal_ct(want, root->mac, sizeof(want));
    gsc_wipe(want, sizeof(want));
    return ok;
}
