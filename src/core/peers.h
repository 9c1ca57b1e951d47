/* src/core/peers.h - how this PE reaches every other: node peers' regions
 * mapped into this process (P2P), the others through the network transport
 * (gsi_pe.net). */
#ifndef GSI_PEERS_H
#define GSI_PEERS_H

/* Collective, once the bootstrap and every symmetric region are up: fills
 * gsi_pe's local_pes, node_pes, region[].peer and net. */
void gsi_peers_connect(const char *fn);
/* Unmaps the node peers' regions (after the transport is finalized). */
void gsi_peers_disconnect(void);

#endif
