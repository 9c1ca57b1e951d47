/* src/net/verbs/verbs_window.c - one QP's send window (verbs_window.h):
 * credits, selective signalling and in-order retirement. */
#include "config.h"

#include "net/verbs/verbs_window.h"

unsigned gst_verbs_window_rd_out(gst_verbs_window_t *w)
{
    while (w->rd_count && w->rd_seq[w->rd_head] <= w->completed) {
        w->rd_head = (w->rd_head + 1) % GST_VERBS_MAX_RD;
        w->rd_count--;
    }
    return w->rd_count;
}

uint64_t gst_verbs_window_blocker(gst_verbs_window_t *w, int is_rd, unsigned depth, unsigned rd_max)
{
    if (rd_max > GST_VERBS_MAX_RD)
        rd_max = GST_VERBS_MAX_RD;
    if (w->posted - w->completed >= depth)
        return w->posted - depth + 1;
    if (is_rd && gst_verbs_window_rd_out(w) >= rd_max)
        return w->rd_seq[w->rd_head];
    return 0;
}

gst_verbs_wr_plan_t gst_verbs_window_post(gst_verbs_window_t *w, int is_rd, int want_signal,
                                          unsigned depth)
{
    gst_verbs_wr_plan_t plan = {.seq = ++w->posted};

    plan.signalled = is_rd || want_signal ||
                     plan.seq - w->last_signalled >= GST_VERBS_SIGNAL_EVERY ||
                     plan.seq - w->completed >= depth;
    if (plan.signalled)
        w->last_signalled = plan.seq;
    if (is_rd) {
        (void)gst_verbs_window_rd_out(w);
        w->rd_seq[(w->rd_head + w->rd_count) % GST_VERBS_MAX_RD] = plan.seq;
        w->rd_count++;
    }
    return plan;
}

void gst_verbs_window_retire(gst_verbs_window_t *w, uint64_t seq)
{
    if (seq > w->completed)
        w->completed = seq;
}

uint64_t gst_verbs_window_rd_last(const gst_verbs_window_t *w)
{
    return w->rd_seq[(w->rd_head + w->rd_count - 1) % GST_VERBS_MAX_RD];
}
