/* bootstrap/bootstrap.h - how PEs find each other.
 *
 * A bootstrap is an ops table chosen once at init.  It knows nothing of the
 * core: functions return 0 or a negative errno value and leave one sentence
 * in gsb_error() for the caller to report. */
#ifndef GSB_BOOTSTRAP_H
#define GSB_BOOTSTRAP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gsb_info {
    int rank; /* this process, 0..size-1 */
    int size; /* processes in the job */
} gsb_info_t;

/* args: what the bootstrap needs from the caller (the unique-id bootstrap's
 * rank, size and id); NULL for those that read their launcher's environment. */
typedef int (*gsb_init_fn_t)(const void *args, gsb_info_t *info);
/* Gather `len` bytes from every rank into out[rank * len]. */
typedef int (*gsb_allgather_fn_t)(const void *in, void *out, size_t len);
typedef int (*gsb_barrier_fn_t)(void);
/* End the whole job with `status`; does not return. */
typedef void (*gsb_abort_fn_t)(int status, const char *msg);
typedef int (*gsb_finalize_fn_t)(void);

typedef struct gsb_ops {
    const char *name;
    gsb_init_fn_t init;
    gsb_allgather_fn_t allgather;
    gsb_barrier_fn_t barrier;
    gsb_abort_fn_t abort;
    gsb_finalize_fn_t finalize;
} gsb_ops_t;

extern const gsb_ops_t gsb_pmix_ops;
extern const gsb_ops_t gsb_pmi2_ops;
extern const gsb_ops_t gsb_single_ops;
extern const gsb_ops_t gsb_uid_ops; /* uid.h: its args and ids */

/* Bootstraps compiled in, NULL-terminated ("auto" picks pmix, pmi2 or single). */
extern const gsb_ops_t *const gsb_all[];

/* The bootstrap `name` selects ("auto": the first whose launcher is present). */
const gsb_ops_t *gsb_select(const char *name);

/* How long a bootstrap collective (allgather, barrier) waits for the other
 * ranks: past timeout_s it fails with -ETIMEDOUT and a sentence saying what
 * it waited for; at warn_s it calls still_waiting once (NULL: says nothing).
 * 0 turns either off.  The caller sets them before init (GSHMEM_WAIT_TIMEOUT,
 * GSHMEM_WAIT_WARN); a PE that never reaches the collective - it skipped the
 * call, or waits elsewhere - then no longer holds the others forever. */
typedef void (*gsb_still_waiting_fn_t)(const char *bootstrap, long long seconds, const char *what);
void gsb_set_wait_limits(long long timeout_s, long long warn_s, gsb_still_waiting_fn_t warn);

/* One bounded wait of a bootstrap: gsb_wait_begin when it starts, then
 * gsb_wait_cond in place of pthread_cond_wait (lock held) until the
 * condition holds.  gsb_wait_cond returns 0 (check again), or -ETIMEDOUT
 * past the timeout with the error set: "<bootstrap>: waited more than
 * GSHMEM_WAIT_TIMEOUT=<s> s for <what>". */
typedef struct gsb_wait {
    int64_t start_ms;
    int warned;
} gsb_wait_t;
void gsb_wait_begin(gsb_wait_t *w);
int gsb_wait_cond(gsb_wait_t *w, pthread_cond_t *cond, pthread_mutex_t *lock, const char *bootstrap,
                  const char *what);
/* The same for a socket: returns 0 once fd is readable (or closed). */
int gsb_wait_fd(gsb_wait_t *w, int fd, const char *bootstrap, const char *what);

/* The same for a condition only polling sees (a request of the MPI
 * plugin): 0 (poll again; the caller paces the polls) or -ETIMEDOUT. */
int gsb_wait_poll(gsb_wait_t *w, const char *bootstrap, const char *what);

/* The last error, as one sentence. */
const char *gsb_error(void);
void gsb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
