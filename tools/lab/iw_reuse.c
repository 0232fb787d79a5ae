// SPDX-License-Identifier: GPL-2.0
/*
 * iw_reuse: does a completion really free the buffers before it?  Over
 * the RDMA CM (an iWARP or a RoCE device), one RC connection:
 *
 *   iw_reuse -s -a ADDR -p PORT [-n ROUNDS] [-S SIZE]     server
 *   iw_reuse [-n ROUNDS] [-S SIZE] -p PORT SERVER          client
 *
 * Each round the client fills one buffer with the round's pattern, RDMA
 * WRITEs it, unsignalled, into the round's own slot of the server's
 * memory, then SENDs the round number, signalled.  As soon as that SEND
 * completes it overwrites the buffer (IBA: a completion also completes
 * every WQE posted before it, whose buffers the consumer may then reuse)
 * and goes on with the next round.  The server, on each SEND, checks
 * the round's slot byte for byte.  A transport that reports the SEND
 * complete while the WRITE's bytes may still have to be sent again from
 * the buffer (a TCP retransmission of pages lent to TCP) puts the
 * overwritten bytes on the wire: the slot holds them, or the peer's MPA
 * CRC fails and the connection ends.  Run with packet loss, so that TCP
 * retransmits.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exit status 0 iff all held.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "labcm.h"
#include "labverbs.h"

/* the server's memory, told to the client in its first SEND */
struct slot_info {
	uint64_t addr;
	uint32_t rkey;
	uint32_t rounds;
	uint32_t size;
};

static unsigned int rounds = 200;
static unsigned int size = 65536;

static uint8_t pattern(unsigned int round, size_t off)
{
	return (uint8_t)(round * 131 + off * 7 + (off >> 8));
}

