/* proto_version.c — the protocol versions this build speaks
 * (proto_version.h). */
#include "common/proto_version.h"

#include <stdio.h>

/* Every release's version, oldest first; ours is the last. */
static const uint16_t versions[] = {
	PROTO_24_05, PROTO_24_11, PROTO_25_05,
#ifdef SLUICE_PROTO_NEXT
	PROTO_25_11,
#endif
};
#define NVERSIONS (sizeof(versions) / sizeof(versions[0]))

bool proto_supported(uint16_t v)
{
	for (size_t i = NVERSIONS > PROTO_SUPPORTED ?
		     NVERSIONS - PROTO_SUPPORTED : 0; i < NVERSIONS; i++)
		if (versions[i] == v)
			return true;
	return false;
}

uint16_t proto_oldest(void)
{
	return versions[NVERSIONS > PROTO_SUPPORTED ?
			NVERSIONS - PROTO_SUPPORTED : 0];
}

uint16_t proto_for_peer(uint16_t peer)
{
	return peer && peer < PROTO_OWN ? peer : PROTO_OWN;
}

const char *proto_str(uint16_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%x.%02x", v >> 8, v & 0xff);
	return buf;
}
