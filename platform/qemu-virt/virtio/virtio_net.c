/*
 * virtio-net driver (virtio 1.1 spec §4.2 MMIO transport, §5.1 network device; legacy layout
 * §4.2.4). Polled: the I/O core checks the used rings in its device step, so device activity
 * never preempts the TDMA and DMA events. Buffers live in this file's static memory.
 */
#include "virtio_net.h"

#define R_MAGIC 0x000
#define R_VERSION 0x004
#define R_DEVICE_ID 0x008
#define R_DEV_FEATURES 0x010
#define R_DEV_FEATURES_SEL 0x014
#define R_DRV_FEATURES 0x020
#define R_DRV_FEATURES_SEL 0x024
#define R_GUEST_PAGE_SIZE 0x028 /* legacy */
#define R_QUEUE_SEL 0x030
#define R_QUEUE_NUM_MAX 0x034
#define R_QUEUE_NUM 0x038
#define R_QUEUE_ALIGN 0x03c     /* legacy */
#define R_QUEUE_PFN 0x040       /* legacy */
#define R_QUEUE_READY 0x044
#define R_QUEUE_NOTIFY 0x050
#define R_INT_STATUS 0x060
#define R_INT_ACK 0x064
#define R_STATUS 0x070
#define R_QUEUE_DESC_LO 0x080
#define R_QUEUE_DESC_HI 0x084
#define R_QUEUE_AVAIL_LO 0x090
#define R_QUEUE_AVAIL_HI 0x094
#define R_QUEUE_USED_LO 0x0a0
#define R_QUEUE_USED_HI 0x0a4
#define R_CONFIG 0x100

#define ST_ACK 1u
#define ST_DRIVER 2u
#define ST_DRIVER_OK 4u
#define ST_FEATURES_OK 8u
#define F_MAC 5u
#define F_VERSION_1 32u

#define QSIZE 16u
#define BUF_BYTES 1600u
#define DESC_F_NEXT 1u
#define DESC_F_WRITE 2u

struct vq_desc { uint64_t addr; uint32_t len; uint16_t flags, next; };
struct vq_avail { uint16_t flags, idx, ring[QSIZE], used_event; };
struct vq_used_elem { uint32_t id, len; };
struct vq_used { uint16_t flags, idx; struct vq_used_elem ring[QSIZE]; uint16_t avail_event; };

/* legacy layout: descriptors and avail ring in one page, used ring on the next page */
struct vq {
	struct vq_desc desc[QSIZE];
	struct vq_avail avail;
	uint8_t pad[4096 - QSIZE * sizeof(struct vq_desc) - sizeof(struct vq_avail)];
	struct vq_used used;
} __attribute__((aligned(4096)));

static struct vq rxq, txq;
static uint8_t rx_buf[QSIZE][BUF_BYTES] __attribute__((aligned(16)));
static uint8_t tx_buf[QSIZE][BUF_BYTES] __attribute__((aligned(16)));
static volatile uint8_t *dev;
static uint32_t hdr_len;     /* virtio_net_hdr: 10 bytes legacy, 12 with VERSION_1 */
static uint16_t rx_seen, tx_seen, tx_next;
static int rx_cur = -1;      /* descriptor handed to the caller */
static uint8_t mac[6];
static uint8_t peer_mac[6], peer_ip[4], my_ip[4];
static uint16_t peer_port, my_port;
static bool have_peer;
static uint64_t rx_frames;

