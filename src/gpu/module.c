/* src/gpu/module.c - CUDA modules and libraries the program loaded itself
 * (gshmemx_cumodule_init, gshmemx_culibrary_init; NVSHMEM's names).
 *
 * Why: device code reads the state from gsd_state_d, and a module that was
 * device-linked on its own (a cubin from cuModuleLoad, a library from
 * cuLibraryLoad, or a shared object with its own device link) has its own
 * copy, which no constructor of libgshmem_device.a registered.  The program
 * names the module here; the memory backend fills that copy now and at
 * every later publish (teams), until finalize.  This file keeps which
 * handles are attached, so a double init or a finalize of a handle never
 * initialized is one line instead of a silent no-op. */
#include "gpu/device.h"

#include <pthread.h>

#include "base/log.h"
#include "core/pe.h"
#include "gpu/devmem.h"

#define MAX_ATTACHED 16

static struct {
    pthread_mutex_t lock;
    struct {
        void *handle;
        int library;
    } a[MAX_ATTACHED];
    int n;
} mods = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const char *kind(int library)
{
    return library ? "library" : "module";
}

static int find(void *handle, int library)
{
    for (int i = 0; i < mods.n; i++)
        if (mods.a[i].handle == handle && mods.a[i].library == library)
            return i;
    return -1;
}

void gsi_device_module(const char *fn, int library, void *handle, int attach)
{
    const gsi_devmem_ops_t *mem = gsi_device_mem();
    gsi_status_t status;
    int i;

    if (handle == NULL)
        gsi_fatal(fn, "the CUDA %s handle is NULL", kind(library));
    if (mem == NULL)
        gsi_fatal(fn, "the device API is not up (call shmem_init first)");
    pthread_mutex_lock(&mods.lock);
    i = find(handle, library);
    if (attach && i >= 0) {
        pthread_mutex_unlock(&mods.lock);
        gsi_fatal(fn, "CUDA %s %p is initialized already", kind(library), handle);
    }
    if (!attach && i < 0) {
        pthread_mutex_unlock(&mods.lock);
        gsi_fatal(fn, "CUDA %s %p was not initialized (gshmemx_cu%s_init) or was finalized already",
                  kind(library), handle, kind(library));
    }
    if (attach && mods.n == MAX_ATTACHED) {
        pthread_mutex_unlock(&mods.lock);
        gsi_fatal(fn, "more than %d CUDA modules and libraries initialized", MAX_ATTACHED);
    }
    status = mem->module(fn, library, handle, attach);
    if (status != GSI_OK) {
        pthread_mutex_unlock(&mods.lock);
        gsi_fatal(fn, "cannot give CUDA %s %p the device state (%s memory): %s", kind(library),
                  handle, mem->name, gsi_status_str(status));
    }
    if (attach)
        mods.a[mods.n].handle = handle, mods.a[mods.n++].library = library;
    else
        mods.a[i] = mods.a[--mods.n];
    pthread_mutex_unlock(&mods.lock);
}

void gsi_device_modules_forget(void)
{
    pthread_mutex_lock(&mods.lock);
    mods.n = 0;
    pthread_mutex_unlock(&mods.lock);
}
