/*
 * libs/kv/kv_crc.h - CRC32C (Castagnoli), the block store's checksum of
 * each entry's bytes and of each index record: the SSE4.2 instruction
 * where the CPU has it (about 8 bytes a cycle, far above a disk's rate),
 * a table otherwise; both give the same values.
 */
#ifndef KV_CRC_H
#define KV_CRC_H

#include <stddef.h>
#include <stdint.h>

/* crc continued over buf[0 .. len): start with 0; the CRC of a + b is
 * kv_crc32c(kv_crc32c(0, a), b). */
uint32_t kv_crc32c(uint32_t crc, const void *buf, size_t len);

#endif /* KV_CRC_H */
