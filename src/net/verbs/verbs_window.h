/* src/net/verbs/verbs_window.h - the send window of one QP: which of its
 * WRs are posted, which are known complete, and which must be signalled.
 *
 * WRs are numbered per QP from 1 (posted counts them); completed is the
 * number of the last WR known complete.  An RC send queue completes its
 * WRs in order, so one successful signalled completion retires every
 * earlier WR of the QP too: only every few WRs need a CQ entry.  A WR is
 * signalled when it is a READ or an atomic (its credit must come back), when
 * the caller needs it (a bounce slot, a wait), when GST_VERBS_SIGNAL_EVERY
 * WRs went unsignalled before it, or when it fills the window (so that a
 * full window always has a signalled WR to wait for).  Plain logic, no
 * verbs: tests/unit/verbs_window.c runs it against a simulated queue. */
#ifndef GST_VERBS_WINDOW_H
#define GST_VERBS_WINDOW_H

#include <stdint.h>

#define GST_VERBS_SIGNAL_EVERY 16
/* At most this many READs/atomics outstanding per QP (rd_atomic is at most
 * 16, verbs_qp.c). */
#define GST_VERBS_MAX_RD 16

typedef struct gst_verbs_window {
    uint64_t posted;         /* number of the last WR posted */
    uint64_t completed;      /* number of the last WR known complete */
    uint64_t last_signalled; /* number of the last signalled WR */
    /* numbers of the READs/atomics that may be outstanding, oldest first */
    uint64_t rd_seq[GST_VERBS_MAX_RD];
    unsigned rd_head, rd_count;
} gst_verbs_window_t;

/* What gst_verbs_window_post decided for a WR. */
typedef struct gst_verbs_wr_plan {
    uint64_t seq;
    int signalled;
} gst_verbs_wr_plan_t;

/* READs/atomics of w not yet known complete. */
unsigned gst_verbs_window_rd_out(gst_verbs_window_t *w);
/* 0: one more WR (a READ/atomic where is_rd) may be posted now; else the
 * number of the WR whose completion makes room. */
uint64_t gst_verbs_window_blocker(gst_verbs_window_t *w, int is_rd, unsigned depth,
                                  unsigned rd_max);
/* Number the next WR and decide its flags (the caller has made room). */
gst_verbs_wr_plan_t gst_verbs_window_post(gst_verbs_window_t *w, int is_rd, int want_signal,
                                          unsigned depth);
/* A successful completion of WR seq: it and every earlier WR are done. */
void gst_verbs_window_retire(gst_verbs_window_t *w, uint64_t seq);
/* The number of the newest READ/atomic posted (call with rd_out > 0). */
uint64_t gst_verbs_window_rd_last(const gst_verbs_window_t *w);

#endif
