/*
 * libs/kv/kv_stage.c - the storage tier for a layout in GPU memory: the
 * engine (io_uring or pread/pwrite) reads and writes host memory only, so
 * a job's pieces go through an aligned host buffer, copied from the device
 * before a store's writes and to it after a load's reads (kv_cuda.c).  At
 * most KV_STAGE_MAX bytes are staged at a time: a large request goes in
 * rounds of pieces.  Where GPUDirect Storage (cuFile) is there, kv_gds.c
 * moves the pieces between the device and the file with no copy, and
 * nothing is staged.
 */
#include "kv_cuda.h"
#include "kv_io.h"

#include <stdlib.h>
#include <string.h>

#define KV_STAGE_MAX (64u << 20)
#define KV_STAGE_ALIGN 4096 /* every piece's place in the buffer: O_DIRECT's too */

static size_t up(size_t n)
{
    return (n + KV_STAGE_ALIGN - 1) & ~(size_t)(KV_STAGE_ALIGN - 1);
}

/* Pieces io[0 .. n), a round that fits the buffer: copies, the engine,
 * copies; their buf pointers are the device's again on return. */
static int round_trip(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, char *buf,
                      char **dev, const char *fn)
{
    char err[256];
    size_t at = 0;
    int rc;

    for (size_t i = 0; i < n; i++) {
        dev[i] = io[i].buf;
        io[i].buf = buf + at;
        at += up(io[i].len);
        if (!is_read && kv_cuda_to_host(io[i].buf, dev[i], io[i].len, err, sizeof err) != 0) {
            for (size_t k = 0; k <= i; k++)
                io[k].buf = dev[k];
            return kv_fail(GSHMEM_KV_ERR_IO, fn, "staging a GPU block for %s: %s", f->path, err);
        }
    }
    rc = f->eng->run(f, is_read, io, n, fn);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && is_read &&
            kv_cuda_to_device(dev[i], io[i].buf, io[i].len, err, sizeof err) != 0)
            rc = kv_fail(GSHMEM_KV_ERR_IO, fn, "a block read from %s back to the GPU: %s", f->path,
                         err);
        io[i].buf = dev[i];
    }
    return rc;
}

int kv_stage_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn)
{
    size_t cap, total = 0, biggest = 0, i = 0;
    char *buf, **dev;
    int rc = kv_gds_run(f, is_read, io, n, fn);

    if (rc != 1)
        return rc; /* cuFile did it, or failed */
    rc = 0;
    /* The whole job, up to KV_STAGE_MAX; at least its largest piece. */
    for (size_t k = 0; k < n; k++) {
        total += up(io[k].len);
        if (up(io[k].len) > biggest)
            biggest = up(io[k].len);
    }
    cap = total < KV_STAGE_MAX ? total : KV_STAGE_MAX;
    if (cap < biggest)
        cap = biggest;
    buf = (char *)aligned_alloc(KV_STAGE_ALIGN, cap ? cap : KV_STAGE_ALIGN);
    dev = (char **)malloc((n ? n : 1) * sizeof *dev);
    if (!buf || !dev) {
        free(buf), free(dev);
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for a staging buffer of %zu bytes",
                       cap);
    }
    while (i < n && rc == 0) {
        size_t m = 0, bytes = 0;

        /* As many pieces as fit, and at least one. */
        while (i + m < n && (m == 0 || bytes + up(io[i + m].len) <= cap))
            bytes += up(io[i + m].len), m++;
        rc = round_trip(f, is_read, io + i, m, buf, dev, fn);
        i += m;
    }
    free(buf), free(dev);
    return rc;
}
