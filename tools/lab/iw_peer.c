// SPDX-License-Identifier: GPL-2.0
/*
 * iw_peer: a hostile iWARP peer for the lab.  It opens TCP connections
 * to an iWARP listener (an rdma_cm server such as rping -s -P on an
 * iWARP device) and speaks MPA (RFC 5044, RFC 6581), DDP (RFC 5041) and
 * RDMAP (RFC 5040) wrongly, on purpose:
 *
 *  - mangled MPA requests: wrong or reply key, revisions 0, 3 and 255,
 *    PD_Length over 512 (up to 65535) with the bytes sent or not, markers
 *    wanted, CRC refused, random flag bits, a revision 2 IRD/ORD block cut
 *    short, frames cut at every length, nothing sent at all;
 *  - after a valid MPA exchange, FPDUs with a valid CRC32c: every DDP and
 *    RDMAP opcode (reserved ones too) and version, random and guessed
 *    STags, tagged offsets and lengths past any MR, untagged queue
 *    numbers, MSNs and message offsets out of range, Read Requests for
 *    huge sizes, TERMINATEs with any layer, type, code and copied
 *    headers, ULPDU lengths larger than what follows, truncated FPDUs, a
 *    bad CRC now and then; and, when the server reads from us (rping
 *    does after the SEND that names a buffer), mangled Read Responses
 *    aimed at its sink buffer;
 *  - and each connection ends its own way: FIN, RST (SO_LINGER 0), or
 *    left half-sent and held for a moment first.
 *
 *   iw_peer -a ADDR -p PORT [-n CONNS] [-s SEED] [-j JOBS] [-f]
 *
 * Connection k draws every choice from a generator seeded with SEED and
 * k, so a run (and any one connection: -k K -n 1) repeats exactly,
 * whatever -j says.  The seed is printed (random unless -s).  -f adds a
 * final check: one valid MPA exchange must still be accepted.
 * Prints a count per class; exit status 0 iff every connection reached
 * the listener (a connect still refused after 10 s is a failure: the
 * listener went away for good).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "labwire.h"

/* --- PRNG (labwire.c), seeded per connection --------------------------- */

