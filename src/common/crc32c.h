/* crc32c.h — CRC-32C (Castagnoli), the checksum of the controller's
 * journal and snapshot records. */
#ifndef SLUICE_CRC32C_H
#define SLUICE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue crc over len bytes (start with crc = 0). */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

#endif
