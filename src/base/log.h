/* src/base/log.h - level-gated logging; every line starts "gshmem: PE <n>: ". */
#ifndef GSI_LOG_H
#define GSI_LOG_H

#include <stdarg.h>

enum { GSI_LOG_ERROR = 0, GSI_LOG_WARN = 1, GSI_LOG_INFO = 2, GSI_LOG_DEBUG = 3 };

extern int gsi_log_level;

void gsi_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The PE number the lines start with (-1: not known yet, taken from the
 * launcher's environment), and how gsi_fatal ends the job (NULL: this
 * process alone exits).  Set by the layer that brings the PE up. */
void gsi_log_set_pe(int pe);
void gsi_log_set_exit(void (*hook)(int status));

/* Report misuse or an unrecoverable failure in routine `fn` as one line,
 * "gshmem: PE 3: shmem_putmem: ...", then end the whole job with status 1
 * (the exit hook). */
_Noreturn void gsi_fatal(const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), cold));

#define GSI_WARN(...) gsi_log(GSI_LOG_WARN, __VA_ARGS__)
#define GSI_INFO(...)                           \
    do {                                        \
        if (gsi_log_level >= GSI_LOG_INFO)      \
            gsi_log(GSI_LOG_INFO, __VA_ARGS__); \
    } while (0)
#define GSI_DEBUG(...)                           \
    do {                                         \
        if (gsi_log_level >= GSI_LOG_DEBUG)      \
            gsi_log(GSI_LOG_DEBUG, __VA_ARGS__); \
    } while (0)

#endif
