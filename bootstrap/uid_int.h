/* bootstrap/uid_int.h - inside the unique-id bootstrap: the id's layout
 * (uid_id.c), TCP sockets and framed messages (uid_sock.c), the job's secret
 * and the handshake's MACs (uid_auth.c), rank 0's door, where new
 * connections authenticate (uid_door.c), the state of this process's
 * bootstrap (uid_boot.c: rendezvous and collectives), and the monitor thread
 * that ends the job when a PE dies or calls shmem_global_exit
 * (uid_monitor.c).  Not for use outside bootstrap/uid*.c. */
#ifndef GSB_UID_INT_H
#define GSB_UID_INT_H

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "uid.h"

/* The job's secret: 16 random bytes.  In the API mode they are the id's own
 * (the id travels only through the application's channel); in the
 * environment mode, GSHMEM_UID's third field.  They key the MACs of the
 * handshake and never go over the network. */
#define GSB_UID_SECRET 16
#define GSB_HOST_MAX 64

/* ---- the id (uid_id.c) ---- */

/* An id, decoded. */
typedef struct gsb_uid_body {
    struct in_addr addr;
    uint16_t port; /* host order */
    uint8_t secret[GSB_UID_SECRET];
} gsb_uid_body_t;

void gsb_uid_encode(const gsb_uid_body_t *body, gsb_uid_t *out);
int gsb_uid_decode(const gsb_uid_t *uid, gsb_uid_body_t *out);
/* "10.0.0.1:5000" */
const char *gsb_uid_where(const gsb_uid_body_t *body, char *buf, size_t len);

/* ---- sockets and messages (uid_sock.c) ---- */

/* Milliseconds on the monotonic clock. */
int64_t gsb_now_ms(void);

/* The IPv4 address of interface `ifname` ("auto"/NULL: see gsb_uid_create). */
int gsb_sock_pick_addr(const char *ifname, struct in_addr *out);
/* A listening socket on addr:port (port 0: any); the bound port on success. */
int gsb_sock_listen(struct in_addr addr, uint16_t port, int *fd_out, uint16_t *port_out);
/* Connect to addr:port, retrying refusals and unreachable networks until
 * deadline_ms; on failure returns -errno of the last attempt. */
int gsb_sock_connect(struct in_addr addr, uint16_t port, int64_t deadline_ms, int *fd_out);
/* TCP_NODELAY and keepalive probes that notice a vanished host. */
void gsb_sock_tune(int fd);
/* 1 when fd is readable before deadline_ms, 0 on timeout, -errno on error. */
int gsb_sock_wait(int fd, int64_t deadline_ms);
/* Whole buffers; -EPIPE when the peer closed, else -errno. */
int gsb_sock_send(int fd, const void *buf, size_t len);
int gsb_sock_recv(int fd, void *buf, size_t len);
/* gsb_sock_recv that gives up at deadline_ms with -ETIMEDOUT: for every read
 * of the rendezvous, where the peer may be anyone. */
int gsb_sock_recv_by(int fd, void *buf, size_t len, int64_t deadline_ms);

/* Messages: a fixed header, then `len` bytes.  The rendezvous on each
 * connection: CHALLENGE, HELLO, PROOF, then WELCOME or REJECT (uid_auth.c). */
enum {
    GSB_MSG_CHALLENGE = 1, /* 0 -> k, first on every new connection: gsb_challenge_t */
    GSB_MSG_HELLO,         /* k -> 0: gsb_hello_t with the join MAC */
    GSB_MSG_PROOF,         /* 0 -> k once k's MAC is right: gsb_hello_t of rank 0, root MAC */
    GSB_MSG_WELCOME,       /* 0 -> k: every rank arrived; no payload */
    GSB_MSG_REJECT,        /* 0 -> k: why, as text; the job does not start */
    GSB_MSG_GATHER,        /* k -> 0: a contribution to allgather `round` */
    GSB_MSG_RESULT,        /* 0 -> k: the gathered bytes of `round` */
    GSB_MSG_ABORT,         /* k -> 0 -> all: `rank` ended the job with `value` */
    GSB_MSG_DEAD,          /* 0 -> all: `rank` died; text says how */
    GSB_MSG_BYE,           /* finalize: k -> 0, then 0 -> k */
};

typedef struct gsb_msg {
    uint32_t type;
    int32_t rank;
    int32_t value;
    uint32_t reserved;
    uint64_t round;
    uint64_t len;
} gsb_msg_t;

