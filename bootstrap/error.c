/* bootstrap/error.c - the text of the last bootstrap error (gsb_error):
 * bootstraps report failures as -1 and a line their caller prints. */
#include "bootstrap.h"

#include <stdarg.h>
#include <stdio.h>

static char error_text[512];

const char *gsb_error(void)
{
    return error_text;
}

void gsb_set_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(error_text, sizeof(error_text), fmt, ap);
    va_end(ap);
}
