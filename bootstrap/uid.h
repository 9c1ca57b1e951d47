/* bootstrap/uid.h - the unique-id bootstrap: PEs meet at rank 0's TCP socket,
 * named by a 128-byte id that the application hands to every process.
 *
 * The id holds a magic number, a version, rank 0's IPv4 address and port, the
 * job's secret (16 random bytes) and a checksum.  gsb_uid_create opens rank
 * 0's listening socket at once, so the id is valid as soon as it exists; the
 * environment mode builds the id from "ip:port:secret" text and rank 0 binds
 * that address itself when it starts.  Every rank proves to rank 0, and rank
 * 0 to every rank, that it knows the secret (a MAC over fresh challenges),
 * so whoever holds the id, and only they, can join the job. */
#ifndef GSB_UID_H
#define GSB_UID_H

#include "bootstrap.h"

#define GSB_UID_BYTES 128

typedef struct gsb_uid {
    unsigned char bytes[GSB_UID_BYTES];
} gsb_uid_t;

/* What gsb_uid_ops.init takes as args. */
typedef struct gsb_uid_args {
    int rank; /* 0..size-1 */
    int size;
    int timeout_s; /* how long to wait for the other ranks (or for rank 0) */
    gsb_uid_t uid;
} gsb_uid_args_t;

/* A new id for a job whose rank 0 is this process: listens on an ephemeral
 * port of `ifname`'s IPv4 address ("auto" or NULL: the first interface that
 * is up and not loopback, else loopback). */
int gsb_uid_create(const char *ifname, gsb_uid_t *out);

/* 0 when `uid` is well formed (magic, version, checksum), else -EINVAL. */
int gsb_uid_check(const gsb_uid_t *uid);

/* The environment mode: the args from GSHMEM_UID ("ip:port:secret"),
 * GSHMEM_UID_RANK and GSHMEM_UID_SIZE as read by the caller ("none", -1 and 0
 * when unset).  -EINVAL, naming the variable, when GSHMEM_UID has no secret. */
int gsb_uid_args_from_env(const char *text, long long rank, long long size, long long timeout_s,
                          gsb_uid_args_t *out);

#endif
