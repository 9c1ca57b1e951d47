/* Unit tests of the verbs transport's GPU-heap registration
 * (src/net/verbs/verbs_dmabuf.c): the CUDA driver's dma-buf export and
 * libibverbs' registrations are fakes, so what the code asks of them (the
 * handle type, the IOVA, closing the fd) and the line it writes when they
 * refuse are checked without a GPU or an RDMA device. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "net/verbs/verbs_dmabuf.h"
#include "net/verbs/verbs_state.h"

static struct ibv_mr fake_mr;
static int driver_rc, driver_type = -1, dmabuf_ok, dmabuf_fd = -1, export_fd = -1;
static unsigned long long driver_ptr;
static uint64_t dmabuf_iova, dmabuf_offset;
static size_t dmabuf_len;

static int fake_get_handle(void *handle, unsigned long long dptr, size_t size, int type,
                           unsigned long long flags)
{
    (void)size, (void)flags;
    driver_ptr = dptr;
    driver_type = type;
    if (driver_rc == 0) {
        export_fd = open("/dev/null", O_RDONLY);
        *(int *)handle = export_fd;
    }
    return driver_rc;
}

struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
                                 uint64_t iova, int fd, int access)
{
    (void)pd, (void)access;
    dmabuf_offset = offset;
    dmabuf_len = length;
    dmabuf_iova = iova;
    dmabuf_fd = fd;
    return dmabuf_ok ? &fake_mr : NULL;
}

/* ibv_reg_mr is reached only through nvidia_peermem, which these hosts lack. */
#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
    (void)pd, (void)addr, (void)length, (void)access;
    return NULL;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
                                unsigned int access)
{
    (void)pd, (void)addr, (void)length, (void)iova, (void)access;
    return NULL;
}

static void no_peermem(void)
{
    if (access("/sys/module/nvidia_peermem", F_OK) == 0 ||
        access("/sys/module/nv_peer_mem", F_OK) == 0)
        cr_skip_test("nvidia_peermem is loaded here");
    driver_rc = 0;
    dmabuf_ok = 1;
    export_fd = dmabuf_fd = -1;
}

Test(verbs_dmabuf, registers_the_exported_fd_at_the_heaps_own_address, .init = no_peermem)
{
    char err[256] = "", heap[64];
    struct ibv_mr *mr;

    gst_verbs_dmabuf_set_driver(fake_get_handle);
    mr = gst_verbs_reg_cuda(NULL, heap, sizeof(heap), 7, err, sizeof(err));
    cr_expect_eq(mr, &fake_mr, "err: %s", err);
    cr_expect_eq(driver_type, 1, "handle type %d, want CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD (1)",
                 driver_type);
    cr_expect_eq(driver_ptr, (unsigned long long)(uintptr_t)heap);
    cr_expect_eq(dmabuf_fd, export_fd, "registered fd %d, exported %d", dmabuf_fd, export_fd);
    cr_expect_eq(dmabuf_offset, 0);
    cr_expect_eq(dmabuf_len, sizeof(heap));
    cr_expect_eq(dmabuf_iova, (uint64_t)(uintptr_t)heap, "the IOVA is the symmetric address");
    cr_expect_eq(fcntl(export_fd, F_GETFD), -1, "the exported fd is closed after registration");
}

Test(verbs_dmabuf, a_refused_export_names_the_cuda_error, .init = no_peermem)
{
    char err[256] = "", heap[64];

    driver_rc = 801; /* CUDA_ERROR_NOT_SUPPORTED */
    gst_verbs_dmabuf_set_driver(fake_get_handle);
    cr_expect_null(gst_verbs_reg_cuda(NULL, heap, sizeof(heap), 7, err, sizeof(err)));
    cr_expect(strstr(err, "cuMemGetHandleForAddressRange(DMA_BUF_FD) failed (CUDA error 801)"),
              "err: %s", err);
    cr_expect(strstr(err, "nvidia_peermem is not loaded"), "err: %s", err);
    cr_expect_eq(dmabuf_fd, -1, "nothing registered");
}

Test(verbs_dmabuf, a_refused_registration_closes_the_fd_and_says_so, .init = no_peermem)
{
    char err[256] = "", heap[64];

    dmabuf_ok = 0;
    gst_verbs_dmabuf_set_driver(fake_get_handle);
    cr_expect_null(gst_verbs_reg_cuda(NULL, heap, sizeof(heap), 7, err, sizeof(err)));
    cr_expect(strstr(err, "ibv_reg_dmabuf_mr of 64 bytes failed"), "err: %s", err);
    cr_expect_eq(fcntl(export_fd, F_GETFD), -1, "the exported fd is closed");
}

Test(verbs_dmabuf, a_driver_without_the_export_is_not_registrable, .init = no_peermem)
{
    char why[256] = "", err[256] = "", heap[64];

    gst_verbs_dmabuf_set_driver(NULL);
    cr_expect_eq(gst_verbs_cuda_registrable(why, sizeof(why)), 0);
    cr_expect(strstr(why, "exports no dma-buf"), "why: %s", why);
    cr_expect_null(gst_verbs_reg_cuda(NULL, heap, sizeof(heap), 7, err, sizeof(err)));
    cr_expect(strstr(err, "has no cuMemGetHandleForAddressRange"), "err: %s", err);
}

Test(verbs_dmabuf, a_driver_with_the_export_is_registrable, .init = no_peermem)
{
    char why[256] = "";

    gst_verbs_dmabuf_set_driver(fake_get_handle);
    cr_expect_eq(gst_verbs_cuda_registrable(why, sizeof(why)), 1, "why: %s", why);
}
