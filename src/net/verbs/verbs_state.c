/* src/net/verbs/verbs_state.c - the verbs transport's one state, which
 * every file of the transport shares (verbs_state.h). */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include "net/verbs/verbs_state.h"

gst_verbs_t gst_verbs;

#endif