static struct rdma_cm_id *setup(const char *addr, const char *port,
				int server)
{
	struct ibv_qp_init_attr attr = {
		.cap = {
			.max_send_wr = 8,
			/* iWARP has no RNR: a receive for every SEND */
			.max_recv_wr = rounds + 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_all = 0,
		.qp_type = IBV_QPT_RC,
	};

	if (!server)
		return lv_cm_client(addr, port, &attr);
	return lv_cm_request(lv_cm_listen(addr, port, 1), &attr);
}

/*
 * wait for one send (or receive) completion, in *@wc; 0 when it
 * succeeded, else a failed check "@what: ..."
 */
static int comp_done(struct rdma_cm_id *id, int send, struct ibv_wc *wc,
		     const char *what)
{
	int n;

	n = send ? rdma_get_send_comp(id, wc) : rdma_get_recv_comp(id, wc);
	if (n <= 0) {
		lv_check(0, "%s: no completion", what);
		return -1;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		lv_check(0, "%s: completion status %s", what,
			 ibv_wc_status_str(wc->status));
		return -1;
	}
	return 0;
}

static int run_server(const char *addr, const char *port)
{
	struct rdma_cm_id *id = setup(addr, port, 1);
	struct slot_info info = { .rounds = rounds, .size = size };
	struct ibv_mr *mr, *info_mr, *msg_mr;
	unsigned int r, i, bad_rounds = 0, first_bad = 0, got = 0;
	size_t total = (size_t)rounds * size, off;
	struct ibv_wc wc;
	uint32_t *msgs;
	uint8_t *slots, *slot;
	char what[32];

	slots = calloc(1, total);
	msgs = calloc(rounds, sizeof(*msgs));
	if (!slots || !msgs)
		lv_die("calloc");
	mr = rdma_reg_write(id, slots, total);
	info_mr = rdma_reg_msgs(id, &info, sizeof(info));
	msg_mr = rdma_reg_msgs(id, msgs, rounds * sizeof(*msgs));
	if (!mr || !info_mr || !msg_mr)
		lv_die("rdma_reg");
	for (i = 0; i < rounds; i++)
		if (rdma_post_recv(id, (void *)(uintptr_t)i, &msgs[i],
				   sizeof(msgs[i]), msg_mr))
			lv_die("rdma_post_recv");
	if (rdma_accept(id, NULL))
		lv_die("rdma_accept");
	info.addr = (uintptr_t)slots;
	info.rkey = mr->rkey;
	if (rdma_post_send(id, NULL, &info, sizeof(info), info_mr,
			   IBV_SEND_SIGNALED) ||
	    comp_done(id, 1, &wc, "slot info"))
		return 1;

	for (got = 0; got < rounds; got++) {
		snprintf(what, sizeof(what), "round %u: receive", got);
		if (comp_done(id, 0, &wc, what))
			break;
		i = (unsigned int)wc.wr_id;
		r = msgs[i];
		if (r != got) {
			lv_check(0, "SEND %u carried round %u", got, r);
			break;
		}
		slot = slots + (size_t)r * size;
		for (off = 0; off < size; off++)
			if (slot[off] != pattern(r, off))
				break;
		if (off < size) {
			if (!bad_rounds++)
				first_bad = r;
			printf("# round %u: byte %zu is 0x%02x, not 0x%02x\n",
			       r, off, slot[off], pattern(r, off));
		}
	}
	lv_check(got == rounds, "%u of %u rounds arrived", got, rounds);
	lv_check(!bad_rounds,
		 "every slot holds what was written before the buffer was reused (%u bad, first %u)",
		 bad_rounds, first_bad);
	rdma_disconnect(id);
	rdma_dereg_mr(msg_mr);
	rdma_dereg_mr(info_mr);
	rdma_dereg_mr(mr);
	rdma_destroy_ep(id);
	free(msgs);
	free(slots);
	return lv_failures != 0;
}

static int run_client(const char *addr, const char *port)
{
	struct rdma_cm_id *id = setup(addr, port, 0);
	struct ibv_mr *buf_mr, *info_mr, *msg_mr;
	struct slot_info info;
	struct ibv_wc wc;
	uint32_t msg;
	unsigned int r;
	uint8_t *buf;
	size_t off;

	buf = malloc(size);
	if (!buf)
		lv_die("malloc");
	buf_mr = rdma_reg_msgs(id, buf, size);
	info_mr = rdma_reg_msgs(id, &info, sizeof(info));
	msg_mr = rdma_reg_msgs(id, &msg, sizeof(msg));
	if (!buf_mr || !info_mr || !msg_mr)
		lv_die("rdma_reg");
	if (rdma_post_recv(id, NULL, &info, sizeof(info), info_mr))
		lv_die("rdma_post_recv");
	if (rdma_connect(id, NULL))
		lv_die("rdma_connect");
	if (comp_done(id, 0, &wc, "slot info"))
		return 1;
	if (info.rounds != rounds || info.size != size) {
		lv_check(0, "server has %u slots of %u B, not %u of %u",
			 info.rounds, info.size, rounds, size);
		return 1;
	}

	for (r = 0; r < rounds; r++) {
		for (off = 0; off < size; off++)
			buf[off] = pattern(r, off);
		if (rdma_post_write(id, NULL, buf, size, buf_mr, 0,
				    info.addr + (uint64_t)r * size, info.rkey))
			lv_die("rdma_post_write");
		msg = r;
		if (rdma_post_send(id, NULL, &msg, sizeof(msg), msg_mr,
				   IBV_SEND_SIGNALED))
			lv_die("rdma_post_send");
		if (comp_done(id, 1, &wc, "round"))
			break;
		/* the SEND completed: so did the WRITE; reuse its buffer */
		memset(buf, 0xee, size);
	}
	lv_check(r == rounds,
		 "%u rounds: a %u B WRITE, a SEND, the buffer overwritten",
		 r, size);
	rdma_disconnect(id);
	rdma_dereg_mr(msg_mr);
	rdma_dereg_mr(info_mr);
	rdma_dereg_mr(buf_mr);
	rdma_destroy_ep(id);
	free(buf);
	return lv_failures != 0;
}

int main(int argc, char **argv)
{
	struct lv_cm_args a = { .port = "7480" };
	int role, c, bad = 0;

	while ((c = lv_cm_getopt(argc, argv, "n:S:", &a)) != -1) {
		switch (c) {
		case 'n':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'S':
			size = strtoul(optarg, NULL, 0);
			break;
		default:
			bad = 1;
			break;
		}
	}
	role = bad ? -1 : lv_cm_role(argc, argv, &a);
	if (role < 0 || !rounds || !size || rounds > 1000) {
		fprintf(stderr, "usage: iw_reuse [-n ROUNDS] [-S SIZE] [-p PORT] %s\n",
			"(-s -a ADDR | SERVER)");
		return 2;
	}
	return role ? run_server(a.addr, a.port) : run_client(a.addr, a.port);
}
