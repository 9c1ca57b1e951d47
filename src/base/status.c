#include "base/status.h"

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
