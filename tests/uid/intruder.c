/*
 * tests/uid/intruder.c - a stranger at the unique-id bootstrap's port: run by
 * tests/uid/security.sh as a second local user, who does not know the job's
 * secret.  It speaks the bytes of the protocol itself (no library), both the
 * current one (uid_int.h: rank 0 sends a challenge first) and the first one
 * (the joiner sent a hello with the job's nonce first, and the environment
 * mode's nonce was the constant "gshmem-env-uid"), so that the same program
 * attacks a library of either kind.
 *
 *   intruder claim HOST PORT RANK SIZE [DELAY_MS [HOLD_S]]
 *       connect as soon as the port opens, wait DELAY_MS, claim RANK of a
 *       SIZE-rank job with the best guess a stranger has (the old constant
 *       as nonce or key), and say whether rank 0 admitted it; then keep the
 *       connection HOLD_S seconds without a word (a fake rank that stalls).
 *   intruder truncated HOST PORT HOLD_S
 *       connect, send 10 bytes of a message header, and wait HOLD_S.
 *   intruder silent HOST PORT COUNT HOLD_S
 *       open COUNT connections that say nothing for HOLD_S seconds.
 *   intruder squat HOST PORT WAIT_S
 *       bind HOST:PORT before the job's rank 0 does, hold it WAIT_S
 *       seconds, and play rank 0 to every joiner: say whether it joined.
 *
 * Every line starts "intruder: MODE: ".  The exit status is 0 when the job
 * kept the intruder out, 3 when the intruder got in (admitted as a rank,
 * or a rank joined it), 2 when it could not even try (usage, no port).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bootstrap/uid_int.h"

/* The first protocol, which the library no longer speaks. */
enum { OLD_HELLO = 1, OLD_WELCOME = 2, OLD_REJECT = 3 };
#define OLD_MAGIC 0x67736875u /* "gshu" */
typedef struct old_hello {
    uint32_t magic;
    int32_t rank, size, pid;
    uint8_t nonce[16];
    char host[64];
} old_hello_t;
static const char guess[16] = "gshmem-env-uid"; /* the old constant nonce */

static const char *mode = "?";

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;

    printf("intruder: %s: ", mode);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct sockaddr_in addr_of(const char *host, const char *port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};

    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        fprintf(stderr, "intruder: %s is not an IPv4 address\n", host);
        exit(2);
    }
    return sa;
}

/* Connect as soon as someone listens there (for up to 20 s). */
static int connect_soon(const struct sockaddr_in *sa)
{
    long long until = now_ms() + 20000;

    for (;;) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);

        if (fd >= 0 && connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
            return fd;
        if (fd >= 0)
            close(fd);
        if (now_ms() > until) {
            say("nobody listened at port %u within 20 s", (unsigned)ntohs(sa->sin_port));
            exit(2);
        }
        usleep(5000);
    }
}

/* 1 when fd has something to read (or was closed) within ms. */
static int readable(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};

    return poll(&p, 1, ms) > 0;
}

