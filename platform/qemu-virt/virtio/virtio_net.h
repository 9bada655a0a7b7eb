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

/* The device functions are the HAL's network interface: <partita/hal_net.h>. */
#include <partita/hal_net.h>

#endif
