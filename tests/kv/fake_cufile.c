/*
 * tests/kv/fake_cufile.c - a stand-in for GPUDirect Storage's libcufile.so.0,
 * beside fake_cuda.c (tests/kv/kv-file-gpu.sh builds both): reads and
 * writes the stand-in driver's "device memory" with pread/pwrite through
 * an aligned buffer of its own (the file may be O_DIRECT), unlocking that
 * memory only around its copies as the driver's do, and counts its bytes.
 * Only what libs/kv/kv_gds.c calls, with cufile.h's ABI.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef struct fake_err {
    int err, cu_err;
} fake_err_t;

typedef struct fake_descr {
    int type;
    union {
        int fd;
        void *handle;
    } handle;
    const void *fs_ops;
} fake_descr_t;

static size_t moved;
static int opened;

size_t fake_cufile_bytes(void)
{
    return moved;
}

fake_err_t cuFileDriverOpen(void)
{
    opened = 1;
    return (fake_err_t){0, 0};
}

fake_err_t cuFileHandleRegister(void **fh, fake_descr_t *d)
{
    if (!opened || d->type != 1) /* CU_FILE_HANDLE_TYPE_OPAQUE_FD */
        return (fake_err_t){5001, 0};
    *fh = (void *)(intptr_t)(d->handle.fd + 1);
    return (fake_err_t){0, 0};
}

void cuFileHandleDeregister(void *fh)
{
    (void)fh;
}

static void touch(int on)
{
    void (*t)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "fake_cuda_touch");

    if (t)
        t(on);
}

static ssize_t io(void *fh, int is_read, char *dev, size_t n, off_t off)
{
    size_t cap = (n + 4095) & ~(size_t)4095;
    char *tmp = aligned_alloc(4096, cap ? cap : 4096);
    ssize_t got;

    if (!tmp)
        return -1;
    if (!is_read) {
        touch(1);
        memcpy(tmp, dev, n);
        touch(0);
    }
    got = is_read ? pread((int)(intptr_t)fh - 1, tmp, n, off)
                  : pwrite((int)(intptr_t)fh - 1, tmp, n, off);
    if (is_read && got > 0) {
        touch(1);
        memcpy(dev, tmp, (size_t)got);
        touch(0);
    }
    free(tmp);
    if (got > 0)
        moved += (size_t)got;
    return got;
}

ssize_t cuFileRead(void *fh, void *base, size_t n, off_t off, off_t base_off)
{
    return io(fh, 1, (char *)base + base_off, n, off);
}

ssize_t cuFileWrite(void *fh, const void *base, size_t n, off_t off, off_t base_off)
{
    return io(fh, 0, (char *)base + base_off, n, off);
}
