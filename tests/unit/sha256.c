/* Unit tests of the bootstrap's SHA-256 and HMAC-SHA256 against the published
 * test vectors (FIPS 180-4's examples, RFC 4231), and of the unique-id
 * handshake's MACs built on them (bootstrap/uid_auth.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "crypto/sha256.h"
#include "bootstrap/uid_int.h"

static void to_hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static void expect_sha(const void *data, size_t len, const char *want)
{
    uint8_t d[GSC_SHA256_BYTES];
    char hex[2 * GSC_SHA256_BYTES + 1];

    gsc_sha256(data, len, d);
    to_hex(d, sizeof(d), hex);
    cr_expect_str_eq(hex, want, "SHA-256 of %zu bytes", len);
}

Test(sha256, fips_180_examples)
{
    expect_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect_sha(
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
        "klmnopqrlmnopqrsmnopqrstnopqrstu",
        112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* A million 'a', fed in uneven pieces so that every path of the block
 * buffer is taken. */
Test(sha256, million_a_in_pieces)
{
    static const size_t pieces[] = {1, 63, 64, 65, 127, 1000, 7};
    char buf[1000];
    uint8_t d[GSC_SHA256_BYTES];
    char hex[2 * GSC_SHA256_BYTES + 1];
    gsc_sha256_t s;
    size_t left = 1000000;

    memset(buf, 'a', sizeof(buf));
    gsc_sha256_init(&s);
    for (size_t i = 0; left > 0; i++) {
        size_t n = pieces[i % (sizeof(pieces) / sizeof(pieces[0]))];

        if (n > left)
            n = left;
        gsc_sha256_update(&s, buf, n);
        left -= n;
    }
    gsc_sha256_final(&s, d);
    to_hex(d, sizeof(d), hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void expect_hmac(const void *key, size_t key_len, const void *data, size_t len,
                        const char *want, int test_case)
{
    uint8_t d[GSC_SHA256_BYTES];
    char hex[2 * GSC_SHA256_BYTES + 1];

    gsc_hmac_sha256(key, key_len, data, len, d);
    to_hex(d, sizeof(d), hex);
    hex[strlen(want)] = '\0'; /* test case 5 gives the first 128 bits only */
    cr_expect_str_eq(hex, want, "RFC 4231 test case %d", test_case);
}

Test(hmac_sha256, rfc_4231)
{
    uint8_t k20[20], k25[25], k131[131], d50[50];
    static const char big_data[] = "This is a test using a larger than block-size key and a "
                                   "larger than block-size data. The key needs to be hashed "
                                   "before being used by the HMAC algorithm.";

    memset(k20, 0x0b, sizeof(k20));
    expect_hmac(k20, 20, "Hi There", 8,
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 1);
    expect_hmac("Jefe", 4, "what do ya want for nothing?", 28,
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 2);
    memset(k20, 0xaa, sizeof(k20));
    memset(d50, 0xdd, sizeof(d50));
    expect_hmac(k20, 20, d50, 50,
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 3);
    for (int i = 0; i < 25; i++)
        k25[i] = (uint8_t)(i + 1);
    memset(d50, 0xcd, sizeof(d50));
    expect_hmac(k25, 25, d50, 50,
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 4);
    memset(k20, 0x0c, sizeof(k20));
    expect_hmac(k20, 20, "Test With Truncation", 20, "a3b6167473100ee06e0c796c2955552b", 5);
    memset(k131, 0xaa, sizeof(k131));
    expect_hmac(k131, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 6);
    expect_hmac(k131, 131, big_data, strlen(big_data),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 7);
}

Test(hmac_sha256, equal_ct)
{
    uint8_t a[32] = {1, 2, 3}, b[32] = {1, 2, 3};

    cr_expect_eq(gsc_equal_ct(a, b, sizeof(a)), 1);
    b[31] ^= 0x80;
    cr_expect_eq(gsc_equal_ct(a, b, sizeof(a)), 0);
    b[31] ^= 0x80;
    b[0] ^= 1;
    cr_expect_eq(gsc_equal_ct(a, b, sizeof(a)), 0);
    cr_expect_eq(gsc_equal_ct(a, b, 0), 1);
}

Test(uid_auth, secret_text)
{
    uint8_t s[GSB_UID_SECRET];

    cr_assert_eq(gsb_auth_parse_secret("00112233445566778899aAbBcCdDeEfF", s), 0);
    cr_expect_eq(s[0], 0x00);
    cr_expect_eq(s[9], 0x99);
    cr_expect_eq(s[15], 0xff);
    cr_expect_neq(gsb_auth_parse_secret("0011223344556677", s), 0, "too short");
    cr_expect_neq(gsb_auth_parse_secret("00112233445566778899aabbccddeeff00", s), 0,
                  "too long");
    cr_expect_neq(gsb_auth_parse_secret("00112233445566778899aabbccddeefg", s), 0, "not hex");
    cr_expect_null(strstr(gsb_error(), "eefg"), "the error repeats the secret: %s",
                   gsb_error());
}

/* The handshake: right secret passes, anything else fails, and a joiner's
 * MAC is no proof of rank 0 (the labels differ). */
Test(uid_auth, handshake_macs)
{
    uint8_t secret[GSB_UID_SECRET], other[GSB_UID_SECRET], challenge[GSB_AUTH_RAND];
    gsb_hello_t joiner = {.magic = GSB_WIRE_MAGIC, .rank = 1, .size = 2, .pid = 42},
                root = {.magic = GSB_WIRE_MAGIC, .rank = 0, .size = 2, .pid = 42}, forged;

    cr_assert_eq(gsb_auth_random(secret, sizeof(secret)), 0);
    cr_assert_eq(gsb_auth_random(challenge, sizeof(challenge)), 0);
    cr_assert_eq(gsb_auth_random(joiner.rand, sizeof(joiner.rand)), 0);
    memcpy(other, secret, sizeof(other));
    other[7] ^= 1;
    strcpy(joiner.host, "node1");
    strcpy(root.host, "node1");

    gsb_auth_join_mac(secret, challenge, &joiner);
    cr_expect_eq(gsb_auth_join_ok(secret, challenge, &joiner), 1);
    cr_expect_eq(gsb_auth_join_ok(other, challenge, &joiner), 0, "another secret");
    challenge[0] ^= 1;
    cr_expect_eq(gsb_auth_join_ok(secret, challenge, &joiner), 0, "another challenge");
    challenge[0] ^= 1;
    joiner.rank = 0;
    cr_expect_eq(gsb_auth_join_ok(secret, challenge, &joiner), 0, "another rank claimed");
    joiner.rank = 1;

    gsb_auth_root_mac(secret, challenge, &joiner, &root);
    cr_expect_eq(gsb_auth_root_ok(secret, challenge, &joiner, &root), 1);
    cr_expect_eq(gsb_auth_root_ok(other, challenge, &joiner, &root), 0, "another secret");
    joiner.rand[5] ^= 1;
    cr_expect_eq(gsb_auth_root_ok(secret, challenge, &joiner, &root), 0,
                 "a proof for another joiner's random");
    joiner.rand[5] ^= 1;

    /* The same fields, the joiner's MAC in rank 0's place. */
    forged = root;
    memcpy(forged.mac, joiner.mac, sizeof(forged.mac));
    cr_expect_eq(gsb_auth_root_ok(secret, challenge, &joiner, &forged), 0,
                 "a joiner's MAC accepted as rank 0's proof");
}
