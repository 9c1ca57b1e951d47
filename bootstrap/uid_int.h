/* bootstrap/uid_int.h - inside the unique-id bootstrap: the id's layout
 * (uid_id.c), TCP sockets and framed messages (uid_sock.c), the state of this
 * process's bootstrap (uid_boot.c: rendezvous and collectives), and the monitor
 * thread that ends the job when a PE dies or calls shmem_global_exit
 * (uid_monitor.c).  Not for use outside bootstrap/uid*.c. */
#ifndef GSB_UID_INT_H
#define GSB_UID_INT_H

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "uid.h"

#define GSB_UID_NONCE 16
#define GSB_HOST_MAX 64

/* ---- the id (uid_id.c) ---- */

/* An id, decoded. */
typedef struct gsb_uid_body {
    struct in_addr addr;
    uint16_t port; /* host order */
    uint8_t nonce[GSB_UID_NONCE];
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

/* Messages: a fixed header, then `len` bytes. */
enum {
    GSB_MSG_HELLO = 1, /* rank k -> 0: gsb_hello_t */
    GSB_MSG_WELCOME,   /* 0 -> k: gsb_hello_t of rank 0; every rank arrived */
    GSB_MSG_REJECT,    /* 0 -> k: why, as text; the job does not start */
    GSB_MSG_GATHER,    /* k -> 0: a contribution to allgather `round` */
    GSB_MSG_RESULT,    /* 0 -> k: the gathered bytes of `round` */
    GSB_MSG_ABORT,     /* k -> 0 -> all: `rank` ended the job with `value` */
    GSB_MSG_DEAD,      /* 0 -> all: `rank` died; text says how */
    GSB_MSG_BYE,       /* finalize: k -> 0, then 0 -> k */
};

typedef struct gsb_msg {
    uint32_t type;
    int32_t rank;
    int32_t value;
    uint32_t reserved;
    uint64_t round;
    uint64_t len;
} gsb_msg_t;

#define GSB_HELLO_MAGIC 0x67736875u  /* "gshu" */
#define GSB_MSG_MAX_LEN (1ULL << 32) /* larger is a protocol error */

typedef struct gsb_hello {
    uint32_t magic;
    int32_t rank;
    int32_t size;
    int32_t pid;
    uint8_t nonce[GSB_UID_NONCE];
    char host[GSB_HOST_MAX];
} gsb_hello_t;

int gsb_msg_send(int fd, uint32_t type, int rank, int value, uint64_t round, const void *payload,
                 size_t len);
int gsb_msg_recv(int fd, gsb_msg_t *msg);

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
