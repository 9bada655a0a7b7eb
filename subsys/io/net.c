/*
 * Network back ends of the I/O core (net.h): 1 = the virtio-net device, 2 = an in-guest
 * synthetic source that produces, in virtual time, exactly the traffic of the host tool
 * (tools/partita/subsys/spm/traffic.py): a 1 KiB payload every 100 us, flow ids 0..3 round-robin,
 * payload = [flow u32 LE][sequence u32 LE][filler]. The synthetic source makes the bandwidth
 * measurement deterministic; transmitted payloads are counted, not sent anywhere.
 */
#include <partita/hal.h>
#include "net.h"
#include "../spm/spm_config.h"
#include "../spm/spm_rt.h"
#include <partita/hal_net.h>

#define SYNTH_BYTES 1024u
#define SYNTH_PERIOD_NS 100000u

static uint8_t synth_buf[SYNTH_BYTES] __attribute__((aligned(8)));
static uint64_t synth_next, synth_period, synth_seq;
uint64_t pt_net_synth_tx_bytes; /* read by the host after the run */

int pt_net_init(void)
{
	if (pt_spm_config.net == 1)
		return hal_net_init();
	synth_period = pt_svc_ns_to_cycles(SYNTH_PERIOD_NS);
	synth_next = pt_epoch;
	return 0;
}

const uint8_t *pt_net_rx(uint32_t *len)
{
	if (pt_spm_config.net == 1)
		return hal_net_rx(len);
	if (hal_cycles() < synth_next)
		return 0;
	synth_next += synth_period;
	uint32_t flow = (uint32_t)(synth_seq % 4), seq = (uint32_t)synth_seq++;
	for (int k = 0; k < 4; k++) {
		synth_buf[k] = (uint8_t)(flow >> (8 * k));
		synth_buf[4 + k] = (uint8_t)(seq >> (8 * k));
	}
	*len = SYNTH_BYTES;
	return synth_buf;
}

void pt_net_rx_release(void)
{
	if (pt_spm_config.net == 1)
		hal_net_rx_release();
}

bool pt_net_tx(const uint8_t *payload, uint32_t len)
{
	if (pt_spm_config.net == 1)
		return hal_net_tx(payload, len);
	pt_net_synth_tx_bytes += len;
	return true;
}

/* Polling period of the virtio device (no interrupt). 2 us: the I/O core also publishes the
 * guest clock to the host traffic tool at each wake (io_core.c pt_io_clock_ns), and the
 * extra wakes slow virtual time down relative to host time, so the host keeps pace better
 * (measured: 10 us left 76 % of the sends > 20 us late, 2 us about half). */
#define VIRTIO_POLL_NS 2000u

uint64_t pt_net_next_event(void)
{
	if (pt_spm_config.net == 1)
		return hal_cycles() + pt_svc_ns_to_cycles(VIRTIO_POLL_NS);
	return synth_next;
}
