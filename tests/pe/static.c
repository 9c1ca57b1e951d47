/*
 * tests/pe/static.c - global and static variables are symmetric objects:
 * initialized ones (.data) keep their initial values, zeroed ones (.bss)
 * are zero, and both are targets of put, get, p, g, atomics and
 * wait_until; so is a static inside a function and a large static array.
 * Stores by the owner are seen by remote gets, and remote puts by plain
 * loads of the owner.
 */
#include "pe_test.h"

long gx;      /* .bss */
long gy = 42; /* .data */
double gd;
static long arr[64]; /* .bss, static */
static int iarr[16] = {1, 2, 3};
static unsigned char big[1 << 20]; /* a large .bss object: its end must work too */

#define VAL(pe, i) ((long)(pe)*1000 + (i))

static int me, npes, left, right;

static long *func_static(void)
{
    static long fs[8];

    return fs;
}

static void test_initial(void)
{
    int pe;

    PT_CHECK_EQ("static data", 42, gy);
    PT_CHECK_EQ("static data", 3, iarr[2]);
    PT_CHECK_EQ("static data", 0, gx);
    PT_CHECK_EQ("static data", 0, arr[63]);
    PT_CHECK_EQ("static data", 0, big[sizeof big - 1]);
    for (pe = 0; pe < npes; pe++) {
        PT_CHECK_EQ_F("shmem_long_g", 42, shmem_long_g(&gy, pe), "initialized global of PE %d",
                      pe);
        PT_CHECK_EQ_F("shmem_int_g", 2, shmem_int_g(&iarr[1], pe),
                      "initialized static array of PE %d", pe);
    }
    shmem_barrier_all();
}

static void test_rma(void)
{
    long loc[4], got[4];
    int i, k, q;

    for (i = 0; i < 4; i++)
        loc[i] = VAL(me, i);
    for (k = 0; k < npes; k++)
        shmem_long_put(&arr[me * 4], loc, 4, (me + k) % npes);
    shmem_double_p(&gd, 0.5 + me, right);
    shmem_long_p(&func_static()[1], VAL(me, 7), right);
    shmem_putmem(&big[sizeof big - 8], loc, 8, right);
    shmem_barrier_all();
    for (q = 0; q < npes; q++)
        for (i = 0; i < 4; i++)
            PT_CHECK_EQ_F("shmem_long_put", VAL(q, i), arr[q * 4 + i],
                          "static arr[%d] put by PE %d", q * 4 + i, q);
    PT_CHECK_EQ("shmem_double_p", 0.5 + left, gd);
    PT_CHECK_EQ("shmem_long_p", VAL(left, 7), func_static()[1]);
    memcpy(got, &big[sizeof big - 8], 8);
    PT_CHECK_EQ_F("shmem_putmem", VAL(left, 0), got[0], "last 8 bytes of a 1 MiB static array");
    for (k = 0; k < npes; k++) {
        int pe = (me + k) % npes;

        shmem_long_get(got, &arr[4 * ((pe + 1) % npes)], 4, pe);
        for (i = 0; i < 4; i++)
            PT_CHECK_EQ_F("shmem_long_get", VAL((pe + 1) % npes, i), got[i], "arr[%d] of PE %d",
                          4 * ((pe + 1) % npes) + i, pe);
        PT_CHECK_EQ_F("shmem_long_g", VAL((pe + npes - 1) % npes, 7),
                      shmem_long_g(&func_static()[1], pe), "function static of PE %d", pe);
    }
    shmem_barrier_all();
    /* plain stores by the owner, read remotely */
    gx = VAL(me, 99);
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_long_g", VAL(right, 99), shmem_long_g(&gx, right));
    shmem_barrier_all();
}

static void test_atomics(void)
{
    long total = (long)npes * (npes + 1) / 2;
    int k;

    gx = 0;
    func_static()[0] = 0;
    shmem_barrier_all();
    for (k = 0; k < npes; k++) {
        int pe = (me + k) % npes;

        shmem_long_atomic_add(&gx, me + 1, pe);
        shmem_long_atomic_fetch_inc(&func_static()[0], pe);
        shmem_int_atomic_add(&iarr[4], 2, pe);
    }
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_long_atomic_add", total, gx);
    PT_CHECK_EQ("shmem_long_atomic_fetch_inc", npes, func_static()[0]);
    PT_CHECK_EQ("shmem_int_atomic_add", 2 * npes, iarr[4]);
    PT_CHECK_EQ("shmem_long_atomic_fetch", total, shmem_long_atomic_fetch(&gx, right));
    shmem_barrier_all();
}

static void test_wait(void)
{
    iarr[8] = 0;
    arr[60] = 0;
    shmem_barrier_all();
    shmem_int_atomic_set(&iarr[8], 5 + me, right);
    shmem_long_p(&arr[60], VAL(me, 60), right);
    shmem_int_wait_until(&iarr[8], SHMEM_CMP_EQ, 5 + left);
    PT_CHECK_EQ("shmem_int_wait_until", 5 + left, iarr[8]);
    shmem_long_wait_until(&arr[60], SHMEM_CMP_NE, 0);
    PT_CHECK_EQ("shmem_long_wait_until", VAL(left, 60), arr[60]);
    shmem_barrier_all();
}

int main(void)
{
    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    if (npes > 16)
        return pt_skip("more than 16 PEs (arr has 4 words per PE)");

    test_initial();
    test_rma();
    test_atomics();
    test_wait();
    return pt_finish();
}
