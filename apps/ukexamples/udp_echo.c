/*
 * Example of UDP through the user-level kernel (docs/proxy-kernel.md): uk_udp_echo binds a
 * socket on the host's loopback (any port), tells uk_udp_client the port through the named
 * pipe "udpport", and echoes every datagram to its sender until it receives "bye";
 * uk_udp_client sends three datagrams and checks each echo. Both print their results.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>
#include <partita/uk.h>

void uk_udp_echo(void *arg)
{
	(void)arg;
	static char buf[256];
	int32_t p[2];
	long s = uk_socket();
	long port = uk_bind(s, 0);
	uk_pipe("udpport", p);
	uint32_t port32 = (uint32_t)port;
	uk_write(p[1], &port32, sizeof(port32));
	pt_printf("udpecho port %ld", port > 0 ? 1L : port);
	long echoed = 0;
	for (;;) {
		uint32_t from = 0;
		long n = uk_recvfrom(s, buf, sizeof(buf), &from);
		if (n == PT_UK_ETIMEOUT)
			continue; /* nothing within the configured timeout: wait again */
		if (n < 0) {
			pt_printf("udpecho error %ld", n);
			break;
		}
		uk_sendto(s, buf, (unsigned long)n, from);
		if (n == 3 && buf[0] == 'b' && buf[1] == 'y' && buf[2] == 'e')
			break;
		echoed++;
	}
	uk_close(s);
	pt_printf("udpecho echoed %ld", echoed);
}

void uk_udp_client(void *arg)
{
	(void)arg;
	static char buf[256];
	int32_t p[2];
	uint32_t port = 0;
	uk_pipe("udpport", p);
	for (int tries = 0; tries < 100 && uk_read(p[0], &port, sizeof(port)) != sizeof(port); tries++)
		pt_sleep_ns(100000); /* until the echo side has written it */
	long s = uk_socket();
	uk_bind(s, 0);
	static const char *const msgs[] = {"one", "second datagram", "3"};
	long ok = 0;
	for (int i = 0; i < 3; i++) {
		long len = 0;
		while (msgs[i][len])
			len++;
		uk_sendto(s, msgs[i], (unsigned long)len, port);
		long n = uk_recvfrom(s, buf, sizeof(buf), 0);
		long same = n == len;
		for (long k = 0; same && k < len; k++)
			same = buf[k] == msgs[i][k];
		ok += same;
	}
	uk_sendto(s, "bye", 3, port);
	uk_recvfrom(s, buf, sizeof(buf), 0);
	uk_close(s);
	pt_printf("udpclient ok %ld", ok);
}
