/* src/base/env.h - configuration from the environment, generated from env_table.h. */
#ifndef GSI_ENV_H
#define GSI_ENV_H

#include <stddef.h>
#include <stdio.h>
#include "base/env_table.h"
#include "base/status.h"

#define GSI_ENV_CTYPE_SIZE size_t
#define GSI_ENV_CTYPE_INT long long
#define GSI_ENV_CTYPE_BOOL int
#define GSI_ENV_CTYPE_STR const char *
#define GSI_ENV_CTYPE_SECRET const char *

typedef struct gsi_env {
#define GSI_ENV_FIELD(field, type, name, alias, def, min, max, help) GSI_ENV_CTYPE_##type field;
    GSI_ENV_TABLE(GSI_ENV_FIELD)
#undef GSI_ENV_FIELD
} gsi_env_t;

/* SECRET: a STR of the form <a>:<b>:<key> (GSHMEM_UID); gsi_env_print
 * shows "<a>:<b>:<secret>", never the key. */
typedef enum {
    GSI_ENV_SIZE,
    GSI_ENV_INT,
    GSI_ENV_BOOL,
    GSI_ENV_STR,
    GSI_ENV_SECRET
} gsi_env_type_t;

typedef struct gsi_env_desc {
    const char *name;
    const char *alias;
    const char *def;
    const char *help;
    gsi_env_type_t type;
    long long min, max;
    size_t offset;
} gsi_env_desc_t;

extern const gsi_env_desc_t gsi_env_desc[];
extern const size_t gsi_env_count;

/* Parse "512M", "2G", "4096" into bytes. */
gsi_status_t gsi_env_parse_size(const char *text, size_t *bytes);
/* Parse 0/1, yes/no, true/false, on/off. */
gsi_status_t gsi_env_parse_bool(const char *text, int *value);

/* Read every row from `lookup` (getenv when NULL); on a bad value, writes one
 * sentence naming the variable and the accepted range into err. */
gsi_status_t gsi_env_load(gsi_env_t *env, const char *(*lookup)(const char *name), char *err,
                          size_t errlen);

/* The table with defaults, current values and help, one row per variable
 * (SHMEM_INFO, gshmem-info); the secret part of a SECRET value is not shown. */
void gsi_env_print(FILE *out, const gsi_env_t *env);

#endif
