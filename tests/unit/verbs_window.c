/* Unit tests of the verbs send window (src/net/verbs/verbs_window.c)
 * against a simulated RC send queue: the queue completes WRs in order and
 * writes a CQ entry only for the signalled ones, as a real one does.  They
 * fail if a run of more than GST_VERBS_SIGNAL_EVERY - 1 WRs goes
 * unsignalled, if one completion does not retire every earlier WR, if a
 * full window or spent READ credits leave nothing signalled to wait for,
 * or if fence would not wait for the newest READ/atomic. */
#include <criterion/criterion.h>
#include <string.h>

#include "net/verbs/verbs_window.h"

#define MAX_WR 4096

/* The simulated queue: WR n's plan, how far the "NIC" has executed. */
static gst_verbs_wr_plan_t sq[MAX_WR + 1];
static uint64_t executed;

static gst_verbs_wr_plan_t post(gst_verbs_window_t *w, int rd, int want, unsigned depth)
{
    gst_verbs_wr_plan_t p = gst_verbs_window_post(w, rd, want, depth);

    cr_assert_lt(p.seq, MAX_WR);
    sq[p.seq] = p;
    return p;
}

/* The NIC executes WRs up to `upto` in order; the poller sees the CQ
 * entries of the signalled ones and retires them. */
static void execute(gst_verbs_window_t *w, uint64_t upto)
{
    while (executed < upto) {
        executed++;
        if (sq[executed].signalled)
            gst_verbs_window_retire(w, executed);
    }
}

/* Wait as verbs_rma.c does for WR seq: the NIC runs one WR at a time until
 * seq is retired; it must be before the queue runs dry. */
static void wait_for(gst_verbs_window_t *w, uint64_t seq)
{
    while (w->completed < seq) {
        cr_assert_lt(executed, w->posted, "waiting for WR %llu: nothing signalled after it",
                     (unsigned long long)seq);
        execute(w, executed + 1);
    }
}

static void reset(void)
{
    memset(sq, 0, sizeof(sq));
    executed = 0;
}

Test(verbs_window, every_16th_signalled)
{
    gst_verbs_window_t w = {0};
    unsigned run = 0;

    reset();
    for (int i = 0; i < 1000; i++) {
        gst_verbs_wr_plan_t p = post(&w, 0, 0, 100000);

        run = p.signalled ? 0 : run + 1;
        cr_assert_lt(run, GST_VERBS_SIGNAL_EVERY, "WR %llu: %u unsignalled in a row",
                     (unsigned long long)p.seq, run);
    }
    /* Unforced WRITEs are not all signalled either. */
    cr_assert(!sq[1].signalled);
    cr_assert(sq[GST_VERBS_SIGNAL_EVERY].signalled);
}

Test(verbs_window, one_completion_retires_earlier)
{
    gst_verbs_window_t w = {0};

    reset();
    for (int i = 0; i < 40; i++)
        post(&w, 0, 0, 128);
    execute(&w, 20);
    /* Only WR 16 of 1..20 is signalled; its entry retires 1..16. */
    cr_assert_eq(w.completed, GST_VERBS_SIGNAL_EVERY);
    execute(&w, 40);
    cr_assert_eq(w.completed, 2 * GST_VERBS_SIGNAL_EVERY);
    /* An entry older than what is retired changes nothing. */
    gst_verbs_window_retire(&w, 3);
    cr_assert_eq(w.completed, 2 * GST_VERBS_SIGNAL_EVERY);
}

Test(verbs_window, full_window_can_be_waited)
{
    for (unsigned depth = 2; depth <= 40; depth++) {
        gst_verbs_window_t w = {0};

        reset();
        for (int i = 0; i < 1000; i++) {
            uint64_t b;

            while ((b = gst_verbs_window_blocker(&w, 0, depth, 4)))
                wait_for(&w, b);
            cr_assert_lt(w.posted - w.completed, depth);
            post(&w, 0, 0, depth);
        }
        /* quiet: the last WR signalled or a marker after it */
        if (w.last_signalled < w.posted)
            post(&w, 0, 1, depth);
        wait_for(&w, w.posted);
    }
}

Test(verbs_window, read_credits)
{
    gst_verbs_window_t w = {0};
    uint64_t first;

    reset();
    first = post(&w, 1, 0, 128).seq;
    cr_assert(sq[first].signalled);
    for (int i = 1; i < 4; i++) {
        cr_assert_eq(gst_verbs_window_blocker(&w, 1, 128, 4), 0);
        post(&w, 1, 0, 128);
        post(&w, 0, 0, 128);
    }
    cr_assert_eq(gst_verbs_window_rd_out(&w), 4);
    /* A WRITE still may go; a fifth READ waits for the first. */
    cr_assert_eq(gst_verbs_window_blocker(&w, 0, 128, 4), 0);
    cr_assert_eq(gst_verbs_window_blocker(&w, 1, 128, 4), first);
    wait_for(&w, first);
    cr_assert_eq(gst_verbs_window_blocker(&w, 1, 128, 4), 0);
    cr_assert_eq(gst_verbs_window_rd_out(&w), 3);
}

Test(verbs_window, fence_waits_for_last_read)
{
    gst_verbs_window_t w = {0};
    uint64_t a, b;

    reset();
    post(&w, 0, 0, 128);
    cr_assert_eq(gst_verbs_window_rd_out(&w), 0);
    a = post(&w, 1, 0, 128).seq;
    post(&w, 0, 0, 128);
    b = post(&w, 1, 0, 128).seq;
    post(&w, 0, 0, 128);
    cr_assert_eq(gst_verbs_window_rd_last(&w), b);
    wait_for(&w, a);
    cr_assert_eq(gst_verbs_window_rd_out(&w), 1);
    cr_assert_eq(gst_verbs_window_rd_last(&w), b);
    wait_for(&w, b);
    cr_assert_eq(gst_verbs_window_rd_out(&w), 0);
}
