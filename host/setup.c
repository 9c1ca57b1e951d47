/* host/setup.c - Library Setup, Exit, and Query Routines; Thread Support. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pshmem_init(void)
{
    gsi_init("shmem_init", SHMEM_THREAD_SINGLE, NULL, NULL);
}
GSI_ALIAS(shmem_init)

int pshmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        gsi_fatal("shmem_init_thread",
                  "requested thread level %d is not one of "
                  "SHMEM_THREAD_SINGLE..SHMEM_THREAD_MULTIPLE",
                  requested);
    gsi_init("shmem_init_thread", requested, NULL, NULL);
    /* Every level is supported: the P2P path takes no lock and shares no
     * state between threads but the allocator, which has its own. */
    if (provided)
        *provided = gsi_pe.thread_level;
    return 0;
}
GSI_ALIAS(shmem_init_thread)

void pshmem_query_thread(int *provided)
{
    gsi_check_init("shmem_query_thread");
    *provided = gsi_pe.thread_level;
}
GSI_ALIAS(shmem_query_thread)

/* start_pes's implicit finalize, at exit: "the OpenSHMEM library is
 * implicitly finalized when the program exits", collectively, with the
 * barrier of shmem_finalize.  Without it the launcher sees a process that
 * initialized and left without finalizing, and fails the job.  Nothing is
 * left to do when the program called shmem_finalize itself; a program that
 * also called shmem_init is finalized whole. */
static void finalize_at_exit(void)
{
    while (gsi_pe.init_count > 0)
        gsi_finalize("start_pes (its implicit shmem_finalize at exit)");
}

void pstart_pes(int npes)
{
    static int registered;

    (void)npes; /* ignored, as the specification says */
    /* start_pes may be called again with no effect. */
    if (gsi_pe.init_count != 0)
        return;
    gsi_init("start_pes", SHMEM_THREAD_SINGLE, NULL, NULL);
    /* Registered after init, so that it runs before the exit handlers of
     * what init started (exit runs them in reverse order). */
    if (!registered && atexit(finalize_at_exit) != 0)
        GSI_WARN("start_pes: cannot register the implicit shmem_finalize at exit");
    registered = 1;
}
GSI_ALIAS(start_pes)

void pshmem_finalize(void)
{
    gsi_finalize("shmem_finalize");
}
GSI_ALIAS(shmem_finalize)

void pshmem_query_initialized(int *initialized)
{
    *initialized = gsi_pe.init_count > 0;
}
GSI_ALIAS(shmem_query_initialized)

void pshmem_global_exit(int status)
{
    gsi_global_exit(status);
}
GSI_ALIAS(shmem_global_exit)

int pshmem_my_pe(void)
{
    gsi_check_init("shmem_my_pe");
    return gsi_pe.my_pe;
}
GSI_ALIAS(shmem_my_pe)

int pshmem_n_pes(void)
{
    gsi_check_init("shmem_n_pes");
    return gsi_pe.n_pes;
}
GSI_ALIAS(shmem_n_pes)

int p_my_pe(void)
{
    gsi_check_init("_my_pe");
    return gsi_pe.my_pe;
}
GSI_ALIAS(_my_pe)

int p_num_pes(void)
{
    gsi_check_init("_num_pes");
    return gsi_pe.n_pes;
}
GSI_ALIAS(_num_pes)

int pshmem_pe_accessible(int pe)
{
    gsi_check_init("shmem_pe_accessible");
    return pe >= 0 && pe < gsi_pe.n_pes;
}
GSI_ALIAS(shmem_pe_accessible)

int pshmem_addr_accessible(const void *addr, int pe)
{
    size_t offset;

    gsi_check_init("shmem_addr_accessible");
    return pe >= 0 && pe < gsi_pe.n_pes && gsi_region_of(addr, 1, &offset) >= 0;
}
GSI_ALIAS(shmem_addr_accessible)

void *pshmem_ptr(const void *dest, int pe)
{
    size_t offset;
    int r;

    gsi_check_init("shmem_ptr");
    if (pe < 0 || pe >= gsi_pe.n_pes)
        return NULL;
    r = gsi_region_of(dest, 1, &offset);
    if (r < 0 || !gsi_pe.region[r].peer[pe])
        return NULL;
    return (void *)(gsi_pe.region[r].peer[pe] + offset);
}
GSI_ALIAS(shmem_ptr)

void *pshmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    gsi_check_init("shmem_team_ptr");
    team = gsi_team_check("shmem_team_ptr", team);
    if (team == SHMEM_TEAM_INVALID || pe < 0 || pe >= team->n_pes)
        return NULL;
    return pshmem_ptr(dest, gsi_team_world_pe(team, pe));
}
GSI_ALIAS(shmem_team_ptr)

void pshmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}
GSI_ALIAS(shmem_info_get_version)

void pshmem_info_get_name(char *name)
{
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}
GSI_ALIAS(shmem_info_get_name)

/* The profiling interface: levels 0 (off), 1 (default), 2 (profile); a
 * tool that wraps shmem_pcontrol reads them, the library has no profiler. */
void pshmem_pcontrol(int level, ...)
{
    (void)level;
}
GSI_ALIAS(shmem_pcontrol)
