/*
 * tests/device/symreg.c - gshmemx_buffer_register_symmetric (issue 18):
 * each PE memfd-creates and maps a buffer of its own (at a file offset
 * that is not page-aligned, so peers map the right pages), registers it,
 * and the returned address is symmetric: host puts and gets, a host atomic
 * add, and device puts and gets from a kernel reach the next PE's buffer,
 * over load/store and (the .net twin) through UCX's map_region and the
 * proxy channels; device p, g, atomics, put-with-signal, a signal wait,
 * iput and gshmem_ptr on its last 64 bytes.  A second buffer registers next to the first; both
 * unregister with 0, and a freed slot registers again (through
 * gshmemx_buffer_register_symmetric_at_preferred_address).  On a GPU the
 * device half is left out: kernels cannot reach these host pages.
 */
#ifndef _GNU_SOURCE /* g++ (nvcc) defines it */
#define _GNU_SOURCE
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "dev_test.h"

#define N 8192       /* bytes registered */
#define SKEW 192     /* the buffer's start inside its page */
#define HALF (N / 2) /* host RMA on [0, HALF), device RMA on [HALF, N - 64) */
#define DEV (HALF - 64)
/* The last 64 bytes, for the device's word-sized routines (offsets). */
#define W_P (N - 64)    /* int: gshmem_int_p, then gshmem_int_g */
#define W_AMO (N - 56)  /* uint64: gshmem_uint64_atomic_fetch_add */
#define W_SIG (N - 48)  /* uint64: the signal of gshmem_putmem_signal */
#define W_DATA (N - 40) /* 16 bytes: its data */
#define W_I (N - 24)    /* 2 ints at stride 2: gshmem_int_iput */

typedef struct sym_args {
    unsigned char *sym;   /* the registered buffer */
    unsigned char *local; /* private: the device put's source */
    unsigned char *back;  /* private: the device get's destination */
    int next, prev, me;
} sym_args_t;

GSHMEM_KERNEL(sym_put_kernel, sym_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0) {
        gshmem_putmem(a.sym + HALF, a.local, DEV, a.next);
        gshmem_quiet();
    }
}

GSHMEM_KERNEL(sym_get_kernel, sym_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0)
        gshmem_getmem(a.back, a.sym + HALF, DEV, a.next);
}

/* The word-sized routines into the next PE's buffer; back[0] gets the
 * fetch-add's old value, back[1] what the wait saw, back[2] gshmem_ptr's
 * answer for this PE's own buffer (1: the buffer itself). */
GSHMEM_KERNEL(sym_word_kernel, sym_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0) {
        uint64_t *back = (uint64_t *)(void *)a.back;
        const int src[2] = {a.me + 300, a.me + 400};
        unsigned char data[16];

        for (int i = 0; i < 16; i++)
            data[i] = (unsigned char)(a.me * 16 + i);
        gshmem_int_p((int *)(void *)(a.sym + W_P), a.me + 200, a.next);
        back[0] = gshmem_uint64_atomic_fetch_add((uint64_t *)(void *)(a.sym + W_AMO),
                                                 (uint64_t)a.me + 1, a.next);
        gshmem_int_iput((int *)(void *)(a.sym + W_I), src, 2, 1, 2, a.next);
        gshmem_putmem_signal(a.sym + W_DATA, data, 16, (uint64_t *)(void *)(a.sym + W_SIG),
                             (uint64_t)a.me + 1, GSHMEM_SIGNAL_SET, a.next);
        back[1] = gshmem_signal_wait_until((uint64_t *)(void *)(a.sym + W_SIG), GSHMEM_CMP_EQ,
                                           (uint64_t)a.prev + 1);
        back[2] = gshmem_ptr(a.sym, a.me) == (void *)a.sym;
    }
}

