/* Unit tests of the environment table and its parsers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/env.h"

Test(env, sizes_accept_suffixes)
{
    struct {
        const char *text;
        size_t bytes;
    } ok[] = {
        {"4096", 4096},     {"512M", 512ULL << 20}, {"2G", 2ULL << 30},   {"1k", 1024},
        {"3T", 3ULL << 40}, {"64MB", 64ULL << 20},  {" 8M ", 8ULL << 20},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        size_t got = 0;

        cr_expect_eq(gsi_env_parse_size(ok[i].text, &got), GSI_OK, "\"%s\" rejected",
                     ok[i].text);
        cr_expect_eq(got, ok[i].bytes, "\"%s\" -> %zu, expected %zu", ok[i].text, got,
                     ok[i].bytes);
    }
}

Test(env, malformed_sizes_are_rejected)
{
    const char *bad[] = {"",      "M",        "12Q", "-5", "1.5G", "99999999999999999999",
                         "5 G x", "20000000T"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t got;

        cr_expect_eq(gsi_env_parse_size(bad[i], &got), GSI_ERR_INVALID, "\"%s\" accepted",
                     bad[i]);
    }
}

Test(env, booleans)
{
    int v;

    cr_expect_eq(gsi_env_parse_bool("yes", &v), GSI_OK);
    cr_expect_eq(v, 1);
    cr_expect_eq(gsi_env_parse_bool("OFF", &v), GSI_OK);
    cr_expect_eq(v, 0);
    cr_expect_eq(gsi_env_parse_bool("maybe", &v), GSI_ERR_INVALID);
}

static const char *fake_value;
static const char *fake_name;
static const char *fake_lookup(const char *name)
{
    return fake_name && !strcmp(name, fake_name) ? fake_value : NULL;
}

Test(env, defaults_load_without_environment)
{
    gsi_env_t env;
    char err[256];

    fake_name = NULL;
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(env.symmetric_size, 512ULL << 20);
    cr_expect_str_eq(env.bootstrap, "auto");
}

/* A PE that waits for a peer that will never come (a skipped barrier, a
 * peer stopped in a debugger and forgotten) ends the job by default
 * after ten minutes instead of hanging it; 0 still means forever. */
Test(env, wait_timeout_defaults_to_600_and_0_disables)
{
    gsi_env_t env;
    char err[256];

    fake_name = NULL;
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(env.wait_timeout, 600);

    fake_name = "GSHMEM_WAIT_TIMEOUT";
    fake_value = "0";
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(env.wait_timeout, 0);
}

Test(env, alias_is_read)
{
    gsi_env_t env;
    char err[256];

    fake_name = "SMA_SYMMETRIC_SIZE";
    fake_value = "64M";
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(env.symmetric_size, 64ULL << 20);
}

Test(env, bad_value_names_variable_and_range)
{
    gsi_env_t env;
    char err[256] = "";

    fake_name = "SHMEM_SYMMETRIC_SIZE";
    fake_value = "12Q";
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_ERR_ENV);
    cr_expect(strstr(err, "SHMEM_SYMMETRIC_SIZE=\"12Q\" is invalid"), "message: %s", err);
    cr_expect(strstr(err, "K, M, G or T"), "message lacks the accepted form: %s", err);

    fake_name = "GSHMEM_WAIT_SPIN";
    fake_value = "-7";
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_ERR_ENV);
    cr_expect(strstr(err, "from -1 to"), "message lacks the range: %s", err);
}

Test(env, every_row_is_documented)
{
    for (size_t i = 0; i < gsi_env_count; i++) {
        cr_expect(strlen(gsi_env_desc[i].help) > 10, "%s has no help", gsi_env_desc[i].name);
        cr_expect(!strncmp(gsi_env_desc[i].name, "SHMEM_", 6) ||
                      !strncmp(gsi_env_desc[i].name, "GSHMEM_", 7),
                  "%s lacks a prefix", gsi_env_desc[i].name);
    }
}

/* SHMEM_INFO's table goes to logs: GSHMEM_UID's secret must not be in it. */
Test(env, secret_is_not_printed)
{
    static const char key[] = "00112233445566778899aabbccddeeff";
    char uid[64], *text = NULL, err[256];
    size_t len = 0;
    gsi_env_t env;
    FILE *out;

    snprintf(uid, sizeof(uid), "10.0.0.1:5000:%s", key);
    fake_name = "GSHMEM_UID";
    fake_value = uid;
    cr_assert_eq(gsi_env_load(&env, fake_lookup, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_str_eq(env.uid, uid, "the library reads the whole value");
    out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    gsi_env_print(out, &env);
    fclose(out);
    cr_expect_null(strstr(text, key), "the table shows the secret:\n%s", text);
    cr_expect_not_null(strstr(text, "10.0.0.1:5000:<secret>"),
                       "the table lacks the address:\n%s", text);
    free(text);
}
