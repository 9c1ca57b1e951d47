#include "base/status.h"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>

const char *gsi_status_str(gsi_status_t status)
{
    switch (status) {
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
#define GSI_STATUS_CASE(name, value, msg) \
    case GSI_##name: return msg;
        GSI_STATUS_MAP(GSI_STATUS_CASE)
#undef GSI_STATUS_CASE
        /* clang-format on */
    }
    return "unknown status";
}

const char *gsi_errno_hint(int err)
{
    static __thread char hint[160];
    struct rlimit rl;

    switch (err) {
    case EMFILE:
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
            snprintf(hint, sizeof(hint),
                     " (this process is out of file descriptors: its limit is %llu; raise it "
                     "with `ulimit -n`)",
                     (unsigned long long)rl.rlim_cur);
            return hint;
        }
        return " (this process is out of file descriptors: raise its limit with `ulimit -n`)";
    case ENFILE: return " (the system is out of file descriptors: see sysctl fs.file-max)";
    default: return "";
    }
}