/* After a barrier: back[3] gets the next PE's int that this PE put. */
GSHMEM_KERNEL(sym_g_kernel, sym_args_t, a)
{
    if (gshmemx_thread_id() == 0 && gshmemx_block_id() == 0)
        ((uint64_t *)(void *)a.back)[3] =
            (uint64_t)gshmem_int_g((const int *)(void *)(a.sym + W_P), a.next);
}

static void fill(unsigned char *p, size_t n, int pe, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        p[i] = dt_pat(pe, i + salt);
}

static void expect(const char *routine, const unsigned char *p, size_t n, int pe, unsigned salt)
{
    size_t i;

    for (i = 0; i < n && p[i] == dt_pat(pe, i + salt); i++)
        ;
    if (i < n) /* the first byte that differs */
        PT_CHECK_EQ_F(routine, (long long)dt_pat(pe, i + salt), (long long)p[i], "byte %zu", i);
}

/* A MAP_SHARED memfd mapping with n bytes from `skew` past a page start
 * (also past the file's first page, so the file offset is not 0). */
static unsigned char *memfd_buffer(size_t n, size_t skew, int *fd, unsigned char **map,
                                   size_t *map_len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);

    *map_len = page + skew + n + page;
    *fd = memfd_create("symreg-test", MFD_CLOEXEC);
    if (*fd < 0 || ftruncate(*fd, (off_t)*map_len) != 0) {
        perror("memfd_create/ftruncate");
        shmem_global_exit(1);
    }
    *map = (unsigned char *)mmap(NULL, *map_len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    if (*map == MAP_FAILED) {
        perror("mmap");
        shmem_global_exit(1);
    }
    return *map + page + skew;
}

int main(void)
{
    sym_args_t a;
    unsigned char *buf, *map, *buf2, *map2, *got, *sym, *sym2;
    size_t map_len, map2_len;
    uint64_t *counter;
    int fd, fd2, prev;

    dt_start();
    prev = (dt_me + dt_npes - 1) % dt_npes;
    memset(&a, 0, sizeof(a));
    a.next = (dt_me + 1) % dt_npes;
    a.prev = prev;
    a.me = dt_me;
    buf = memfd_buffer(N, SKEW, &fd, &map, &map_len);
    memset(buf, 0, N);
    sym = (unsigned char *)gshmemx_buffer_register_symmetric(buf, N, 0);
    PT_CHECK_EQ("gshmemx_buffer_register_symmetric returns the buffer",
                (long long)(uintptr_t)buf, (long long)(uintptr_t)sym);
    if (sym == NULL)
        return dt_finish();
    a.sym = sym;

    /* host put into the next PE's buffer, host get from it */
    got = (unsigned char *)malloc(N);
    fill(got, HALF - 8, dt_me, 1);
    shmem_putmem(sym, got, HALF - 8, a.next);
    shmem_barrier_all();
    expect("shmem_putmem into a registered buffer", sym, HALF - 8, prev, 1);
    memset(got, 0, N);
    shmem_getmem(got, sym, HALF - 8, a.next);
    expect("shmem_getmem from a registered buffer", got, HALF - 8, dt_me, 1); /* ours */

    /* a host atomic on the last word of the host half: one add per PE */
    counter = (uint64_t *)(void *)(sym + HALF - 8);
    shmem_uint64_atomic_add(counter, (uint64_t)dt_me + 1, a.next);
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_uint64_atomic_add on a registered buffer", (long long)prev + 1,
                (long long)*counter);
    PT_CHECK_EQ("shmem_uint64_atomic_fetch on a registered buffer", (long long)dt_me + 1,
                (long long)shmem_uint64_atomic_fetch(counter, a.next));

