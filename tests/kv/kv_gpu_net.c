/*
 * tests/kv/kv_gpu_net.c - layouts in GPU memory between PEs and with peers
 * outside the job, on the stand-in CUDA driver (tests/kv/fake_cuda.c,
 * which tests/kv/kv-file-gpu.sh builds and puts first on LD_LIBRARY_PATH)
 * and a UCX built without CUDA (Debian's): what must be refused is, with
 * the line that names the side and the cause, and a GPU layout in a blob
 * takes nothing from the host layouts beside it.
 *
 * Two engines of one process stand for two processes: engine a has layout
 * 0 in "device memory" (PROT_NONE: a CPU copy of it would fault) and
 * layout 1 in host memory; engine b has both in host memory.  Each adds
 * the other's blob, by the same-host copy path and (GSHMEM_KV_DIRECT=0) by
 * UCX endpoints:
 *   between PEs   a's GPU layout 0 is off the device heap: refused;
 *   a -> b        layout 0 is GPU memory here, and this UCX moves host
 *                 memory only: refused, naming this process's UCX;
 *   b -> a        a's layout 0 is GPU memory its UCX gave no keys for:
 *                 refused, naming the peer's;
 *   layout 1      read both ways, every byte checked.
 * Where GSHMEM_KV_VERBS is set (the soft-RoCE rig), a third round adds the
 * peers over libgshmem_kv's verbs (the first two run without it): the
 * stand-in exports no dma-buf and nvidia_peermem is not loaded, so a's
 * GPU layout gets no RDMA registration, and
 *   a -> b        refused, with the registration's line;
 *   b -> a        refused: a's blob has no verbs key for it;
 *   layout 1      read both ways over RC QPs, every byte checked;
 *   b -> b        b adds its own blob (a QP to its own listener) and reads
 *                 the upper half of its layout 1's blocks into the lower.
 * One PE, no launcher.  Exit status: 0 pass, 1 fail, 77 without the
 * stand-in driver, without UCX, or with a UCX that has CUDA support (the
 * stand-in cannot serve it).
 */
#include "kv_test.h"

#include <dlfcn.h>
#include <sys/mman.h>

#if __has_include(<ucp/api/ucp.h>)
#include <ucp/api/ucp.h>
#define HAVE_UCP_H 1
#endif

#define NL 2
#define RPL 2
#define NB 8
#define BB 256

/* 1 when the process's UCX (the one libgshmem_kv loaded: its calls found
 * with dlsym, so the test links nothing of UCX's) lists CUDA among its
 * memory types. */
static int ucx_has_cuda(void)
{
#ifdef HAVE_UCP_H
    ucs_status_t (*cfg_read)(const char *, const char *, ucp_config_t **) =
        (ucs_status_t(*)(const char *, const char *, ucp_config_t **))dlsym(RTLD_DEFAULT,
                                                                            "ucp_config_read");
    ucs_status_t (*init)(unsigned, unsigned, const ucp_params_t *, const ucp_config_t *,
                         ucp_context_h *) =
        (ucs_status_t(*)(unsigned, unsigned, const ucp_params_t *, const ucp_config_t *,
                         ucp_context_h *))dlsym(RTLD_DEFAULT, "ucp_init_version");
    ucs_status_t (*query)(ucp_context_h, ucp_context_attr_t *) =
        (ucs_status_t(*)(ucp_context_h, ucp_context_attr_t *))dlsym(RTLD_DEFAULT,
                                                                    "ucp_context_query");
    void (*cleanup)(ucp_context_h) = (void (*)(ucp_context_h))dlsym(RTLD_DEFAULT,
                                                                    "ucp_cleanup");
    void (*release)(ucp_config_t *) = (void (*)(ucp_config_t *))dlsym(RTLD_DEFAULT,
                                                                      "ucp_config_release");
    ucp_params_t p = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_RMA};
    ucp_context_attr_t a = {.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES};
    ucp_config_t *cfg;
    ucp_context_h ctx;
    int yes = 0;

    if (!cfg_read || !init || !query || !cleanup || !release ||
        cfg_read(NULL, NULL, &cfg) != UCS_OK)
        return 0;
    if (init(UCP_API_MAJOR, UCP_API_MINOR, &p, cfg, &ctx) == UCS_OK) {
        yes = query(ctx, &a) == UCS_OK && (a.memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA)) != 0;
        cleanup(ctx);
    }
    release(cfg);
    return yes;