/* "gsh2": the handshake with a secret.  The first protocol ("gshu") sent a
 * hello first and no MAC; its peers fail this one's checks and are dropped. */
#define GSB_WIRE_MAGIC 0x67736832u
#define GSB_MSG_MAX_LEN (1ULL << 32) /* larger is a protocol error */
#define GSB_AUTH_RAND 32             /* bytes of a challenge, or of a joiner's random */
#define GSB_AUTH_MAC 32              /* HMAC-SHA256 */

typedef struct gsb_challenge {
    uint32_t magic;
    uint32_t reserved;
    uint8_t rand[GSB_AUTH_RAND]; /* new for every connection */
} gsb_challenge_t;

typedef struct gsb_hello {
    uint32_t magic;
    int32_t rank;
    int32_t size;
    int32_t pid;
    char host[GSB_HOST_MAX];
    uint8_t rand[GSB_AUTH_RAND]; /* HELLO: the joiner's random; PROOF: zero */
    uint8_t mac[GSB_AUTH_MAC];
} gsb_hello_t;

int gsb_msg_send(int fd, uint32_t type, int rank, int value, uint64_t round, const void *payload,
                 size_t len);
int gsb_msg_recv(int fd, gsb_msg_t *msg);
/* gsb_msg_recv with a deadline (gsb_sock_recv_by). */
int gsb_msg_recv_by(int fd, gsb_msg_t *msg, int64_t deadline_ms);

/* ---- the secret and the handshake's MACs (uid_auth.c) ----
 *
 * On each new connection rank 0 sends a fresh random challenge C.  The
 * joiner k answers with its own random R and
 *     HMAC-SHA256(secret, "join" || C || R || rank || size || pid || host)
 * over the fields of its hello.  Rank 0 checks it and proves itself back:
 *     HMAC-SHA256(secret, "root" || R || C || k's rank || size || rank 0's pid || host)
 * Each side's MAC covers the other's random, so neither can be replayed,
 * and the labels keep a joiner's MAC from serving as rank 0's proof. */

/* n random bytes from the kernel (getrandom, else /dev/urandom): 0, or
 * -errno with gsb_error().  There is no weaker fallback: they are keys. */
int gsb_auth_random(void *buf, size_t n);
/* GSHMEM_UID's secret: 32 hex digits into 16 bytes.  0, or -EINVAL with a
 * gsb_error() that does not repeat the text. */
int gsb_auth_parse_secret(const char *hex, uint8_t secret[GSB_UID_SECRET]);
/* The joiner's MAC into h->mac, over h's fields and rank 0's challenge. */
void gsb_auth_join_mac(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                       gsb_hello_t *h);
/* Rank 0's proof into root->mac, for the joiner of hello `joiner`. */
void gsb_auth_root_mac(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                       const gsb_hello_t *joiner, gsb_hello_t *root);
/* 1 when the MAC in h (or root) is the right one, in constant time. */
int gsb_auth_join_ok(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                     const gsb_hello_t *h);
int gsb_auth_root_ok(const uint8_t *secret, const uint8_t challenge[GSB_AUTH_RAND],
                     const gsb_hello_t *joiner, const gsb_hello_t *root);

/* ---- rank 0's door (uid_door.c) ----
 *
 * Rank 0 keeps every connection that has not authenticated yet in a table
 * and serves them all at once with poll(2), each with GSB_DOOR_MS to send
 * its hello, while it keeps accepting others: a silent, slow or lying
 * connection costs the job nothing.  Only a connection whose MAC was right
 * is handed on as a rank. */
#define GSB_DOOR_MS 5000 /* from accept to a whole, authentic hello */
#define GSB_DOOR_MAX 64  /* connections at the door; a newer one evicts the oldest */

typedef struct gsb_door_conn {
    int fd;
    int64_t deadline;
    size_t got; /* bytes of `in` read so far */
    unsigned char in[sizeof(gsb_msg_t) + sizeof(gsb_hello_t)];
    uint8_t challenge[GSB_AUTH_RAND];
    char from[48]; /* the peer's ip:port, for the notes */
} gsb_door_conn_t;

typedef struct gsb_door {
    int lfd;
    const uint8_t *secret;
    gsb_hello_t root; /* rank 0's hello: pid, host, size */
    int n;
    gsb_door_conn_t conn[GSB_DOOR_MAX];
} gsb_door_t;

