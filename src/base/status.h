/* src/base/status.h - the one status type of the core: 0 is success, negatives
 * are errors.  Names and messages are written once, in GSI_STATUS_MAP. */
#ifndef GSI_STATUS_H
#define GSI_STATUS_H

#define GSI_STATUS_MAP(X)                                               \
    X(OK, 0, "success")                                                 \
    X(ERR_NOMEM, -1, "out of memory")                                   \
    X(ERR_INVALID, -2, "invalid argument")                              \
    X(ERR_UNSUPPORTED, -3, "operation not supported by this transport") \
    X(ERR_BOOTSTRAP, -4, "bootstrap failed")                            \
    X(ERR_SYSTEM, -5, "system call failed")                             \
    X(ERR_ENV, -6, "bad environment variable")                          \
    X(ERR_MISMATCH, -7, "PEs disagree")                                 \
    X(ERR_NO_TRANSPORT, -8, "no transport reaches this PE")             \
    X(ERR_TIMEOUT, -9, "timed out")

typedef enum gsi_status {
#define GSI_STATUS_ENUM(name, value, msg) GSI_##name = value,
    GSI_STATUS_MAP(GSI_STATUS_ENUM)
#undef GSI_STATUS_ENUM
} gsi_status_t;

const char *gsi_status_str(gsi_status_t status);

/* What a user can do about a failed system call's errno, as text to put
 * after its strerror: " (this process is out of file descriptors: ...)"
 * for EMFILE and ENFILE, "" for the rest, whose fix depends on the call.
 * Descriptor exhaustion is the one cause that looks like another (a
 * refused /proc/<pid>/fd open reads as a permission problem), so it is
 * named wherever init opens files. */
const char *gsi_errno_hint(int err);

#endif
