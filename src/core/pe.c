/* src/core/pe.c - this PE's state, and the ends of the argument checks:
 * one line naming the misuse, then the whole job ends. */
#include "core/pe.h"

#include <stdio.h>
#include <unistd.h>

#include "base/log.h"
#include "bootstrap/bootstrap.h"
#include "net/transport.h"

gsi_pe_t gsi_pe = {.my_pe = -1, .region = {{.fd = -1}, {.fd = -1}}};

void gsi_global_exit(int status)
{
    fflush(NULL);
    if (gsi_pe.boot && gsi_pe.my_pe >= 0)
        gsi_pe.boot->abort(status, NULL);
    _exit(status);
}

void gsi_fatal_uninit(const char *fn)
{
    gsi_fatal(fn, "called before shmem_init (or after the last shmem_finalize)");
}

void gsi_fatal_pe(const char *fn, int pe)
{
    gsi_fatal(fn, "PE %d is out of range: the job has PEs 0 to %d", pe, gsi_pe.n_pes - 1);
}

void gsi_fatal_addr(const char *fn, const void *addr, size_t len, int pe)
{
    gsi_fatal(fn,
              "address %p (%zu bytes, for PE %d) is not in symmetric memory: "
              "use a global or static variable or memory from shmem_malloc",
              addr, len, pe);
}

void gsi_fatal_arg(const char *fn, const char *arg, const void *addr, size_t len)
{
    gsi_fatal(fn,
              "%s address %p (%zu bytes) is not in symmetric memory: pass a global or "
              "static variable or memory from shmem_malloc, large enough for the call",
              arg, addr, len);
}

void gsi_fatal_null(const char *fn, const char *what, size_t len)
{
    gsi_fatal(fn, "%s is NULL, with %zu bytes to transfer", what, len);
}

void gsi_fatal_net(const char *fn, gsi_status_t status, int pe)
{
    gsi_fatal(fn, "transport %s, PE %d: %s", gsi_pe.net->name, pe, gsi_status_str(status));
}
