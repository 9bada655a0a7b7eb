/*
 * The platform's network device, an extension of the HAL for the I/O core (brief 0): polled
 * (or interrupt-driven through a handler thread bound to `irq: net0`, docs/interrupts.md),
 * UDP payloads in and out. Received IPv4/UDP frames arrive stripped to their payload; a
 * transmitted payload goes back to the address and port of the last sender. On QEMU virt it
 * is virtio-net over virtio-mmio (platform/qemu-virt/virtio/). Only the I/O core calls it.
 */
#ifndef PARTITA_HAL_NET_H
#define PARTITA_HAL_NET_H

#include <stdint.h>
#include <stdbool.h>

int hal_net_init(void);                      /* 0, or -1 if no device answers */
const uint8_t *hal_net_rx(uint32_t *len);    /* next payload or NULL; valid until release */
void hal_net_rx_release(void);
bool hal_net_tx(const uint8_t *payload, uint32_t len); /* false: no free descriptor */
uint64_t hal_net_rx_frames(void);            /* frames received so far */
/* Interrupt-driven receive (docs/interrupts.md): acknowledge the device's interrupt; call it
 * before draining with hal_net_rx, so a frame arriving meanwhile raises the line again. */
void hal_net_irq_ack(void);

#endif