#else
    return 0;
#endif
}

static int add_blob(gshmem_kv_t *from, gshmem_kv_t *to, int *peer)
{
    size_t len = 0;
    void *blob;
    int rc;

    KT_OK(gshmem_kv_local_info(from, NULL, 0, &len));
    blob = malloc(len);
    if (blob == NULL)
        return -1;
    KT_OK(gshmem_kv_local_info(from, blob, len, &len));
    rc = gshmem_kv_peer_add(to, blob, len, peer);
    KT_OK(rc);
    free(blob);
    return rc;
}

/* p's memory moved to pages of their own (mmap), which the stand-in then
 * makes device memory (PROT_NONE: whole pages only). */
static void *dev_pages(kt_pool_t *p)
{
    void *m = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (m == MAP_FAILED) {
        perror("kv_gpu_net: mmap");
        exit(1);
    }
    free(p->mem);
    p->mem = (unsigned char *)m;
    for (int i = 0; i < p->n_layers * p->rpl; i++)
        p->base[i] = p->mem + (size_t)i * p->region;
    return m;
}

/* dst reads every block of layout 1 of src's pool from peer; checked. */
static void read_host(gshmem_kv_t *kv, int peer, kt_pool_t *dst, kt_pool_t *src, int src_tag,
                      const char *what)
{
    int64_t ids[NB];
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_t req;
    unsigned char *exp = (unsigned char *)malloc(dst->size);

    for (int i = 0; i < NB; i++)
        ids[i] = NB - 1 - i; /* reversed: one run per block */
    x.layout = 1, x.pe = peer, x.n_layers = NL, x.n = NB, x.local_blocks = ids;
    kt_fill(dst, 9, 9);
    memcpy(exp, dst->mem, dst->size);
    kt_apply(dst, exp, src, 0, src_tag, &x, ids, ids);
    KT_OK(gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ(what, 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, req));
    kt_check_pool(what, dst, exp);
    free(exp);
}

/* kv reads blocks NB/2.. of its own layout 1 (peer self: its own blob)
 * into blocks 0.. of the same layout; every byte of p checked. */
