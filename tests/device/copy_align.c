/*
 * tests/device/copy_align.c - the device copy (gsd_copy, gsd/group.h) at
 * every alignment: dest and source at offsets 0..15 from a 16-byte
 * boundary, every length 0..70, and a few large lengths, each by a thread,
 * a warp (the last one partial: 48 lanes) and a block (on host lanes the
 * public warp and block forms take one small case in 6: small_copied).
 * Every byte of the range must hold the source's byte and every byte
 * around it (a 16-byte guard before, the rest of the slot after) must be
 * untouched.
 *
 * The copies, for every form:
 *   self      gshmem_putmem / _warp / _block to this PE (load/store: gsd_copy)
 *   get       gshmem_getmem / _warp / _block from this PE (gsd_copy too)
 *   strided   gsd_copy_strided itself, the GPU's copy: on host lanes gsd_copy
 *             is memcpy shares, so this is where the GPU's chunking, its
 *             unrolled loads and its byte head and tail run here
 *   right     gshmem_putmem_nbi / _warp / _block into the right neighbour,
 *             then a quiet (over load/store, or through the proxy in -net)
 *
 * Each call copies into its own slot (small: 128 bytes, 16 + 70 + 42; large:
 * 256 KiB + 64), so one launch does all 16 x 16 x 71 small copies, another
 * all the large ones, and the host then checks every byte of every slot.
 */
#include "dev_test.h"

#define NALIGN 16
#define MAXLEN 70
#define NLEN (MAXLEN + 1)
#define GUARD 16
#define SLOT 128
#define NSLOT (NALIGN * NALIGN * NLEN)
#define BIGMAX ((size_t)1 << 18)
#define BIGSLOT (BIGMAX + 64)
#define NBIGLEN 3
#define NBIGOFF 4
#define NBIG (NBIGLEN * NBIGOFF)

enum { F_THREAD, F_WARP, F_BLOCK, N_FORMS };
enum { M_SELF, M_GET, M_STRIDED, M_RIGHT, N_MODES };

static const char *const form_name[N_FORMS] = {"thread", "warp", "block"};
static const char *const mode_name[N_MODES] = {"putmem to self", "getmem from self",
                                               "gsd_copy_strided", "putmem_nbi to the right"};

typedef struct copy_args {
    uint64_t *fails;
    unsigned char *src, *dst;
    int form, mode, right;
    int big; /* 0: the small slots; 1: the large ones */
} copy_args_t;

/* The large copies: lengths, and (dest, source) offsets from 16 bytes. */
DT_HD size_t big_len(unsigned i)
{
    return i == 0 ? 4096 + 3 : i == 1 ? 65536 + 13 : BIGMAX + 7 - 64;
}
DT_HD unsigned big_off(unsigned i, int src)
{
    return src ? (i == 0   ? 0
                  : i == 1 ? 1
                  : i == 2 ? 7
                           : 1)
               : (i == 0   ? 0
                  : i == 1 ? 1
                  : i == 2 ? 3
                           : 15);
}

/* Does small slot i get a copy?  Every slot, but on host lanes the public
 * warp and block forms do one (dest, source, length) triple in 6: each
 * call there meets at two or three lane barriers (futexes on a loaded
 * machine), while the copy inside is the memcpy share the thread form
 * checks in full; every alignment pair and every length still occurs.
 * gsd_copy_strided (no barriers) does every triple in every form. */
DT_HD int small_copied(int form, int mode, unsigned i)
{
#if defined(__CUDACC__)
    (void)form, (void)mode, (void)i;
    return 1;
#else
    unsigned da = i / (NALIGN * NLEN), sa = i / NLEN % NALIGN, len = i % NLEN;

    return form == F_THREAD || mode == M_STRIDED || (da + sa + len) % 6 == 0;
#endif
}

/* One copy by the calling group (every lane of it calls). */
DT_NOINL void copy_one(const copy_args_t *a, void *d, const void *s, size_t n)
{
    int g = a->form == F_THREAD ? GSD_THREAD : a->form == F_WARP ? GSD_WARP : GSD_BLOCK;

    switch (a->mode) {
    case M_SELF:
        if (a->form == F_THREAD)
            gshmem_putmem(d, s, n, gshmem_my_pe());
        else if (a->form == F_WARP)
            gshmemx_putmem_warp(d, s, n, gshmem_my_pe());
        else
            gshmemx_putmem_block(d, s, n, gshmem_my_pe());
        break;
    case M_GET:
        if (a->form == F_THREAD)
            gshmem_getmem(d, s, n, gshmem_my_pe());
        else if (a->form == F_WARP)
            gshmemx_getmem_warp(d, s, n, gshmem_my_pe());
        else
            gshmemx_getmem_block(d, s, n, gshmem_my_pe());
        break;
    case M_STRIDED: gsd_copy_strided(gsd_group_rank(g), gsd_group_size(g), d, s, n); break;
    default:
        if (a->form == F_THREAD)
            gshmem_putmem_nbi(d, s, n, a->right);
        else if (a->form == F_WARP)
            gshmemx_putmem_nbi_warp(d, s, n, a->right);
        else
            gshmemx_putmem_nbi_block(d, s, n, a->right);
        break;
    }
}

