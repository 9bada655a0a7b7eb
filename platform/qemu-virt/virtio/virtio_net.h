/*
 * virtio-net over virtio-mmio for the I/O core (brief 0). Polled, one receive and one
 * transmit queue, legacy (version 1, QEMU's default for virt) and modern (version 2) MMIO
 * transports. Hands UDP payloads in and out: received IPv4/UDP frames are stripped to their
 * payload; a transmitted payload goes back to the address and port of the last sender, which
 * is what the loopback experiment needs. Only the I/O core may call these.
 */
#ifndef PARTITA_PLATFORM_VIRTIO_NET_H
#define PARTITA_PLATFORM_VIRTIO_NET_H

#include <stdint.h>
#include <stdbool.h>

#define PT_VIRTIO_MMIO_BASE 0x10001000ul
#define PT_VIRTIO_MMIO_STRIDE 0x1000ul
#define PT_VIRTIO_MMIO_SLOTS 8

int pt_virtio_net_init(void);  /* 0, or -1 if no virtio-net device answers */
const uint8_t *pt_virtio_net_rx(uint32_t *len);
void pt_virtio_net_rx_release(void);
bool pt_virtio_net_tx(const uint8_t *payload, uint32_t len);
uint64_t pt_virtio_net_rx_frames(void);

#endif
