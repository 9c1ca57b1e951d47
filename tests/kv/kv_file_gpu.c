/*
 * tests/kv/kv_file_gpu.c - the storage tier with a layout in GPU memory,
 * on a stand-in CUDA driver (tests/kv/fake_cuda.c, which
 * tests/kv/kv-file-gpu.sh builds and puts first on LD_LIBRARY_PATH): the
 * layout's memory is "device memory" the CPU cannot touch (PROT_NONE), so
 * a store or load that read or wrote it directly would fault.
 *
 *   staged     stores of scattered blocks and loads into others (through
 *              host memory; with the stand-in cuFile, fake_cufile.c, by
 *              cuFile: then nothing is staged),
 *              buffered and O_DIRECT (the engine GSHMEM_KV_FILE_ENGINE
 *              picks: kv-file-gpu.sh runs io_uring and pread/pwrite), from
 *              a layout whose regions are not page aligned (the staging
 *              buffer is): every byte checked, and the bytes the driver
 *              copied each way are the request's;
 *   refused    a read or write between PEs and a block store put with
 *              the GPU layout (GSHMEM_KV_ERR_UNSUPPORTED and a line), a
 *              layout of GPU and host regions (GSHMEM_KV_ERR_INVALID).
 * On a real driver (no stand-in's hooks, a device present: the GPU kit,
 * tests/gpu/kit.sh) the same checks run on memory from cuMemAlloc: the
 * test copies the pattern in and the result out itself, and the driver's
 * byte counts are not known (those checks are left out).
 * One PE.  Exit status: 0 pass, 1 fail, 77 without a driver.
 */
#include "kv_file_test.h"

#include <dlfcn.h>
#include <sys/mman.h>

#define L_ 2
#define R_ 2
#define NB 16
#define BB 4096 /* O_DIRECT's multiple; the regions are not page aligned (the memory side) */

static void (*dev_set)(void *, size_t);
static void (*dev_touch)(int);
static size_t (*dev_bytes)(int);
static size_t (*gds_bytes)(void); /* the stand-in cuFile's, when it is there */

/* The real driver's calls (real mode): the pool's host memory p.mem is the
 * mirror of device memory at dev, and the layout's bases point there. */
typedef int (*cu_init_t)(unsigned);
typedef int (*cu_dev_get_t)(int *, int);
typedef int (*cu_ctx_retain_t)(void **, int);
typedef int (*cu_ctx_set_t)(void *);
typedef int (*cu_alloc_t)(uintptr_t *, size_t);
typedef int (*cu_dtoh_t)(void *, uintptr_t, size_t);
typedef int (*cu_htod_t)(uintptr_t, const void *, size_t);
static struct {
    int on;
    uintptr_t dev;
    unsigned char *mirror;
    size_t len;
    cu_dtoh_t dtoh;
    cu_htod_t htod;
} real;

static void real_touch(int on);

/* The pattern to the device (real_init moved the pool's bases there). */
static void real_set(void *base, size_t len)
{
    (void)base, (void)len;
    real_touch(0);
}

static void real_touch(int on)
{
    int e = on ? real.dtoh(real.mirror, real.dev, real.len)
               : real.htod(real.dev, real.mirror, real.len);

    if (e != 0) {
        fprintf(stderr, "kv_file_gpu: cuMemcpy%s failed (CUDA error %d)\n",
                on ? "DtoH" : "HtoD", e);
        exit(1);
    }
}

static size_t real_bytes(int device_bound)
{
    (void)device_bound;
    return 0;
}

/* A real driver with a device: the pool's bytes go to cuMemAlloc'd memory
 * and its bases point there.  0 when there is none (no driver, no device). */
