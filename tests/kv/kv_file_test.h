/*
 * tests/kv/kv_file_test.h - what the storage-tier tests share: a layout
 * whose regions are page aligned (O_DIRECT needs aligned memory), with a
 * page between regions so that no run crosses one, in this PE's private
 * memory; and a scratch directory for the files.
 */
#ifndef KV_FILE_TEST_H
#define KV_FILE_TEST_H

#include "kv_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KF_PAGE 4096

typedef struct kf_pool {
    int n_layers, rpl;
    int64_t n_blocks;
    size_t bytes, region; /* region: n_blocks * bytes + a page */
    unsigned char *mem;
    size_t size;
    void *base[16];
    gshmem_kv_layout_t layout;
} kf_pool_t;

/* shift: bytes the regions start past a page (0; 8 makes them misaligned). */
PT_UNUSED static void kf_pool_init(kf_pool_t *p, int n_layers, int rpl, int64_t n_blocks,
                                   size_t bytes, size_t shift)
{
    memset(p, 0, sizeof *p);
    p->n_layers = n_layers, p->rpl = rpl, p->n_blocks = n_blocks, p->bytes = bytes;
    p->region = (size_t)n_blocks * bytes + KF_PAGE;
    p->size = (size_t)(n_layers * rpl) * p->region;
    if (posix_memalign((void **)&p->mem, KF_PAGE, p->size) != 0) {
        fprintf(stderr, "kv file test: out of memory for %zu bytes\n", p->size);
        exit(1);
    }
    for (int i = 0; i < n_layers * rpl; i++)
        p->base[i] = p->mem + (size_t)i * p->region + shift;
    p->layout.n_layers = n_layers, p->layout.regions_per_layer = rpl;
    p->layout.n_blocks = n_blocks, p->layout.block_bytes = bytes;
    p->layout.region_base = p->base;
}

/* Byte k of block b of region r of layer l. */
PT_UNUSED static unsigned char *kf_at(const kf_pool_t *p, int l, int r, int64_t b, size_t k)
{
    return (unsigned char *)p->base[l * p->rpl + r] + (size_t)b * p->bytes + k;
}

/* A fresh directory under base (/var/tmp: a disk file system, where
 * O_DIRECT works; tmpfs may refuse it). */
PT_UNUSED static char *kf_tmpdir(const char *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s/gshmem-kvfile-XXXXXX", base);
    return mkdtemp(buf);
}

/* dir (a kf_tmpdir) and all under it removed when every check passed;
 * kept, and named, for a look otherwise. */
PT_UNUSED static void kf_tmpdir_done(const char *dir)
{
    char cmd[320];

    if (pt_fails) {
        fprintf(stderr, "%s: kept %s\n", pt_prog, dir);
        return;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "%s: could not remove %s\n", pt_prog, dir);
}

/* The request's end: its status after a wait, and the request freed. */
PT_UNUSED static int kf_wait_free(gshmem_kv_t *kv, gshmem_kv_req_t req)
{
    int rc = gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT);

    gshmem_kv_req_free(kv, req);
    return rc;
}

#endif /* KV_FILE_TEST_H */
