/* libs/kv/kv_direct.c - same-host peers outside the job by
 * process_vm_readv/writev (kv_direct.h says when and why). */
#define _GNU_SOURCE /* process_vm_readv */
#include "kv_direct.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void kv_host_self(kv_host_t *h)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    struct stat st;

    memset(h, 0, sizeof *h);
    if (f) {
        if (!fgets(h->boot, sizeof h->boot, f))
            h->boot[0] = '\0';
        fclose(f);
    }
    h->boot[strcspn(h->boot, "\n")] = '\0';
    if (stat("/proc/self/ns/pid", &st) == 0)
        h->pidns = (uint64_t)st.st_ino;
    h->pid = (int32_t)getpid();
}

int kv_direct_usable(const kv_host_t *h, const void *probe)
{
    const char *e = getenv("GSHMEM_KV_DIRECT");
    kv_host_t me;
    unsigned char byte;
    struct iovec l = {&byte, 1}, r = {(void *)(uintptr_t)probe, 1};

    if (e && strcmp(e, "0") == 0)
        return 0;
    kv_host_self(&me);
    if (!me.boot[0] || memcmp(me.boot, h->boot, sizeof me.boot) != 0 || me.pidns != h->pidns ||
        h->pid <= 0 || !probe)
        return 0;
    return process_vm_readv((pid_t)h->pid, &l, 1, &r, 1, 0) == 1;
}

int kv_direct_flush(kv_batch_t *b)
{
    ssize_t done;
    int n = b->n;

    if (n == 0)
        return 0;
    b->n = 0;
    done = b->is_read
               ? process_vm_readv(b->pid, b->l, (unsigned long)n, b->r, (unsigned long)n, 0)
               : process_vm_writev(b->pid, b->l, (unsigned long)n, b->r, (unsigned long)n, 0);
    if (done < 0)
        return errno;
    /* Short only when a remote range stopped being mapped partway. */
    return (size_t)done == b->bytes ? 0 : EFAULT;
}

int kv_direct_add(kv_batch_t *b, pid_t pid, int is_read, void *local, const void *remote,
                  size_t len)
{
    int e;

    if (b->n && (b->n == KV_IOV || b->pid != pid || b->is_read != is_read) &&
        (e = kv_direct_flush(b)) != 0)
        return e;
    if (b->n == 0)
        b->pid = pid, b->is_read = is_read, b->bytes = 0;
    b->l[b->n] = (struct iovec){local, len};
    b->r[b->n] = (struct iovec){(void *)(uintptr_t)remote, len};
    b->n++, b->bytes += len;
    return 0;
}