static int real_init(void *cu, kf_pool_t *p)
{
    cu_init_t init = (cu_init_t)dlsym(cu, "cuInit");
    cu_dev_get_t dev_get = (cu_dev_get_t)dlsym(cu, "cuDeviceGet");
    cu_ctx_retain_t retain = (cu_ctx_retain_t)dlsym(cu, "cuDevicePrimaryCtxRetain");
    cu_ctx_set_t set = (cu_ctx_set_t)dlsym(cu, "cuCtxSetCurrent");
    cu_alloc_t alloc = (cu_alloc_t)dlsym(cu, "cuMemAlloc_v2");
    void *ctx = NULL;
    int dev = 0;

    real.dtoh = (cu_dtoh_t)dlsym(cu, "cuMemcpyDtoH_v2");
    real.htod = (cu_htod_t)dlsym(cu, "cuMemcpyHtoD_v2");
    if (!init || !dev_get || !retain || !set || !alloc || !real.dtoh || !real.htod ||
        init(0) != 0 || dev_get(&dev, 0) != 0 || retain(&ctx, dev) != 0 || set(ctx) != 0 ||
        alloc(&real.dev, p->size) != 0)
        return 0;
    real.on = 1, real.mirror = p->mem, real.len = p->size;
    for (int i = 0; i < p->n_layers * p->rpl; i++)
        p->base[i] = (unsigned char *)real.dev + ((unsigned char *)p->base[i] - p->mem);
    dev_set = real_set, dev_touch = real_touch, dev_bytes = real_bytes;
    return 1;
}

/* Byte k of block b of region r of layer l, as the test reads it: in
 * real mode, the host mirror of the device's bytes. */
static unsigned char *at(const kf_pool_t *p, int l, int r, int64_t b, size_t k)
{
    unsigned char *a = kf_at(p, l, r, b, k);

    return real.on ? real.mirror + (a - (unsigned char *)real.dev) : a;
}

static size_t gds_moved(void)
{
    return gds_bytes ? gds_bytes() : 0;
}

static unsigned char pat(int l, int r, int64_t b, size_t k)
{
    return (unsigned char)(l * 31 + r * 17 + b * 7 + (int64_t)k + (int64_t)(k >> 8));
}

static void one(gshmem_kv_t *kv, int id, kf_pool_t *p, const char *dir, const char *what,
                unsigned flags)
{
    static const int64_t from[] = {1, 2, 3, 9, 12}, into[] = {4, 5, 6, 13, 15};
    gshmem_kv_file_opts_t o = {GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE | flags,
                               (size_t)(L_ * R_) * 4096, 64 * (uint64_t)(L_ * R_) * 4096, 0};
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_file_t *f = NULL;
    gshmem_kv_req_t req;
    char path[400];
    size_t h0 = dev_bytes(0), d0 = dev_bytes(1), g0 = gds_moved(),
           want = 5 * L_ * R_ * (size_t)BB, staged = gds_bytes ? 0 : want;
    int bad = 0;

    snprintf(path, sizeof path, "%s/%s", dir, what);
    KT_OK(gshmem_kv_file_open(kv, path, &o, &f));
    if (f == NULL)
        return;
    /* Blocks from[] into slots into[]: O_DIRECT takes them though the
     * regions are 8 bytes past a page (the staging buffer is aligned). */
    x.layout = id, x.n_layers = L_, x.n = 5, x.local_blocks = from, x.remote_blocks = into;
    KT_OK(gshmem_kv_file_store(kv, f, &x, &req));
    KT_OK(kf_wait_free(kv, req));
    /* Staged, or by cuFile (no copy through host memory): counted by the
     * stand-in alone. */
    if (!real.on) {
        PT_CHECK_EQ("bytes copied from the device for the store", staged, dev_bytes(0) - h0);
        PT_CHECK_EQ("bytes cuFile wrote", want - staged, gds_moved() - g0);
    }
    /* Slots into[] back into blocks into[]. */
    x.local_blocks = into, x.remote_blocks = into;
    KT_OK(gshmem_kv_file_load(kv, f, &x, &req));
    KT_OK(kf_wait_free(kv, req));
    if (!real.on) {
        PT_CHECK_EQ("bytes copied to the device for the load", staged, dev_bytes(1) - d0);
        PT_CHECK_EQ("bytes cuFile moved, both ways", 2 * (want - staged), gds_moved() - g0);
    }
    KT_OK(gshmem_kv_file_close(kv, f));
    dev_touch(1);
    for (int l = 0; l < L_; l++)
        for (int r = 0; r < R_; r++)
            for (int i = 0; i < 5; i++)
                for (size_t k = 0; k < BB; k++)
                    bad += *at(p, l, r, into[i], k) != pat(l, r, from[i], k);
    /* And put the blocks loaded into back to their own pattern. */
    for (int l = 0; l < L_; l++)
        for (int r = 0; r < R_; r++)
            for (int i = 0; i < 5; i++)
                for (size_t k = 0; k < BB; k++)
                    *at(p, l, r, into[i], k) = pat(l, r, into[i], k);
    dev_touch(0);
    PT_CHECK_EQ_F(what, 0, bad,
                  "bytes that differ after the store and load through the GPU path");
}