static inline uint32_t rd(uint32_t off) { return *(volatile uint32_t *)(dev + off); }
static inline void wr(uint32_t off, uint32_t v) { *(volatile uint32_t *)(dev + off) = v; }
static inline void mb(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

static int setup_queue(uint32_t q, struct vq *v, uint32_t version)
{
	wr(R_QUEUE_SEL, q);
	if (rd(R_QUEUE_NUM_MAX) < QSIZE)
		return -1;
	wr(R_QUEUE_NUM, QSIZE);
	if (version == 1) {
		wr(R_QUEUE_ALIGN, 4096);
		wr(R_QUEUE_PFN, (uint32_t)((uintptr_t)v >> 12));
	} else {
		wr(R_QUEUE_DESC_LO, (uint32_t)(uintptr_t)v->desc);
		wr(R_QUEUE_DESC_HI, (uint32_t)((uint64_t)(uintptr_t)v->desc >> 32));
		wr(R_QUEUE_AVAIL_LO, (uint32_t)(uintptr_t)&v->avail);
		wr(R_QUEUE_AVAIL_HI, (uint32_t)((uint64_t)(uintptr_t)&v->avail >> 32));
		wr(R_QUEUE_USED_LO, (uint32_t)(uintptr_t)&v->used);
		wr(R_QUEUE_USED_HI, (uint32_t)((uint64_t)(uintptr_t)&v->used >> 32));
		wr(R_QUEUE_READY, 1);
	}
	return 0;
}

static void rx_post(uint16_t d)
{
	rxq.desc[d] = (struct vq_desc){ (uintptr_t)rx_buf[d], BUF_BYTES, DESC_F_WRITE, 0 };
	rxq.avail.ring[rxq.avail.idx % QSIZE] = d;
	mb();
	rxq.avail.idx++;
	mb();
	wr(R_QUEUE_NOTIFY, 0);
}

/* The virtio-mmio slot of the first network device (its PLIC source is slot + 1), or -1. */
int plat_virtio_net_slot(void);
int plat_virtio_net_slot(void)
{
	for (uint32_t i = 0; i < PT_VIRTIO_MMIO_SLOTS; i++) {
		volatile uint8_t *d = (volatile uint8_t *)(PT_VIRTIO_MMIO_BASE +
							   i * PT_VIRTIO_MMIO_STRIDE);
		if (*(volatile uint32_t *)d == 0x74726976 && *(volatile uint32_t *)(d + 8) == 1)
			return (int)i;
	}
	return -1;
}

/* Interrupt-driven receive (a handler thread bound to `net0`): acknowledge the device's
 * interrupt status before draining the used ring, so a frame that arrives during the drain
 * raises the line again. */
void hal_net_irq_ack(void)
{
	if (!dev)
		return;
	uint32_t st = rd(R_INT_STATUS);
	if (st)
		wr(R_INT_ACK, st);
}

int hal_net_init(void)
{
	int slot = plat_virtio_net_slot();
	if (slot < 0)
		return -1;
	dev = (volatile uint8_t *)(PT_VIRTIO_MMIO_BASE + (uint32_t)slot * PT_VIRTIO_MMIO_STRIDE);
	uint32_t version = rd(R_VERSION);
	wr(R_STATUS, 0);
	wr(R_STATUS, ST_ACK);
	wr(R_STATUS, ST_ACK | ST_DRIVER);
	wr(R_DEV_FEATURES_SEL, 0);
	uint32_t f0 = rd(R_DEV_FEATURES);
	wr(R_DRV_FEATURES_SEL, 0);
	wr(R_DRV_FEATURES, f0 & (1u << F_MAC));
	hdr_len = 10;
	if (version == 2) {
		wr(R_DEV_FEATURES_SEL, 1);
		uint32_t f1 = rd(R_DEV_FEATURES);
		wr(R_DRV_FEATURES_SEL, 1);
		wr(R_DRV_FEATURES, f1 & (1u << (F_VERSION_1 - 32)));
		if (f1 & (1u << (F_VERSION_1 - 32)))
			hdr_len = 12;
		wr(R_STATUS, ST_ACK | ST_DRIVER | ST_FEATURES_OK);
		if (!(rd(R_STATUS) & ST_FEATURES_OK))
			return -1;
	} else {
		wr(R_GUEST_PAGE_SIZE, 4096);
	}
	if (setup_queue(0, &rxq, version) || setup_queue(1, &txq, version))
		return -1;
	for (int k = 0; k < 6; k++)
		mac[k] = *(volatile uint8_t *)(dev + R_CONFIG + k);
	wr(R_STATUS, rd(R_STATUS) | ST_DRIVER_OK);
	for (uint16_t d = 0; d < QSIZE; d++)
		rx_post(d);
	return 0;
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static bool send_frame(const uint8_t *frame, uint32_t len);

static void arp_reply(const uint8_t *req)
{
	uint8_t r[42];
	for (int k = 0; k < 6; k++) {
		r[k] = req[6 + k];          /* to the asker */
		r[6 + k] = mac[k];
		r[22 + k] = mac[k];         /* sender hardware address */
		r[32 + k] = req[22 + k];    /* target hardware address = asker */
	}
	r[12] = 0x08; r[13] = 0x06;
	r[14] = 0; r[15] = 1; r[16] = 0x08; r[17] = 0; r[18] = 6; r[19] = 4;
	r[20] = 0; r[21] = 2;               /* reply */
	for (int k = 0; k < 4; k++) {
		r[28 + k] = req[38 + k];    /* sender IP = the address asked for */
		r[38 + k] = req[28 + k];    /* target IP = asker */
	}
	send_frame(r, sizeof r);
}

const uint8_t *hal_net_rx(uint32_t *len)
{
	if (!dev || rx_cur >= 0)
		return 0;
	for (;;) {
		mb();
		if (rx_seen == *(volatile uint16_t *)&rxq.used.idx)
			return 0;
		struct vq_used_elem e = rxq.used.ring[rx_seen % QSIZE];
		rx_seen++;
		wr(R_INT_ACK, rd(R_INT_STATUS));
		uint8_t *f = rx_buf[e.id] + hdr_len;
		uint32_t n = e.len > hdr_len ? e.len - hdr_len : 0;
		rx_frames++;
		/* ARP request: answer it, so a user-mode (slirp) backend can reach us; we take
		 * the address asked for as ours until an IPv4 frame tells us otherwise */
		if (n >= 42 && be16(f + 12) == 0x0806 && be16(f + 20) == 1) {
			arp_reply(f);
			rx_post((uint16_t)e.id);
			continue;
		}
		/* Ethernet + IPv4 (no options assumed beyond IHL) + UDP */
		if (n >= 42 && be16(f + 12) == 0x0800 && f[23] == 17) {
			uint32_t ihl = (f[14] & 0xfu) * 4u;
			const uint8_t *udp = f + 14 + ihl;
			uint32_t ulen = be16(udp + 4);
			if (14 + ihl + ulen <= n && ulen >= 8) {
				for (int k = 0; k < 6; k++)
					peer_mac[k] = f[6 + k];
				for (int k = 0; k < 4; k++) {
					peer_ip[k] = f[26 + k];
					my_ip[k] = f[30 + k];
				}
				peer_port = be16(udp);
				my_port = be16(udp + 2);
				have_peer = true;
				rx_cur = (int)e.id;
				*len = ulen - 8;
				return udp + 8;
			}
		}
		rx_post((uint16_t)e.id); /* not for us: recycle */
	}
}

void hal_net_rx_release(void)
{
	if (rx_cur >= 0) {
		rx_post((uint16_t)rx_cur);
		rx_cur = -1;
	}
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* Reserve the next transmit buffer; NULL if the ring is full. */
static uint8_t *tx_slot(uint16_t *d)
{
	mb();
	while (tx_seen != *(volatile uint16_t *)&txq.used.idx)
		tx_seen++; /* reclaim: buffers are reused in order */
	if ((uint16_t)(tx_next - tx_seen) >= QSIZE)
		return 0;
	*d = tx_next % QSIZE;
	uint8_t *b = tx_buf[*d];
	for (uint32_t k = 0; k < hdr_len; k++)
		b[k] = 0;
	return b;
}

static void tx_post(uint16_t d, uint32_t frame_len)
{
	txq.desc[d] = (struct vq_desc){ (uintptr_t)tx_buf[d], hdr_len + frame_len, 0, 0 };
	txq.avail.ring[txq.avail.idx % QSIZE] = d;
	mb();
	txq.avail.idx++;
	tx_next++;
	mb();
	wr(R_QUEUE_NOTIFY, 1);
}

static bool send_frame(const uint8_t *frame, uint32_t len)
{
	uint16_t d;
	uint8_t *b = tx_slot(&d);
	if (!b)
		return false;
	for (uint32_t k = 0; k < len; k++)
		b[hdr_len + k] = frame[k];
	tx_post(d, len);
	return true;
}

bool hal_net_tx(const uint8_t *payload, uint32_t len)
{
	if (!dev || !have_peer || len > BUF_BYTES - 12 - 42)
		return false;
	uint16_t d;
	uint8_t *b = tx_slot(&d);
	if (!b)
		return false;
	uint8_t *f = b + hdr_len;
	for (int k = 0; k < 6; k++) {
		f[k] = peer_mac[k];
		f[6 + k] = mac[k];
	}
	put16(f + 12, 0x0800);
	uint8_t *ip = f + 14;
	ip[0] = 0x45; ip[1] = 0;
	put16(ip + 2, 20 + 8 + len);
	put16(ip + 4, 0); put16(ip + 6, 0x4000);
	ip[8] = 64; ip[9] = 17;
	put16(ip + 10, 0);
	for (int k = 0; k < 4; k++) {
		ip[12 + k] = my_ip[k];
		ip[16 + k] = peer_ip[k];
	}
	uint32_t sum = 0;
	for (int k = 0; k < 20; k += 2)
		sum += be16(ip + k);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	put16(ip + 10, ~sum & 0xffff);
	uint8_t *udp = ip + 20;
	put16(udp, my_port); put16(udp + 2, peer_port);
	put16(udp + 4, 8 + len); put16(udp + 6, 0); /* no UDP checksum (allowed for IPv4) */
	for (uint32_t k = 0; k < len; k++)
		udp[8 + k] = payload[k];
	tx_post(d, 42 + len);
	return true;
}

uint64_t hal_net_rx_frames(void)
{
	return rx_frames;
}
