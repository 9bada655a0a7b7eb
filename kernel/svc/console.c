/*
 * The service console path (<partita/svc.h>): a line ring per producer hart, drained by the
 * hart that owns the UART. Single producer, single consumer; indices only grow, byte i is
 * buf[i % PT_SVC_CON_BYTES]; a line is published (head advanced past its newline) only whole.
 */
#include <partita/svc.h>

bool pt_svc_con_put(struct pt_svc_con *c, const char *line)
{
	uint32_t h = c->head, n = 0;
	while (line[n] && n < PT_SVC_CON_BYTES - 1)
		n++;
	if (h + n + 1 - __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE) > PT_SVC_CON_BYTES) {
		c->drops++;
		return false;
	}
	for (uint32_t i = 0; i < n; i++)
		c->buf[(h + i) % PT_SVC_CON_BYTES] = line[i];
	c->buf[(h + n) % PT_SVC_CON_BYTES] = '\n';
	__atomic_store_n(&c->head, h + n + 1, __ATOMIC_RELEASE);
	return true;
}

uint32_t pt_svc_con_take(struct pt_svc_con *c, char *out, uint32_t max)
{
	uint32_t t = c->tail, h = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
	uint32_t n = 0;
	while (t + n < h && c->buf[(t + n) % PT_SVC_CON_BYTES] != '\n')
		n++;
	if (t + n >= h || max == 0)
		return 0; /* no complete line */
	uint32_t k = n < max - 1 ? n : max - 1;
	for (uint32_t i = 0; i < k; i++)
		out[i] = c->buf[(t + i) % PT_SVC_CON_BYTES];
	out[k] = 0;
	__atomic_store_n(&c->tail, t + n + 1, __ATOMIC_RELEASE);
	return k ? k : 1;
}
