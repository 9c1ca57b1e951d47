/*
 * libs/kv/kv_gds.c - GPUDirect Storage (cuFile) for the pieces of a layout
 * in GPU memory: where libcufile.so.0 opens and its driver starts, the
 * storage tier reads and writes device memory directly (kv_stage.c asks
 * first), else it stages through host memory.  Opened with dlopen, never
 * linked: the same build on hosts with and without it.  The few types of
 * cufile.h used here are restated with their ABI (an enum is an int).
 */
#include "kv_io.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#define KV_CUFILE_HANDLE_TYPE_OPAQUE_FD 1

typedef struct kv_cufile_error {
    int err;    /* CUfileOpError: 0 is CU_FILE_SUCCESS */
    int cu_err; /* CUresult */
} kv_cufile_error_t;

typedef struct kv_cufile_descr {
    int type;
    union {
        int fd;
        void *handle;
    } handle;
    const void *fs_ops;
} kv_cufile_descr_t;

typedef kv_cufile_error_t (*open_fn_t)(void);
typedef kv_cufile_error_t (*reg_fn_t)(void **, kv_cufile_descr_t *);
typedef void (*dereg_fn_t)(void *);
typedef ssize_t (*read_fn_t)(void *, void *, size_t, off_t, off_t);
typedef ssize_t (*write_fn_t)(void *, const void *, size_t, off_t, off_t);

static struct {
    int usable;
    reg_fn_t reg;
    dereg_fn_t dereg;
    read_fn_t read;
    write_fn_t write;
} gds;
static pthread_once_t gds_once = PTHREAD_ONCE_INIT;

static void gds_open(void)
{
    void *h = dlopen("libcufile.so.0", RTLD_NOW | RTLD_LOCAL);
    open_fn_t open_driver;

    if (!h)
        return;
    open_driver = (open_fn_t)dlsym(h, "cuFileDriverOpen");
    gds.reg = (reg_fn_t)dlsym(h, "cuFileHandleRegister");
    gds.dereg = (dereg_fn_t)dlsym(h, "cuFileHandleDeregister");
    gds.read = (read_fn_t)dlsym(h, "cuFileRead");
    gds.write = (write_fn_t)dlsym(h, "cuFileWrite");
    gds.usable = open_driver && gds.reg && gds.dereg && gds.read && gds.write &&
                 open_driver().err == 0;
}

/* f's cuFile handle, registered at the first GPU job (the file's thread);
 * NULL where cuFile is not there or refuses the file. */
static void *handle_of(struct gshmem_kv_file *f)
{
    kv_cufile_descr_t d;

    pthread_once(&gds_once, gds_open);
    if (!gds.usable || f->gds_tried)
        return f->gds;
    f->gds_tried = 1;
    memset(&d, 0, sizeof d);
    d.type = KV_CUFILE_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = f->fd;
    if (gds.reg(&f->gds, &d).err != 0)
        f->gds = NULL;
    return f->gds;
}

void kv_gds_close(struct gshmem_kv_file *f)
{
    if (f->gds)
        gds.dereg(f->gds);
    f->gds = NULL;
    f->gds_tried = 0;
}

int kv_gds_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn)
{
    void *fh = handle_of(f);

    if (!fh)
        return 1; /* not here: the caller stages */
    for (size_t i = 0; i < n; i++)
        while (io[i].done < io[i].len) {
            size_t left = io[i].len - io[i].done;
            off_t off = (off_t)(io[i].off + io[i].done);
            ssize_t got = is_read ? gds.read(fh, io[i].buf, left, off, (off_t)io[i].done)
                                  : gds.write(fh, io[i].buf, left, off, (off_t)io[i].done);

            /* -1 and errno, or a negative CUfileOpError. */
            if (got <= 0)
                return kv_fail(GSHMEM_KV_ERR_IO, fn,
                               "cuFile %s of %zu bytes at offset %llu of %s: %s (%zd)",
                               is_read ? "read" : "write", left, (unsigned long long)off, f->path,
                               got == 0    ? "end of file"
                               : got == -1 ? strerror(errno)
                                           : "cuFile error",
                               got);
            io[i].done += (size_t)got;
        }
    return 0;
}
