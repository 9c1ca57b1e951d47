/* src/base/log.c - log lines and the fatal-error exit. */
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gsi_log_level = GSI_LOG_WARN;

/* The log reads no PE state: the layer that knows the PE number hands it
 * over (so every layer, the bootstrap's callers included, can log). */
static int log_pe = -1;
static void (*exit_hook)(int status);

void gsi_log_set_pe(int pe)
{
    log_pe = pe;
}

void gsi_log_set_exit(void (*hook)(int status))
{
    exit_hook = hook;
}

/* Before the bootstrap is up, name the PE from the launcher's environment. */
static void format_pe(char *buf, size_t len)
{
    const char *rank;

    if (log_pe >= 0) {
        snprintf(buf, len, "%d", log_pe);
        return;
    }
    rank = getenv("PMIX_RANK");
    if (!rank)
        rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank)
        rank = getenv("GSHMEM_UID_RANK"); /* the unique-id bootstrap's env mode */
    snprintf(buf, len, "%s", rank ? rank : "?");
}

static void vlog(const char *fn, const char *fmt, va_list ap)
{
    char line[1024], pe[16];
    int n;

    format_pe(pe, sizeof(pe));
    n = snprintf(line, sizeof(line), "gshmem: PE %s: %s%s", pe, fn ? fn : "", fn ? ": " : "");
    if (n < 0 || (size_t)n >= sizeof(line))
        n = 0;
    vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    /* One write(2) per line keeps lines from several PEs whole. */
    n = (int)strlen(line);
    line[n++] = '\n';
    if (write(STDERR_FILENO, line, (size_t)n) < 0)
        return;
}

void gsi_log(int level, const char *fmt, ...)
{
    va_list ap;

    if (level > gsi_log_level)
        return;
    va_start(ap, fmt);
    vlog(NULL, fmt, ap);
    va_end(ap);
}

void gsi_fatal(const char *fn, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog(fn, fmt, ap);
    va_end(ap);
    if (exit_hook)
        exit_hook(1); /* ends the whole job */
    fflush(NULL);
    _exit(1);
}
