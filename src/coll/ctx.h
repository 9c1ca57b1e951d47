/* src/coll/ctx.h - communication contexts.  On the P2P path every operation
 * completes as it is issued, so a context carries its options and team for
 * the transports and for shmem_ctx_get_team. */
#ifndef GSI_CTX_H
#define GSI_CTX_H

struct gshmem_team;

struct gshmem_ctx {
    long options;
    struct gshmem_team *team;
    int session; /* inside shmem_ctx_session_start/stop */
};

extern struct gshmem_ctx gshmem_ctx_default;

#endif
