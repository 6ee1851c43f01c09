/* proto_version.h — the protocol versions this build speaks.
 *
 * A version is u16 0xYYMM of the release that introduced it (0x2505 is
 * 25.05).  A daemon or command speaks its own version and accepts peers
 * of the two versions before it (a site upgrades slurmdbd, then slurmctld,
 * then the nodes one by one): a connection packs at min(own, peer).  A
 * field row of the message table names the version that added it (and
 * the one that removed it), see fields.h.  SLUICE_PROTO_NEXT (cmake
 * -DSLUICE_PROTO_NEXT=ON) builds the synthetic next release, 25.11, which
 * adds fields to a few messages, to test mixed clusters before a real
 * second release exists.
 */
#ifndef SLUICE_PROTO_VERSION_H
#define SLUICE_PROTO_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_24_05 0x2405u
#define PROTO_24_11 0x2411u
#define PROTO_25_05 0x2505u    /* the first Sluice release: the base */
#define PROTO_25_11 0x2511u    /* the synthetic next (SLUICE_PROTO_NEXT) */

#ifdef SLUICE_PROTO_NEXT
#define PROTO_OWN PROTO_25_11
#else
#define PROTO_OWN PROTO_25_05
#endif
/* Versions a peer may speak: ours and the two before it. */
#define PROTO_SUPPORTED 3

/* Whether a peer speaking v is served (v in the supported window). */
bool        proto_supported(uint16_t v);
/* The oldest version served. */
uint16_t    proto_oldest(void);
/* The version to pack at for a peer of version peer: min(own, peer); 0
 * (unknown) means ours. */
uint16_t    proto_for_peer(uint16_t peer);
/* "25.05" (buf of at least 8 bytes; returns buf). */
const char *proto_str(uint16_t v, char *buf, size_t len);

#endif
