/* src/base/env.c - parse and print the environment table. */
#include "base/env.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const gsi_env_desc_t gsi_env_desc[] = {
#define GSI_ENV_DESC(field, type, name, alias, def, min, max, help) \
    {name, alias, def, help, GSI_ENV_##type, min, max, offsetof(gsi_env_t, field)},
    GSI_ENV_TABLE(GSI_ENV_DESC)
#undef GSI_ENV_DESC
};
const size_t gsi_env_count = sizeof(gsi_env_desc) / sizeof(gsi_env_desc[0]);

gsi_status_t gsi_env_parse_size(const char *text, size_t *bytes)
{
    char *end;
    unsigned long long value, scale = 1;

    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return GSI_ERR_INVALID;
    errno = 0;
    value = strtoull(text, &end, 10);
    if (errno)
        return GSI_ERR_INVALID;
    switch (toupper((unsigned char)*end)) {
    case 'K':
        scale = 1ULL << 10;
        end++;
        break;
    case 'M':
        scale = 1ULL << 20;
        end++;
        break;
    case 'G':
        scale = 1ULL << 30;
        end++;
        break;
    case 'T':
        scale = 1ULL << 40;
        end++;
        break;
    default: break;
    }
    if (scale > 1 && toupper((unsigned char)*end) == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || (value && scale > SIZE_MAX / value))
        return GSI_ERR_INVALID;
    *bytes = (size_t)(value * scale);
    return GSI_OK;
}

gsi_status_t gsi_env_parse_bool(const char *text, int *value)
{
    static const char *const yes[] = {"1", "y", "yes", "true", "on"};
    static const char *const no[] = {"0", "n", "no", "false", "off"};

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (!strcasecmp(text, yes[i])) {
            *value = 1;
            return GSI_OK;
        }
        if (!strcasecmp(text, no[i])) {
            *value = 0;
            return GSI_OK;
        }
    }
    return GSI_ERR_INVALID;
}

static gsi_status_t parse_int(const char *text, long long *value)
{
    char *end;

    errno = 0;
    *value = strtoll(text, &end, 0);
    if (errno || end == text || *end != '\0')
        return GSI_ERR_INVALID;
    return GSI_OK;
}

static const char *lookup_env(const char *name)
{
    return getenv(name);
}

static const char *type_range(const gsi_env_desc_t *d, char *buf, size_t len)
{
    switch (d->type) {
    case GSI_ENV_SIZE:
        snprintf(buf, len,
                 "a size in bytes from %lld to %lld, with an optional K, M, G or T suffix", d->min,
                 d->max);
        break;
    case GSI_ENV_INT: snprintf(buf, len, "an integer from %lld to %lld", d->min, d->max); break;
    case GSI_ENV_BOOL: snprintf(buf, len, "0 or 1 (also yes/no, true/false, on/off)"); break;
    case GSI_ENV_STR:
    case GSI_ENV_SECRET: snprintf(buf, len, "a string"); break;
    }
    return buf;
}

static gsi_status_t load_one(const gsi_env_desc_t *d, const char *text, gsi_env_t *env)
{
    char *slot = (char *)env + d->offset;
    size_t size;
    long long value;
    int flag;

    switch (d->type) {
    case GSI_ENV_SIZE:
        if (gsi_env_parse_size(text, &size) != GSI_OK || (long long)size < d->min ||
            (long long)size > d->max)
            return GSI_ERR_ENV;
        memcpy(slot, &size, sizeof(size));
        return GSI_OK;
    case GSI_ENV_INT:
        if (parse_int(text, &value) != GSI_OK || value < d->min || value > d->max)
            return GSI_ERR_ENV;
        memcpy(slot, &value, sizeof(value));
        return GSI_OK;
    case GSI_ENV_BOOL:
        if (gsi_env_parse_bool(text, &flag) != GSI_OK)
            return GSI_ERR_ENV;
        memcpy(slot, &flag, sizeof(flag));
        return GSI_OK;
    case GSI_ENV_STR:
    case GSI_ENV_SECRET: memcpy(slot, &text, sizeof(text)); return GSI_OK;
    }
    return GSI_ERR_ENV;
}

gsi_status_t gsi_env_load(gsi_env_t *env, const char *(*lookup)(const char *name), char *err,
                          size_t errlen)
{
    gsi_env_t parsed;
    char range[160];

    if (!lookup)
        lookup = lookup_env;
    for (size_t i = 0; i < gsi_env_count; i++) {
        const gsi_env_desc_t *d = &gsi_env_desc[i];
        const char *name = d->name;
        const char *text = lookup(d->name);

        if (!text && d->alias) {
            name = d->alias;
            text = lookup(d->alias);
        }
        if (load_one(d, d->def, &parsed) != GSI_OK) {
            snprintf(err, errlen, "built-in default %s=%s is invalid", d->name, d->def);
            return GSI_ERR_ENV;
        }
        if (text && load_one(d, text, &parsed) != GSI_OK) {
            snprintf(err, errlen, "%s=\"%s\" is invalid: expected %s", name, text,
                     type_range(d, range, sizeof(range)));
            return GSI_ERR_ENV;
        }
    }
    *env = parsed;
    return GSI_OK;
}

static void format_value(const gsi_env_desc_t *d, const gsi_env_t *env, char *buf, size_t len)
{
    const char *slot = (const char *)env + d->offset;
    size_t size;
    long long value;
    int flag;
    const char *text, *colon;

    switch (d->type) {
    case GSI_ENV_SIZE:
        memcpy(&size, slot, sizeof(size));
        snprintf(buf, len, "%zu", size);
        break;
    case GSI_ENV_INT:
        memcpy(&value, slot, sizeof(value));
        snprintf(buf, len, "%lld", value);
        break;
    case GSI_ENV_BOOL:
        memcpy(&flag, slot, sizeof(flag));
        snprintf(buf, len, "%d", flag);
        break;
    case GSI_ENV_STR:
        memcpy(&text, slot, sizeof(text));
        snprintf(buf, len, "%s", text ? text : "");
        break;
    case GSI_ENV_SECRET:
        /* The table goes to logs (SHMEM_INFO) that others may read. */
        memcpy(&text, slot, sizeof(text));
        colon = text ? strchr(text, ':') : NULL;
        colon = colon ? strchr(colon + 1, ':') : NULL;
        if (colon)
            snprintf(buf, len, "%.*s:<secret>", (int)(colon - text), text);
        else
            snprintf(buf, len, "%s", text ? text : "");
        break;
    }
}

void gsi_env_print(FILE *out, const gsi_env_t *env)
{
    char value[64];

    fprintf(out, "%-26s %-8s %-14s %s\n", "variable", "default", "current", "meaning");
    for (size_t i = 0; i < gsi_env_count; i++) {
        const gsi_env_desc_t *d = &gsi_env_desc[i];

        format_value(d, env, value, sizeof(value));
        fprintf(out, "%-26s %-8s %-14s %s%s%s\n", d->name, d->def, value, d->help,
                d->alias ? "; also read as " : "", d->alias ? d->alias : "");
    }
}
