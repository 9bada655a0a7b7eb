/*
 * The I/O core's network device interface: a virtio-net device on qemu-virt
 * (platform/qemu-virt/virtio/virtio_net.c) or, for deterministic measurements, an in-guest
 * synthetic packet source (net.c) that produces the traffic the host tool would send.
 * Frames handed in and out are UDP payloads; the driver adds and strips the headers.
 */
#ifndef PARTITA_SUBSYS_IO_NET_H
#define PARTITA_SUBSYS_IO_NET_H

#include <stdint.h>
#include <stdbool.h>

/* Probe the device; 0 on success. */
int pt_net_init(void);
/* Next received payload, or NULL; valid until pt_net_rx_release(). */
const uint8_t *pt_net_rx(uint32_t *len);
void pt_net_rx_release(void);
/* Queue a payload for transmission (copied); false if the ring is full. */
bool pt_net_tx(const uint8_t *payload, uint32_t len);
/* Time (cycles) by which the device may next have something: the synthetic source's next
 * packet, or a polling period for the virtio device (polled, no interrupt). */
uint64_t pt_net_next_event(void);

#endif