static void rng_seed(uint64_t seed, uint64_t k)
{
	/* splitmix64 of seed and k, so that neighbouring k differ */
	uint64_t z = seed + 0x9e3779b97f4a7c15ull * (k + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	rng_set((z ^ (z >> 31)) | 1);
}

/* --- CRC32c (Castagnoli, reflected), RFC 5044 4.2 ------------------------- */

static uint32_t crc_table[256];

static uint32_t crc32c(const uint8_t *p, size_t n)
{
	return ~crc_table_update(crc_table, ~0u, p, n);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* --- connections ------------------------------------------------------------- */

static struct sockaddr_storage peer;
static socklen_t peer_len;

enum outcome {
	O_MPA_BAD,	/* a mangled MPA request sent */
	O_MPA_CUT,	/* a request cut short, or nothing */
	O_REJECTED,	/* a valid request the listener rejected */
	O_NO_REPLY,	/* a valid request without a reply in time */
	O_FPDU,		/* accepted, then mangled FPDUs */
	O_READ_RESP,	/* ... and mangled Read Responses to its reads */
	O_NCONNECT,	/* TCP connect failed */
	O_RESTARTED,	/* connects that waited for the listener to return */
	O_NOUT,
};

static const char *const outcome_name[O_NOUT] = {
	"mpa-mangled", "mpa-cut", "rejected", "no-reply", "fpdu",
	"read-response", "connect-failed", "listener-came-back",
};

/* connects that met no listener at first, then one within 10 s */
static unsigned long refused_then_ok;

/*
 * A TCP connection to the listener.  A refused connect is tried again for
 * 10 s: the server program may be starting again (the scenario restarts
 * one that died, rping -P among them).
 */
static int tcp_connect(void)
{
	int fd, one = 1, tries;

	for (tries = 0; tries < 100; tries++) {
		fd = socket(peer.ss_family, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (connect(fd, (struct sockaddr *)&peer, peer_len) == 0) {
			if (tries)
				refused_then_ok++;
			return fd;
		}
		close(fd);
		if (errno != ECONNREFUSED)
			return -1;
		usleep(100000);
	}
	return -1;
}

static int send_all(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	ssize_t r;

	while (n) {
		r = send(fd, p, n, MSG_NOSIGNAL);
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

/* read exactly @n bytes within @ms milliseconds */
static int recv_all(int fd, void *buf, size_t n, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t *p = buf;
	ssize_t r;

	while (n) {
		if (poll(&pfd, 1, ms) <= 0)
			return -1;
		r = recv(fd, p, n, 0);
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

/* end a connection: FIN, RST, or held a moment first */
static void finish(int fd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	switch (rnd(4)) {
	case 0:
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		break;
	case 1:
		usleep(rnd(200000));
		if (rnd(2))
			setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		break;
	case 2:
		shutdown(fd, SHUT_WR);
		usleep(rnd(50000));
		break;
	}
	close(fd);
}

#define KEY_REQ "MPA ID Req Frame"
#define KEY_REP "MPA ID Rep Frame"

/*
 * A valid MPA request: revision 1, or 2 with the RFC 6581 IRD/ORD block
 * (any IRD/ORD, peer-to-peer with any RTR set now and then); CRC wanted;
 * softrdma's larger-FPDU extension offered half the time, so that FPDUs
 * up to 64 KiB are allowed in.
 * Returns its length; *p2p says whether it asked for peer-to-peer mode.
 */
static size_t mpa_valid(uint8_t *b, bool *p2p)
{
	size_t n = 20;
	uint16_t ird, ord;

	memcpy(b, KEY_REQ, 16);
	/* CRC; half the time softrdma's larger-FPDU offer (iwarp_hdr.h) */
	b[16] = 0x40 | (rnd(2) ? 0x04 : 0);
	b[17] = rnd(4) ? 2 : 1;
	*p2p = false;
	if (b[17] == 2) {
		b[16] |= 0x10;
		ird = rnd(3) ? rnd(16) : rnd(0x4000);
		ord = rnd(3) ? rnd(16) : rnd(0x4000);
		if (rnd(4) == 0) {
			*p2p = true;
			ird |= 0x8000 | (rnd(2) ? 0x4000 : 0);
			ord |= rnd(4) << 14;
		}
		put_be16(b + 20, ird);
		put_be16(b + 22, ord);
		n += 4;
	}
	/* some ULP private data */
	if (rnd(2)) {
		size_t pd = rnd(64);

		rnd_bytes(b + n, pd);
		n += pd;
	}
	put_be16(b + 18, n - 20);
	return n;
}

/* a mangled request: returns bytes to send; *claimed may exceed it */
static size_t mpa_mangled(uint8_t *b, size_t max)
{
	bool p2p;
	size_t n = mpa_valid(b, &p2p), pd;

	switch (rnd(9)) {
	case 0:		/* wrong key: random, reply key, one byte off */
		if (rnd(3) == 0)
			rnd_bytes(b, 16);
		else if (rnd(2))
			memcpy(b, KEY_REP, 16);
		else
			b[rnd(16)] ^= 1 << rnd(8);
		break;
	case 1: {	/* revision */
		static const uint8_t revs[] = { 0, 3, 4, 255, 0x81 };

		b[17] = revs[rnd(sizeof(revs))];
		break;
	}
	case 2:		/* PD_Length over 512, bytes sent or not */
		pd = 513 + rnd(65536 - 513);
		put_be16(b + 18, pd);
		if (rnd(2) && 20 + pd <= max) {
			rnd_bytes(b + 20, pd);
			n = 20 + pd;
		}
		break;
	case 3:		/* PD_Length larger than what follows, then stall */
		put_be16(b + 18, (b[18] << 8 | b[19]) + 1 + rnd(500));
		break;
	case 4:		/* markers wanted */
		b[16] |= 0x80;
		break;
	case 5:		/* any flag byte: CRC off, R in a request, Res */
		b[16] = rnd(256);
		break;
	case 6:		/* revision 2 with the IRD/ORD flag, block cut short */
		b[16] |= 0x10;
		b[17] = 2;
		put_be16(b + 18, rnd(4));
		n = 20 + (b[19]);
		break;
	case 7:		/* PD_Length smaller than what follows */
		if (b[18] << 8 | b[19])
			put_be16(b + 18, rnd(b[18] << 8 | b[19]));
		rnd_bytes(b + n, 16);
		n += 16;
		break;
	default:	/* two requests back to back */
		memcpy(b + n, b, n);
		n *= 2;
		break;
	}
	return n;
}

/* --- FPDUs ------------------------------------------------------------------ */

struct conn {
	int fd;
	bool crc;
	uint32_t msn[3];	/* untagged queues 0-2 */
	uint32_t sink_stag;	/* learned from a Read Request */
	uint64_t sink_to;
	uint32_t sink_len;
	bool have_sink;
};

/*
 * Frame @ulpdu (@len bytes, the DDP/RDMAP header and payload) as an FPDU
 * and send it, perhaps with a wrong ULPDU Length, a wrong CRC or cut.
 */
static int fpdu_send(struct conn *c, const uint8_t *ulpdu, size_t len, bool mangle)
{
	uint8_t b[70000];
	size_t n = 2 + len, cut;
	uint32_t crc;

	put_be16(b, len);
	memcpy(b + 2, ulpdu, len);
	while (n & 3)
		b[n++] = 0;
	if (mangle && rnd(8) == 0) {	/* the length field lies */
		put_be16(b, rnd(2) ? 0xffff - rnd(16) : rnd(len + 8));
	}
	crc = c->crc ? crc32c(b, n) : 0;
	if (mangle && rnd(32) == 0)
		crc ^= 1u << rnd(32);
	b[n] = crc;
	b[n + 1] = crc >> 8;
	b[n + 2] = crc >> 16;
	b[n + 3] = crc >> 24;
	n += 4;
	if (mangle && rnd(16) == 0) {	/* cut short, then the rest never */
		cut = rnd(n);
		send_all(c->fd, b, cut);
		return -1;
	}
	return send_all(c->fd, b, n);
}

/* the DDP and RDMAP control bytes: mostly sane, sometimes anything */
static void ctrl(uint8_t *u, bool tagged, bool last, uint8_t op)
{
	u[0] = (tagged ? 0x80 : 0) | (last ? 0x40 : 0) | 1;
	u[1] = 1 << 6 | (op & 0xf);
	if (rnd(10) == 0)
		u[0] = rnd(256);
	if (rnd(10) == 0)
		u[1] = rnd(256);
}

static uint32_t guess_stag(const struct conn *c)
{
	if (c->have_sink && rnd(2))
		return c->sink_stag + (rnd(4) ? 0 : rnd(3) - 1);
	switch (rnd(4)) {
	case 0: return rnd64();
	case 1: return 0;
	default: return rnd(32) << 8 | rnd(256);	/* a low index, any key */
	}
}

static uint64_t guess_to(const struct conn *c, uint32_t len)
{
	if (c->have_sink && rnd(2)) {
		switch (rnd(4)) {
		case 0: return c->sink_to + c->sink_len - rnd(len + 1);	/* runs past */
		case 1: return c->sink_to - rnd(4096);
		case 2: return c->sink_to + rnd(c->sink_len + 1);
		default: return c->sink_to + c->sink_len + rnd(65536);
		}
	}
	return rnd(2) ? rnd64() : ~0ull - rnd(4096);
}

/* one mangled FPDU; returns -1 once the connection is useless */
static int fpdu_mangled(struct conn *c)
{
	uint8_t u[66000];
	size_t len, pay;
	uint8_t op = rnd(4) ? rnd(8) : rnd(16);
	bool tagged;

	pay = rnd(4) ? rnd(256) : rnd(3) ? rnd(1500) : 1500 + rnd(64000);
	switch (op) {
	case 0:		/* WRITE (tagged) */
	case 2:		/* READ RESPONSE (tagged) */
		tagged = rnd(10) != 0;
		break;
	default:
		tagged = rnd(10) == 0;
		break;
	}
	ctrl(u, tagged, rnd(4) != 0, op);
	if (tagged) {
		put_be32(u + 2, guess_stag(c));
		put_be64(u + 6, guess_to(c, pay));
		len = 14;
	} else {
		uint32_t qn = rnd(8) ? (op == 1 ? 1 : op == 7 ? 2 : 0) : rnd(2) ? rnd(8) : rnd64();

		put_be32(u + 2, guess_stag(c));		/* STag to invalidate */
		put_be32(u + 6, qn);
		put_be32(u + 10, rnd(4) ? ++c->msn[qn % 3] : rnd(2) ? 0 : (uint32_t)rnd64());
		put_be32(u + 14, rnd(4) ? 0 : rnd(2) ? rnd(65536) : (uint32_t)rnd64());
		len = 18;
		if (op == 1) {		/* Read Request header */
			uint32_t size;

			switch (rnd(5)) {
			case 0: size = 0; break;
			case 1: size = 0xffffffffu; break;
			case 2: size = 0x80000000u; break;
			default: size = rnd(1 << 20); break;
			}
			put_be32(u + 18, rnd64());	/* our sink STag */
			put_be64(u + 22, rnd64());
			put_be32(u + 30, size);
			put_be32(u + 34, guess_stag(c));
			put_be64(u + 38, guess_to(c, size));
			len = 46;
			if (rnd(4))
				pay = 0;
		} else if (op == 7) {	/* TERMINATE: info, then copies */
			put_be32(u + 18, rnd64() & ~0x1fffu);
			len = 22;
			pay = rnd(4) ? rnd(49) : pay;
		}
	}
	if (len + pay > sizeof(u))
		pay = sizeof(u) - len;
	rnd_bytes(u + len, pay);
	len += pay;
	if (len > 0xffff)
		len = 0xffff;
	if (rnd(20) == 0)	/* a ULPDU shorter than any DDP header */
		len = rnd(14);
	return fpdu_send(c, u, len, true);
}

/* a valid SEND (queue 0, last) of @n bytes */
static int send_valid(struct conn *c, const uint8_t *p, size_t n)
{
	uint8_t u[256];

	u[0] = 0x40 | 1;
	u[1] = 1 << 6 | 3;
	put_be32(u + 2, 0);
	put_be32(u + 6, 0);
	put_be32(u + 10, ++c->msn[0]);
	put_be32(u + 14, 0);
	memcpy(u + 18, p, n);
	return fpdu_send(c, u, 18 + n, false);
}

/*
 * Read one FPDU; if it is a Read Request, learn the sink (the server's
 * buffer our Read Response would land in).  Returns 1 for a Read
 * Request, 0 for another FPDU, -1 on error or timeout.
 */
static int fpdu_recv(struct conn *c, int ms)
{
	uint8_t b[70000];
	uint16_t len;
	size_t n;

	if (recv_all(c->fd, b, 2, ms))
		return -1;
	len = b[0] << 8 | b[1];
	n = len + ((4 - ((2 + len) & 3)) & 3) + 4;
	if (recv_all(c->fd, b + 2, n, ms))
		return -1;
	if (len >= 46 && !(b[2] & 0x80) && (b[3] & 0xf) == 1) {
		c->sink_stag = get_be32(b + 20);
		c->sink_to = get_be64(b + 24);
		c->sink_len = get_be32(b + 32);
		c->have_sink = true;
		return 1;
	}
	return 0;
}

/* mangled Read Responses to the server's Read Request */
static void read_responses(struct conn *c)
{
	uint8_t u[66000];
	int i, n = 1 + rnd(6);

	for (i = 0; i < n; i++) {
		size_t pay = rnd(3) ? rnd(c->sink_len + 64 < 65000 ? c->sink_len + 64 : 65000) :
				      rnd(65000);
		ctrl(u, true, rnd(3) == 0 || i == n - 1, 2);
		put_be32(u + 2, rnd(4) ? c->sink_stag : guess_stag(c));
		put_be64(u + 6, rnd(3) ? c->sink_to + rnd(c->sink_len + 1) : guess_to(c, pay));
		rnd_bytes(u + 14, pay);
		if (fpdu_send(c, u, 14 + pay, rnd(3) == 0))
			return;
	}
}

static enum outcome one_connection(unsigned long k, uint64_t seed)
{
	uint8_t b[70000];
	struct conn c = {};
	bool p2p;
	size_t n;
	int i, nf;

	rng_seed(seed, k);
	c.fd = tcp_connect();
	if (c.fd < 0)
		return O_NCONNECT;
	switch (rnd(10)) {
	case 0:		/* nothing at all, or a cut request */
	case 1:
		n = mpa_valid(b, &p2p);
		n = rnd(4) == 0 ? 0 : rnd(n);
		send_all(c.fd, b, n);
		finish(c.fd);
		return O_MPA_CUT;
	case 2:
	case 3:
	case 4:
	case 5:
		n = mpa_mangled(b, sizeof(b));
		send_all(c.fd, b, n);
		/* the reject reply or nothing: read a little, then go */
		recv_all(c.fd, b, 20, rnd(2) ? 0 : 100);
		finish(c.fd);
		return O_MPA_BAD;
	}
	n = mpa_valid(b, &p2p);
	if (send_all(c.fd, b, n) || recv_all(c.fd, b, 20, 5000)) {
		finish(c.fd);
		return O_NO_REPLY;
	}
	if (memcmp(b, KEY_REP, 16) || (b[16] & 0x20)) {
		finish(c.fd);
		return O_REJECTED;
	}
	n = b[18] << 8 | b[19];
	if (n > 512 || recv_all(c.fd, b + 20, n, 2000)) {
		finish(c.fd);
		return O_REJECTED;
	}
	c.crc = true;	/* we asked for it: RFC 5044 7.1 */
	/*
	 * rping's client sends first: a SEND naming its buffer (address,
	 * rkey, length: 16 bytes, network order).  Now and then do that,
	 * with made-up values, and answer the server's Read Request with
	 * mangled Read Responses.
	 */
	if (rnd(3) == 0) {
		uint8_t info[16];

		rnd_bytes(info, 16);
		put_be32(info + 12, rnd(2) ? 64 : rnd(70000));
		if (!send_valid(&c, info, 16) && fpdu_recv(&c, 2000) == 1) {
			read_responses(&c);
			finish(c.fd);
			return O_READ_RESP;
		}
	}
	nf = 1 + rnd(8);
	for (i = 0; i < nf; i++)
		if (fpdu_mangled(&c))
			break;
	finish(c.fd);
	return O_FPDU;
}

/* a valid MPA exchange must still be accepted: the listener lives */
static int final_check(void)
{
	uint8_t b[600];
	int fd = tcp_connect();
	size_t n = 24;

	if (fd < 0) {
		perror("final check: connect");
		return 1;
	}
	memcpy(b, KEY_REQ, 16);
	b[16] = 0x50;
	b[17] = 2;
	put_be16(b + 18, 4);
	put_be16(b + 20, 1);
	put_be16(b + 22, 1);
	if (send_all(fd, b, n) || recv_all(fd, b, 20, 10000) ||
	    memcmp(b, KEY_REP, 16) || (b[16] & 0x20)) {
		printf("FAIL: final check: no accepting MPA reply\n");
		close(fd);
		return 1;
	}
	printf("final check: a valid MPA request is still accepted (rev %u, flags %#x)\n",
	       b[17], b[16]);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL;
	unsigned long n = 1000, k0 = 0, k, counts[O_NOUT] = {};
	struct sockaddr_in *s4 = (struct sockaddr_in *)&peer;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&peer;
	int opt, jobs = 1, j, fds[64][2], final = 0, rc = 0;
	uint64_t seed = 0;
	pid_t pids[64];

	while ((opt = getopt(argc, argv, "a:p:n:s:j:k:f")) != -1) {
		switch (opt) {
		case 'a': addr = optarg; break;
		case 'p': port = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'j': jobs = atoi(optarg); break;
		case 'k': k0 = strtoul(optarg, NULL, 0); break;
		case 'f': final = 1; break;
		default:
			fprintf(stderr, "usage: iw_peer -a ADDR -p PORT [-n CONNS] [-s SEED] [-j JOBS] [-k FIRST] [-f]\n");
			return 2;
		}
	}
	if (!addr || !port || jobs < 1 || jobs > 64)
		return 2;
	if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(atoi(port));
		peer_len = sizeof(*s4);
	} else if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(atoi(port));
		peer_len = sizeof(*s6);
	} else {
		fprintf(stderr, "bad address %s\n", addr);
		return 2;
	}
	crc_table_init(crc_table, 0x82f63b78u);
	if (!seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000007ull ^ ts.tv_nsec ^ getpid();
	}
	printf("seed %llu\n", (unsigned long long)seed);
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);

	/* job j takes connections k0 + j, k0 + j + jobs, ... */
	for (j = 0; j < jobs; j++) {
		if (pipe(fds[j]))
			return 1;
		pids[j] = fork();
		if (pids[j] == 0) {
			unsigned long mine[O_NOUT] = {};

			close(fds[j][0]);
			for (k = k0 + j; k < k0 + n; k += jobs)
				mine[one_connection(k, seed)]++;
			mine[O_RESTARTED] = refused_then_ok;
			if (write(fds[j][1], mine, sizeof(mine)) != sizeof(mine))
				_exit(1);
			_exit(0);
		}
		close(fds[j][1]);
	}
	for (j = 0; j < jobs; j++) {
		unsigned long theirs[O_NOUT];
		int st, o;

		if (read(fds[j][0], theirs, sizeof(theirs)) != sizeof(theirs))
			rc = 1;
		else
			for (o = 0; o < O_NOUT; o++)
				counts[o] += theirs[o];
		waitpid(pids[j], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	printf("%lu connections:", n);
	for (j = 0; j < O_NOUT; j++)
		printf(" %s %lu", outcome_name[j], counts[j]);
	printf("\n");
	if (counts[O_NCONNECT]) {
		printf("FAIL: %lu TCP connects failed\n", counts[O_NCONNECT]);
		rc = 1;
	}
	if (final && final_check())
		rc = 1;
	return rc;
}