int main(void)
{
    void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    gshmem_kv_t *kv = NULL;
    kf_pool_t p, host;
    char dir[300];
    int id = -1, id2 = -1, fake;

    PT_START();
    if (!cu)
        return pt_skip("no libcuda.so.1 (tests/kv/kv-file-gpu.sh builds a stand-in)");
    fake = (dev_set = (void (*)(void *, size_t))dlsym(cu, "fake_cuda_device")) &&
           (dev_touch = (void (*)(int))dlsym(cu, "fake_cuda_touch")) &&
           (dev_bytes = (size_t(*)(int))dlsym(cu, "fake_cuda_bytes"));
    kf_pool_init(&p, L_, R_, NB, BB, 8); /* regions 8 bytes past a page */
    for (int l = 0; l < L_; l++)
        for (int r = 0; r < R_; r++)
            for (int64_t b = 0; b < NB; b++)
                for (size_t k = 0; k < BB; k++)
                    *kf_at(&p, l, r, b, k) = pat(l, r, b, k);
    if (!fake && !real_init(cu, &p))
        return pt_skip("libcuda.so.1 is neither the stand-in nor a driver with a device");
    {
        void *gds = dlopen("libcufile.so.0", RTLD_NOW | RTLD_GLOBAL);

        gds_bytes = gds ? (size_t(*)(void))dlsym(gds, "fake_cufile_bytes") : NULL;
        printf("kv_file_gpu: %s driver, %s\n", fake ? "the stand-in" : "a real",
               gds_bytes ? "cuFile (the stand-in)"
               : gds     ? "a cuFile library"
                         : "staged, no cuFile");
    }
    KT_OK(gshmem_kv_create(NULL, &kv));
    dev_set(p.mem, p.size); /* device memory from here (the stand-in: PROT_NONE) */
    KT_OK(gshmem_kv_layout_register(kv, &p.layout, &id));
    if (kf_tmpdir("/var/tmp", dir, sizeof dir) == NULL)
        return pt_skip("no scratch directory under /var/tmp");
    one(kv, id, &p, dir, "buffered", 0);
    one(kv, id, &p, dir, "direct", GSHMEM_KV_FILE_DIRECT);
    {
        gshmem_kv_xfer_t x = {0};
        int64_t b0 = 0;
        gshmem_kv_req_t req;

        x.layout = id, x.pe = 0, x.n_layers = 1, x.n = 1, x.local_blocks = &b0;
        EXPECT_ERR(gshmem_kv_write(kv, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED, "GPU memory");
        EXPECT_ERR(gshmem_kv_read(kv, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED, "GPU memory");
    }
    {
        gshmem_kv_store_opts_t so = {GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE,
                                     (size_t)(L_ * R_) * BB, 16};
        gshmem_kv_store_t *st = NULL;
        gshmem_kv_key_t key = {{1}};
        gshmem_kv_xfer_t x = {0};
        int64_t b0 = 0;
        gshmem_kv_req_t req;
        char sdir[400];

        snprintf(sdir, sizeof sdir, "%s/store", dir);
        KT_OK(gshmem_kv_store_open(kv, sdir, &so, &st));
        x.layout = id, x.n_layers = L_, x.n = 1, x.local_blocks = &b0;
        if (st) {
            EXPECT_ERR(gshmem_kv_store_put(kv, st, &key, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
                       "GPU memory");
            KT_OK(gshmem_kv_store_close(kv, st));
        }
    }
    /* Regions of both kinds in one layout. */
    kf_pool_init(&host, L_, R_, NB, BB, 0);
    host.base[1] = p.base[1];
    EXPECT_ERR(gshmem_kv_layout_register(kv, &host.layout, &id2), GSHMEM_KV_ERR_INVALID,
               "GPU memory and the others host memory");
    KT_OK(gshmem_kv_destroy(kv));
    kf_tmpdir_done(dir);
    return pt_finish();
}