#if !defined(__CUDACC__)
    /* device put and get from a kernel (host lanes) */
    a.local = (unsigned char *)malloc(DEV);
    a.back = (unsigned char *)calloc(1, DEV);
    fill(a.local, DEV, dt_me, 5);
    DT_LAUNCH(sym_put_kernel, 1, 1, a);
    shmem_barrier_all();
    expect("gshmem_putmem into a registered buffer", sym + HALF, DEV, prev, 5);
    DT_LAUNCH(sym_get_kernel, 1, 1, a);
    expect("gshmem_getmem from a registered buffer", a.back, DEV, dt_me, 5); /* ours */
    shmem_barrier_all();

    /* the word-sized device routines on the last 64 bytes */
    memset(a.back, 0, DEV);
    DT_LAUNCH(sym_word_kernel, 1, 1, a);
    shmem_barrier_all();
    {
        const uint64_t *back = (const uint64_t *)(void *)a.back;
        const int *iv = (const int *)(void *)(sym + W_I);
        int ok = 1;

        PT_CHECK_EQ("gshmem_int_p into a registered buffer", (long long)prev + 200,
                    (long long)*(int *)(void *)(sym + W_P));
        PT_CHECK_EQ("gshmem_uint64_atomic_fetch_add on a registered buffer (old)", 0,
                    (long long)back[0]);
        PT_CHECK_EQ("gshmem_uint64_atomic_fetch_add on a registered buffer (new)",
                    (long long)prev + 1, (long long)*(uint64_t *)(void *)(sym + W_AMO));
        PT_CHECK_EQ("gshmem_int_iput into a registered buffer [0]", (long long)prev + 300,
                    (long long)iv[0]);
        PT_CHECK_EQ("gshmem_int_iput into a registered buffer [2]", (long long)prev + 400,
                    (long long)iv[2]);
        PT_CHECK_EQ("gshmem_signal_wait_until on a registered buffer", (long long)prev + 1,
                    (long long)back[1]);
        for (int i = 0; i < 16; i++)
            ok = ok && sym[W_DATA + i] == (unsigned char)(prev * 16 + i);
        PT_CHECK_EQ("gshmem_putmem_signal's data in a registered buffer", 1, ok);
        PT_CHECK_EQ("gshmem_ptr of this PE's registered buffer", 1, (long long)back[2]);
    }
    DT_LAUNCH(sym_g_kernel, 1, 1, a);
    PT_CHECK_EQ("gshmem_int_g from a registered buffer", (long long)dt_me + 200,
                (long long)((const uint64_t *)(void *)a.back)[3]);
    shmem_barrier_all();
    free(a.local);
    free(a.back);
#endif

    /* a second buffer beside the first, then both away, and a slot again */
    buf2 = memfd_buffer(64, 0, &fd2, &map2, &map2_len);
    sym2 = (unsigned char *)gshmemx_buffer_register_symmetric(buf2, 64, 0);
    PT_CHECK_EQ("gshmemx_buffer_register_symmetric (second)", (long long)(uintptr_t)buf2,
                (long long)(uintptr_t)sym2);
    shmem_int_p((int *)(void *)buf2, dt_me + 100, a.next);
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_int_p into the second buffer", (long long)prev + 100,
                (long long)*(int *)(void *)buf2);
    PT_CHECK_EQ("gshmemx_buffer_unregister_symmetric", 0,
                gshmemx_buffer_unregister_symmetric(buf, N));
    PT_CHECK_EQ("gshmemx_buffer_unregister_symmetric (second)", 0,
                gshmemx_buffer_unregister_symmetric(buf2, 64));
    /* NVSHMEM 3.8's form: the preferred address is a hint gshmem cannot use */
    sym = (unsigned char *)gshmemx_buffer_register_symmetric_at_preferred_address(
        buf, N, (void *)(uintptr_t)0x7e0000000000ull, 0);
    PT_CHECK_EQ("gshmemx_buffer_register_symmetric_at_preferred_address (again)",
                (long long)(uintptr_t)buf, (long long)(uintptr_t)sym);
    shmem_char_p((char *)sym + 1, (char)(dt_me + 7), a.next);
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_char_p after registering again", (long long)prev + 7, (long long)sym[1]);
    /* left registered: shmem_finalize releases it */
    free(got);
    munmap(map2, map2_len);
    close(fd2);
    return dt_finish();
}
