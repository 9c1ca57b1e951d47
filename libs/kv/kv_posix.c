/*
 * libs/kv/kv_posix.c - the storage tier's pread/pwrite engine: each run
 * one call, repeated from where a short one stopped.  Used where the
 * library has no liburing, where the kernel refuses io_uring (seccomp's
 * EPERM, ENOSYS) and under GSHMEM_KV_FILE_ENGINE=posix.
 */
#include "kv_io.h"

#include <errno.h>
#include <unistd.h>

static int posix_open(struct gshmem_kv_file *f)
{
    (void)f;
    return 0;
}

static int posix_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn)
{
    for (size_t i = 0; i < n; i++) {
        kv_io_t *o = &io[i];

        while (o->done < o->len) {
            ssize_t k =
                is_read
                    ? pread(f->fd, o->buf + o->done, o->len - o->done, (off_t)(o->off + o->done))
                    : pwrite(f->fd, o->buf + o->done, o->len - o->done, (off_t)(o->off + o->done));

            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                return kv_io_fail(f, fn, is_read, o, errno);
            /* 0: end of file on a read; a write that moves nothing would
             * loop forever, so it is the no-space failure it stands for. */
            if (k == 0)
                return kv_io_fail(f, fn, is_read, o, is_read ? 0 : ENOSPC);
            o->done += (size_t)k;
        }
    }
    return 0;
}

static void posix_close(struct gshmem_kv_file *f)
{
    (void)f;
}

const kv_io_engine_t kv_io_posix = {"pread/pwrite", posix_open, posix_run,  NULL,
                                    NULL,           NULL,       posix_close};