GSHMEM_KERNEL(copy_kernel, copy_args_t, a)
{
    unsigned k = gshmemx_thread_id(), nk = gshmemx_block_threads();
    /* Groups of the launch: every lane, every warp, or the block. */
    unsigned gid = a.form == F_THREAD ? k : a.form == F_WARP ? k / DT_WARP : 0;
    unsigned ngroups = a.form == F_THREAD ? nk
                       : a.form == F_WARP ? (nk + DT_WARP - 1) / DT_WARP
                                          : 1;
    unsigned i;

    if (a.big) {
        for (i = gid; i < NBIG; i += ngroups)
            copy_one(&a, a.dst + (size_t)i * BIGSLOT + GUARD + big_off(i % NBIGOFF, 0),
                     a.src + (size_t)i * BIGSLOT + GUARD + big_off(i % NBIGOFF, 1),
                     big_len(i / NBIGOFF));
    } else {
        for (i = gid; i < NSLOT; i += ngroups) {
            unsigned da = i / (NALIGN * NLEN), sa = i / NLEN % NALIGN, len = i % NLEN;

            if (!small_copied(a.form, a.mode, i))
                continue;

            copy_one(&a, a.dst + (size_t)i * SLOT + GUARD + da,
                     a.src + (size_t)i * SLOT + GUARD + sa, len);
        }
    }
    if (a.mode == M_RIGHT)
        gshmem_quiet();
    gshmemx_syncthreads();
}

/* Check n bytes at off of dst (a host copy) against PE pe's pattern of
 * the source from soff, and every other byte of [lo, hi) is DT_SENT. */
static void check_range(const copy_args_t *a, const unsigned char *h, size_t lo, size_t hi,
                        size_t off, size_t n, size_t soff, int pe, const char *what)
{
    size_t j;
    int bad = 0;

    for (j = lo; j < hi && bad < 3; j++) {
        int in = j >= off && j < off + n;
        unsigned exp = in ? dt_pat(pe, soff + (j - off)) : DT_SENT;

        if (h[j] != exp) {
            PT_CHECK_EQ_F(mode_name[a->mode], (long long)exp, (long long)h[j],
                          "%s form, %s: byte %zu (copy of %zu bytes at %zu from %zu)",
                          form_name[a->form], what, j, n, off, soff);
            bad++;
        }
    }
}

static void run_small(copy_args_t *a, int left)
{
    unsigned char *h;
    unsigned i;

    a->big = 0;
    dt_fill_pat(a->src, (size_t)NSLOT * SLOT, dt_me, 0);
    dt_fill(a->dst, DT_SENT, (size_t)NSLOT * SLOT);
    shmem_barrier_all(); /* the neighbour's dst is ready */
    DT_LAUNCH(copy_kernel, 1, dt_threads(), *a);
    shmem_barrier_all(); /* the left neighbour's puts are here */
    h = (unsigned char *)dt_copy_back(a->dst, (size_t)NSLOT * SLOT);
    for (i = 0; i < NSLOT; i++) {
        unsigned da = i / (NALIGN * NLEN), sa = i / NLEN % NALIGN, len = i % NLEN;
        size_t base = (size_t)i * SLOT;

        check_range(a, h, base, base + SLOT, base + GUARD + da,
                    small_copied(a->form, a->mode, i) ? len : 0, base + GUARD + sa,
                    a->mode == M_RIGHT ? left : dt_me, "small slot");
    }
    free(h);
}

static void run_big(copy_args_t *a, int left)
{
    unsigned char *h;
    unsigned i;

    a->big = 1;
    dt_fill_pat(a->src, (size_t)NBIG * BIGSLOT, dt_me, 0);
    dt_fill(a->dst, DT_SENT, (size_t)NBIG * BIGSLOT);
    shmem_barrier_all();
    DT_LAUNCH(copy_kernel, 1, dt_threads(), *a);
    shmem_barrier_all();
    h = (unsigned char *)dt_copy_back(a->dst, (size_t)NBIG * BIGSLOT);
    for (i = 0; i < NBIG; i++) {
        size_t base = (size_t)i * BIGSLOT;

        check_range(a, h, base, base + BIGSLOT, base + GUARD + big_off(i % NBIGOFF, 0),
                    big_len(i / NBIGOFF), base + GUARD + big_off(i % NBIGOFF, 1),
                    a->mode == M_RIGHT ? left : dt_me, "large copy");
    }
    free(h);
}

int main(void)
{
    copy_args_t a;
    size_t small = (size_t)NSLOT * SLOT, big = (size_t)NBIG * BIGSLOT;
    size_t bytes = small > big ? small : big;
    const char *net = getenv("GSHMEM_DISABLE_P2P");
    int first = net && *net && strcmp(net, "0") ? M_RIGHT : 0;
    int left;

    dt_start();
    a.fails = dt_fails;
    a.right = (dt_me + 1) % dt_npes;
    left = (dt_me + dt_npes - 1) % dt_npes;
    a.src = (unsigned char *)dt_malloc(bytes);
    a.dst = (unsigned char *)dt_malloc(bytes);
    /* The -net twin (GSHMEM_DISABLE_P2P) differs only where a copy goes
     * to another PE: through the proxy.  Copies to this PE and the strided
     * copy run the same code as in the load/store twin, which checks
     * them, so here only "right" runs (on 1 PE it is this PE: the same
     * again, but cheap enough to keep the twins alike). */
    for (a.mode = first; a.mode < N_MODES; a.mode++)
        for (a.form = 0; a.form < N_FORMS; a.form++) {
            run_small(&a, left);
            run_big(&a, left);
        }
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