enum { GSB_DOOR_TIMEOUT = 0, GSB_DOOR_JOINED = 1, GSB_DOOR_DROPPED = 2 };

typedef struct gsb_door_event {
    int fd;            /* JOINED: the connection (blocking, tuned) */
    gsb_hello_t hello; /* JOINED: the rank's authentic hello */
    char why[192];     /* DROPPED: who, and why */
} gsb_door_event_t;

/* Serve the listening socket lfd; `root` is rank 0's hello (its MAC unused). */
void gsb_door_open(gsb_door_t *d, int lfd, const uint8_t *secret, const gsb_hello_t *root);
/* Until something happens or deadline_ms: JOINED (a rank authenticated; it
 * has rank 0's proof), DROPPED (a connection was closed: ev->why), TIMEOUT,
 * or -errno (poll failed; gsb_error()). */
int gsb_door_next(gsb_door_t *d, int64_t deadline_ms, gsb_door_event_t *ev);
/* Close the connections still at the door (not lfd). */
void gsb_door_close(gsb_door_t *d);

/* ---- the state of this process (uid_boot.c) ---- */

/* How long a PE that ends the job waits for its notice to reach the others
 * (they close their connections on receipt) before it exits anyway. */
#define GSB_END_GRACE_MS 3000
/* Longest text carried by REJECT and DEAD. */
#define GSB_TEXT_MAX 1024

typedef struct gsb_peer {
    int fd;   /* -1: none */
    int open; /* no end of file seen yet */
    int pid;
    char host[GSB_HOST_MAX];
    int said_bye; /* rank 0: this rank is in finalize */
    void *stage;  /* rank 0: its part of allgather stage_round */
    size_t stage_len;
    uint64_t stage_round;
    int staged;
} gsb_peer_t;

typedef struct gsb_uid_state {
    int up;
    int rank, size, timeout_s;
    gsb_uid_body_t id;
    char where[48];   /* rank 0's ip:port, for messages */
    gsb_peer_t *peer; /* rank 0: [size] (its own entry unused); others: [1], rank 0 */
    int wake[2];      /* a byte stops the monitor */
    pthread_t monitor;
    int monitor_on;
    pthread_mutex_t lock; /* everything below, and peer[].open/staged/said_bye */
    pthread_cond_t cond;
    pthread_mutex_t send_lock; /* one message at a time per process */
    pthread_mutex_t coll_lock; /* one allgather at a time */
    uint64_t round;
    int want_result; /* others: the allgather that waits for rank 0's answer */
    void *result;
    size_t result_len;
    uint64_t result_round;
    int result_done;
    int n_bye;    /* rank 0: ranks that said goodbye */
    int zero_bye; /* others: rank 0 said goodbye (or closed) after ours */
    int leaving;  /* in finalize */
    int ending;   /* the job ends with end_status once the notices are out */
    int end_status;
    int end_skip; /* the rank not waited for (it caused the end) */
    int64_t end_deadline;
} gsb_uid_state_t;

extern gsb_uid_state_t gsb_uid_state;

/* The listening socket gsb_uid_create opened, kept until init. */
typedef struct gsb_uid_pending {
    int fd;
    gsb_uid_body_t id;
} gsb_uid_pending_t;

extern gsb_uid_pending_t gsb_uid_pending;

/* ---- reporting, and the end of the job (uid_monitor.c) ---- */

/* One line "gshmem: PE <rank>: ..." to stderr. */
void gsb_uid_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit with `status` from any thread, flushing stdio when no thread is in it. */
_Noreturn void gsb_uid_leave(int status);
/* "PE 3 (pid 1234 on host)" */
const char *gsb_uid_describe(int r, char *buf, size_t len);
/* One message to peer r (rank 0: rank r; others: 0), under the send lock. */
int gsb_uid_send_to(int r, uint32_t type, int rank, int value, uint64_t round, const void *payload,
                    size_t len);
/* After a failed send: wait until the monitor has reported why. */
void gsb_uid_settle(void);
/* Rank 0: tell every rank but `skip` that the job ends (type ABORT or DEAD). */
void gsb_uid_root_end(uint32_t type, int origin, int status, const char *text, int skip);
/* Rank 0: ranks it still waits for before it exits (lock held). */
int gsb_uid_root_open_peers(void);
int gsb_uid_start_monitor(void);
void gsb_uid_stop_monitor(void);

#endif