/* len bytes within ms: 0, or -1 (closed, or too slow). */
static int read_all(int fd, void *buf, size_t len, int ms)
{
    long long until = now_ms() + ms;
    char *p = buf;

    while (len > 0) {
        long long left = until - now_ms();
        ssize_t n;

        if (left <= 0 || !readable(fd, (int)left))
            return -1;
        n = recv(fd, p, len, 0);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void send_msg(int fd, uint32_t type, int rank, const void *payload, size_t len)
{
    gsb_msg_t m = {.type = type, .rank = rank, .len = len};

    if (send(fd, &m, sizeof(m), MSG_NOSIGNAL) < 0 ||
        (len && send(fd, payload, len, MSG_NOSIGNAL) < 0))
        say("send: %s", strerror(errno));
}

static void random_bytes(void *buf, size_t len)
{
    FILE *f = fopen("/dev/urandom", "rb");

    if (!f || fread(buf, 1, len, f) != len) {
        fprintf(stderr, "intruder: cannot read /dev/urandom\n");
        exit(2);
    }
    fclose(f);
}

/* What rank 0 answered to a claim.  Returns 3 when it let the claim in. */
static int answer_to_claim(int fd, int rank)
{
    char text[512] = "";
    gsb_msg_t m;

    if (read_all(fd, &m, sizeof(m), 5000) != 0) {
        say("refused: rank 0 closed the connection (or said nothing for 5 s)");
        return 0;
    }
    if ((m.type == GSB_MSG_REJECT || m.type == OLD_REJECT) && m.len > 0 &&
        m.len < sizeof(text) && read_all(fd, text, m.len, 2000) == 0) {
        text[m.len] = '\0';
        say("refused: rank 0 said \"%s\"", text);
        return 0;
    }
    /* The old WELCOME, or a PROOF: rank 0 counted the claim as rank `rank`. */
    say("ADMITTED as rank %d: rank 0 answered with message type %u", rank, (unsigned)m.type);
    return 3;
}

static int claim(const struct sockaddr_in *sa, int rank, int size, int delay_ms, int hold_s)
{
    int fd = connect_soon(sa), status;
    gsb_challenge_t ch;
    gsb_msg_t m;

    say("connected; claiming rank %d of %d", rank, size);
    if (readable(fd, 500) && read_all(fd, &m, sizeof(m), 1000) == 0 &&
        m.type == GSB_MSG_CHALLENGE && m.len == sizeof(ch) &&
        read_all(fd, &ch, sizeof(ch), 1000) == 0) {
        /* The current protocol: answer the challenge with a MAC keyed by a
         * guess (the old constant), since the secret is unknown. */
        gsb_hello_t h = {.magic = GSB_WIRE_MAGIC,
                         .rank = rank,
                         .size = size,
                         .pid = (int32_t)getpid()};

        snprintf(h.host, sizeof(h.host), "intruder");
        random_bytes(h.rand, sizeof(h.rand));
        random_bytes(h.mac, sizeof(h.mac));
        memcpy(h.mac, guess, sizeof(guess));
        usleep((useconds_t)delay_ms * 1000);
        send_msg(fd, GSB_MSG_HELLO, rank, &h, sizeof(h));
        say("answered rank 0's challenge with a guessed MAC");
    } else {
        /* The first protocol: a hello with the old constant nonce. */
        old_hello_t h = {.magic = OLD_MAGIC,
                         .rank = rank,
                         .size = size,
                         .pid = (int32_t)getpid()};

        memcpy(h.nonce, guess, sizeof(guess));
        snprintf(h.host, sizeof(h.host), "intruder");
        usleep((useconds_t)delay_ms * 1000);
        send_msg(fd, OLD_HELLO, rank, &h, sizeof(h));
        say("rank 0 sent no challenge: sent the old hello with the constant nonce");
    }
    status = answer_to_claim(fd, rank);
    if (hold_s > 0) {
        /* Silent from now on, as a fake rank that never joins a collective. */
        readable(fd, hold_s * 1000);
    }
    close(fd);
    return status;
}

static int truncated(const struct sockaddr_in *sa, int hold_s)
{
    int fd = connect_soon(sa);
    gsb_msg_t m = {.type = GSB_MSG_HELLO, .len = sizeof(gsb_hello_t)};

    if (send(fd, &m, 10, MSG_NOSIGNAL) != 10)
        say("send: %s", strerror(errno));
    say("sent 10 bytes of a %zu-byte header; holding the connection %d s", sizeof(m), hold_s);
    /* Reads what rank 0 sends (its challenge) until it closes or the time is up. */
    for (long long until = now_ms() + hold_s * 1000LL; now_ms() < until;) {
        char junk[256];

        if (readable(fd, (int)(until - now_ms())) && recv(fd, junk, sizeof(junk), 0) <= 0) {
            say("rank 0 closed the connection");
            break;
        }
    }
    close(fd);
    return 0;
}

static int silent(const struct sockaddr_in *sa, int count, int hold_s)
{
    int fds[256];

    if (count > 256)
        count = 256;
    for (int i = 0; i < count; i++)
        fds[i] = connect_soon(sa);
    say("%d connections open, saying nothing for %d s", count, hold_s);
    sleep((unsigned)hold_s);
    for (int i = 0; i < count; i++)
        close(fds[i]);
    return 0;
}

/* Play rank 0 to one joiner.  3 when the joiner went on as if it had joined. */
static int play_root(int fd, int size)
{
    gsb_msg_t m;

    if (readable(fd, 500)) {
        /* The first protocol: the joiner speaks first.  Welcome it with the
         * old constant nonce, as a rank 0 of that job would. */
        old_hello_t h,
            mine = {.magic = OLD_MAGIC, .rank = 0, .size = size, .pid = (int32_t)getpid()};

        if (read_all(fd, &m, sizeof(m), 2000) != 0 || m.type != OLD_HELLO ||
            m.len != sizeof(h) || read_all(fd, &h, sizeof(h), 2000) != 0) {
            say("the joiner sent something unexpected");
            return 0;
        }
        memcpy(mine.nonce, guess, sizeof(guess));
        snprintf(mine.host, sizeof(mine.host), "intruder");
        send_msg(fd, OLD_WELCOME, 0, &mine, sizeof(mine));
        say("welcomed rank %d with the old constant nonce", h.rank);
    } else {
        gsb_challenge_t ch = {.magic = GSB_WIRE_MAGIC};
        gsb_hello_t h, mine = {.magic = GSB_WIRE_MAGIC, .rank = 0, .pid = (int32_t)getpid()};

        random_bytes(ch.rand, sizeof(ch.rand));
        send_msg(fd, GSB_MSG_CHALLENGE, 0, &ch, sizeof(ch));
        if (read_all(fd, &m, sizeof(m), 5000) != 0 || m.type != GSB_MSG_HELLO ||
            m.len != sizeof(h) || read_all(fd, &h, sizeof(h), 2000) != 0) {
            say("the joiner did not answer the challenge");
            return 0;
        }
        mine.size = h.size;
        snprintf(mine.host, sizeof(mine.host), "intruder");
        random_bytes(mine.mac, sizeof(mine.mac)); /* a proof it cannot make */
        send_msg(fd, GSB_MSG_PROOF, 0, &mine, sizeof(mine));
        send_msg(fd, GSB_MSG_WELCOME, 0, NULL, 0);
        say("rank %d answered the challenge; sent it a forged proof and a welcome", h.rank);
    }
    /* A rank that believed us goes on with the job: its first allgather. */
    if (read_all(fd, &m, sizeof(m), 5000) == 0) {
        say("JOINED: the joiner went on with the job (it sent message type %u)",
            (unsigned)m.type);
        return 3;
    }
    say("the joiner hung up: it did not join");
    return 0;
}

static int squat(const struct sockaddr_in *sa, int wait_s)
{
    int one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0), status = 0;
    long long until = now_ms() + wait_s * 1000LL;

    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(lfd, (const struct sockaddr *)sa, sizeof(*sa)) != 0 || listen(lfd, 16) != 0) {
        say("cannot bind port %u: %s", (unsigned)ntohs(sa->sin_port), strerror(errno));
        return 2;
    }
    say("holding port %u", (unsigned)ntohs(sa->sin_port));
    /* The port stays held the whole time, so that the job's rank 0 finds it
     * taken whenever it starts; every joiner that comes is played to. */
    while (now_ms() < until) {
        int fd, rc;

        if (!readable(lfd, (int)(until - now_ms())))
            continue;
        fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            continue;
        rc = play_root(fd, 2);
        close(fd);
        if (rc > status)
            status = rc;
    }
    close(lfd);
    return status;
}

int main(int argc, char **argv)
{
    struct sockaddr_in sa;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 4)
        goto usage;
    mode = argv[1];
    sa = addr_of(argv[2], argv[3]);
    if (!strcmp(mode, "claim") && argc >= 6)
        return claim(&sa, atoi(argv[4]), atoi(argv[5]), argc > 6 ? atoi(argv[6]) : 0,
                     argc > 7 ? atoi(argv[7]) : 0);
    if (!strcmp(mode, "truncated") && argc == 5)
        return truncated(&sa, atoi(argv[4]));
    if (!strcmp(mode, "silent") && argc == 6)
        return silent(&sa, atoi(argv[4]), atoi(argv[5]));
    if (!strcmp(mode, "squat") && argc == 5)
        return squat(&sa, atoi(argv[4]));

usage:
    fprintf(stderr,
            "usage: intruder claim HOST PORT RANK SIZE [DELAY_MS [HOLD_S]] | truncated "
            "HOST PORT HOLD_S | silent HOST PORT COUNT HOLD_S | squat HOST PORT WAIT_S\n");
    return 2;
}