static void read_self(gshmem_kv_t *kv, int self, kt_pool_t *p)
{
    int64_t lo[NB / 2], hi[NB / 2];
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_t req;
    unsigned char *exp = (unsigned char *)malloc(p->size);

    kt_fill(p, 3, 3);
    memcpy(exp, p->mem, p->size);
    for (int i = 0; i < NB / 2; i++)
        lo[i] = i, hi[i] = NB / 2 + i;
    for (int r = 0; r < NL * RPL; r++) {
        size_t at = (size_t)((unsigned char *)p->base[r] - p->mem);

        memcpy(exp + at, exp + at + (NB / 2) * p->stride, (NB / 2) * p->stride);
    }
    x.layout = 1, x.pe = self, x.n_layers = NL, x.n = NB / 2, x.local_blocks = lo;
    x.remote_blocks = hi;
    KT_OK(gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("b reads its own layout 1 over a QP to itself", 0,
                gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    KT_OK(gshmem_kv_req_free(kv, req));
    kt_check_pool("b reads its own layout 1 over a QP to itself", p, exp);
    free(exp);
}

enum { BY_DIRECT, BY_UCX, BY_VERBS };

static void round_of(int by, const char *verbs)
{
    void (*dev_set)(void *, size_t) = (void (*)(void *, size_t))dlsym(RTLD_DEFAULT,
                                                                      "fake_cuda_device");
    gshmem_kv_t *a = NULL, *b = NULL;
    kt_pool_t dev, ha, hb0, hb1;
    int64_t b0 = 0;
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_t req;
    int id, pa = -1, pb = -1;

    printf("kv_gpu_net: peers by %s\n", by == BY_DIRECT ? "same-host copies"
                                        : by == BY_UCX  ? "UCX endpoints"
                                                        : "verbs");
    setenv("GSHMEM_KV_DIRECT", by == BY_DIRECT ? "1" : "0", 1);
    if (by == BY_VERBS)
        setenv("GSHMEM_KV_VERBS", verbs, 1);
    else
        unsetenv("GSHMEM_KV_VERBS");
    kt_pool_init(&dev, NL, RPL, NB, BB, 0, 0);
    kt_pool_init(&ha, NL, RPL, NB, BB, 0, 0);
    kt_pool_init(&hb0, NL, RPL, NB, BB, 0, 0);
    kt_pool_init(&hb1, NL, RPL, NB, BB, 0, 0);
    kt_fill(&ha, 0, 1);
    kt_fill(&hb1, 0, 2);
    dev_set(dev_pages(&dev), dev.size); /* device memory from here: PROT_NONE */
    KT_OK(gshmem_kv_create(NULL, &a));
    KT_OK(gshmem_kv_create(NULL, &b));
    KT_OK(gshmem_kv_layout_register(a, &dev.layout, &id));
    PT_CHECK_EQ("a's GPU layout id", 0, id);
    KT_OK(gshmem_kv_layout_register(a, &ha.layout, &id));
    KT_OK(gshmem_kv_layout_register(b, &hb0.layout, &id));
    KT_OK(gshmem_kv_layout_register(b, &hb1.layout, &id));
    PT_CHECK_EQ("b's second layout id", 1, id);

    x.layout = 0, x.pe = 0, x.n_layers = 1, x.n = 1, x.local_blocks = &b0;
    EXPECT_ERR(gshmem_kv_read(a, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
               "layout 0 is GPU memory off the device heap");

    if (add_blob(b, a, &pb) != 0 || add_blob(a, b, &pa) != 0)
        goto out;
    x.pe = pb;
    if (by == BY_VERBS) {
        EXPECT_ERR(gshmem_kv_read(a, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
                   "bytes of GPU memory at");
        PT_CHECK("the line names the missing dma-buf",
                 strstr(gshmem_kv_error(), "cuMemGetHandleForAddressRange") != NULL,
                 "cuMemGetHandleForAddressRange");
        x.pe = pa;
        EXPECT_ERR(gshmem_kv_write(b, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
                   "'s blob has no verbs key for region 0 of layout 0 (GPU memory");
        goto host;
    }
    EXPECT_ERR(gshmem_kv_read(a, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
               "layout 0 is GPU memory, and this process's UCX moves host memory only");
    EXPECT_ERR(gshmem_kv_write(a, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
               "this process's UCX moves host memory only");
    x.pe = pa;
    EXPECT_ERR(gshmem_kv_read(b, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
               "'s layout 0 is GPU memory, and its process's UCX moves host memory only");
    EXPECT_ERR(gshmem_kv_write(b, &x, &req), GSHMEM_KV_ERR_UNSUPPORTED,
               "it gave no keys for it");
host:
    /* The host layouts beside it move as ever: b's layout 1 into a's, and
     * back into b's. */
    read_host(a, pb, &ha, &hb1, 2, "a reads b's host layout 1");
    read_host(b, pa, &hb1, &ha, 2, "b reads a's host layout 1 back");
    if (by == BY_VERBS) {
        /* An engine that adds its own blob connects to its own listener
         * (answered while it waits: it holds the lock its thread needs). */
        int self = -1;

        if (add_blob(b, b, &self) == 0)
            read_self(b, self, &hb1);
    }
out:
    KT_OK(gshmem_kv_destroy(a));
    KT_OK(gshmem_kv_destroy(b));
    kt_pool_fini(&ha), kt_pool_fini(&hb0), kt_pool_fini(&hb1);
    munmap(dev.mem, dev.size);
    free(dev.base);
}

int main(void)
{
    void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    size_t len = 0;
    gshmem_kv_t *kv = NULL;
    int rc;

    PT_START();
    if (!cu || !dlsym(cu, "fake_cuda_device"))
        return pt_skip("no stand-in libcuda.so.1 (tests/kv/kv-file-gpu.sh builds one)");
    KT_OK(gshmem_kv_create(NULL, &kv));
    rc = gshmem_kv_local_info(kv, NULL, 0, &len);
    KT_OK(gshmem_kv_destroy(kv));
    if (rc == GSHMEM_KV_ERR_UNSUPPORTED)
        return pt_skip("libgshmem_kv has no UCX");
    if (ucx_has_cuda())
        return pt_skip("this UCX has CUDA support, which the stand-in driver cannot serve");
    {
        const char *v = getenv("GSHMEM_KV_VERBS");
        char *verbs = v && *v && strcmp(v, "off") ? strdup(v) : NULL;

        round_of(BY_DIRECT, NULL);
        round_of(BY_UCX, NULL);
        if (verbs)
            round_of(BY_VERBS, verbs);
        free(verbs);
    }
    return pt_finish();
}
