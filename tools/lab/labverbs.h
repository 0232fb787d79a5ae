/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labverbs: what the lab's verbs test programs share: opening a device
 * by name, the command line, device, PD and buffers of the two-sided
 * programs (atomic_write, flush_verbs, mw_verbs, rc_access, uc_verbs),
 * RC QPs and the pairs of them those programs connect, the TCP exchange
 * of the attributes each side needs to reach the other, INIT -> RTR ->
 * RTS, the wait for one completion, and the reporter of single checks.
 * Built into each program (tools/lab/lab compiles it with them).
 */
#ifndef LABVERBS_H
#define LABVERBS_H

#include <infiniband/verbs.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The command line of a two-sided program (atomic_write, flush_verbs,
 * mw_verbs, rc_access, uc_verbs):
 *   PROG -d DEV -g GIDIDX -p PORT [-FLAG]            the server
 *   PROG -d DEV -g GIDIDX -p PORT [-FLAG] SERVER     the client
 */
struct lv_args {
	const char *dev;	/* -d: NULL for the first device */
	int gidx;		/* -g: local GID index, 1 if not given */
	const char *port;	/* -p: TCP port of the exchange */
	int flag;		/* -FLAG: the program's own switch */
	const char *host;	/* SERVER: the client only, NULL on the server */
};

/*
 * Parse the command line into @a, with TCP port @port if -p is not given
 * and @flag as the letter of the program's own switch (atomic_write's -c,
 * flush_verbs' -l), or 0 for none; an unknown option ends the program.
 */
void lv_parse_args(int argc, char **argv, const char *port, char flag,
		   struct lv_args *a);

/* What both sides of such a program open before their QPs. */
struct lv_base {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	unsigned char *buf;	/* page aligned */
	struct ibv_mr *mr;	/* all of buf */
};

/*
 * Open @a's device, a PD and @len bytes of buffer filled with @fill,
 * registered with @access (lv_buf_reg()).  Dies on failure.
 */
void lv_base_open(const struct lv_args *a, size_t len, int fill, int access,
		  struct lv_base *b);

/*
 * @len bytes of page aligned buffer filled with @fill, registered in @pd
 * with @access; the buffer is the MR's addr.  Dies on failure.
 */
struct ibv_mr *lv_buf_reg(struct ibv_pd *pd, size_t len, int fill,
			  int access);

/* A CQ of 16 entries on @ctx, or die. */
struct ibv_cq *lv_create_cq(struct ibv_context *ctx);

/* The next completion of @cq within 20 s; status -1 if none came. */
struct ibv_wc lv_poll1(struct ibv_cq *cq);

/* @wc's status as a string: "none" for lv_poll1()'s status -1. */
const char *lv_wc_status(struct ibv_wc wc);

/*
 * Send @c over the exchange's socket @fd and wait for the same from the
 * other side: a barrier, each program's steps named by their letters.
 * Dies on anything else.
 */
void lv_sync(int fd, char c);

/* What one side tells the other; both run the same program. */
struct lv_info {
	uint32_t qpn, psn, rkey;
	uint64_t addr;
	union ibv_gid gid;
};

/*
 * One check: prints "ok - " or "not ok - " (@ok false), then @fmt, and
 * flushes stdout, so that the line is out before anything can crash.
 * The scenarios (siwarp-verbs.sh, srq.sh) turn every such line into a
 * lab check.  A failed check counts in lv_failures.
 */
void lv_check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How many lv_check()s failed so far. */
extern int lv_failures;

/* perror(@what) and exit status 2 */
void lv_die(const char *what) __attribute__((noreturn));

/* The first device of @list named @name (any device if @name is NULL). */
struct ibv_device *lv_find_device(struct ibv_device **list, const char *name);

/* Open the device named @name (the first one if NULL), or die. */
struct ibv_context *lv_open_device(const char *name);

/*
 * An RC QP on @cq with @depth send and receive WRs of one SGE each and
 * @inl bytes of inline data; the granted caps in @cap if not NULL.
 */
struct ibv_qp *lv_create_rc_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			       unsigned int depth, unsigned int inl,
			       struct ibv_qp_cap *cap);

/*
 * Fill @mine with @qp's number, @psn, port 1's GID @gidx, and @buf/@mr
 * as the target of the peer's RDMA; port 1's active MTU into @mtu.  Dies
 * if a query fails.
 */
void lv_describe(struct ibv_qp *qp, int gidx, uint32_t psn, void *buf,
		 struct ibv_mr *mr, struct lv_info *mine, enum ibv_mtu *mtu);

/*
 * Server (@host NULL): accept one connection on TCP @port.  Client:
 * connect to @host:@port, retrying for ~10 s.  Returns the socket or dies.
 */
int lv_tcp_connect(const char *host, const char *port);

/* Send @mine, receive @peer; also a barrier.  Dies on a short transfer. */
void lv_xchg(int fd, const struct lv_info *mine, struct lv_info *peer);

/*
 * Meet the other side as @a says (lv_tcp_connect()) and swap @n
 * descriptions with it, @mine[i] for @peer[i].  Returns the socket.
 */
int lv_meet(const struct lv_args *a, int n, const struct lv_info *mine,
	    struct lv_info *peer);

/*
 * @n RC QPs, each on a CQ of its own (lv_create_cq()) with 8 send and
 * receive WRs of one SGE: @send_ops names the IBV_QP_EX_WITH_* work
 * requests they take through the extended post API (ibv_wr_*), 0 for
 * none (ibv_post_send() only).  Dies on failure.
 */
void lv_create_pairs(struct ibv_pd *pd, int n, uint64_t send_ops,
		     struct ibv_cq **cq, struct ibv_qp **qp);

/*
 * Connect @qp[0..@n-1] to the other side's, as @a says: each described
 * (lv_describe(), PSN @psn * (i + 1), plus @skew on the server, with
 * @b's buffer as the target of the peer's RDMA), the descriptions
 * swapped (lv_meet()), each QP taken to RTS with remote @access
 * (lv_rc_connect()), then one more lv_xchg() as a barrier: on return the
 * QPs of both sides are in RTS.  Returns the exchange's socket.
 */
int lv_connect_pairs(const struct lv_args *a, const struct lv_base *b, int n,
		     struct ibv_qp **qp, uint32_t psn, uint32_t skew,
		     int access);

/* @qp's state as ibv_query_qp() reads it, or -1 if the query fails. */
/*
 * A counter of port 1 of device @dev (sysfs hw_counters, what rdma
 * statistic shows), or -1 if it cannot be read.
 */
long lv_hw_counter(const char *dev, const char *name);

int lv_qp_state(struct ibv_qp *qp);

/* The name of QP state @s ("RESET" ... "ERR"), "?" for any other value. */
const char *lv_qp_state_str(int s);

/*
 * The doorbell librxe and libsiw ring after writing send WQEs into the
 * ring they share with the kernel: a POST_SEND command without work
 * requests for @qp.  0 or the errno.
 */
int lv_doorbell(struct ibv_qp *qp);

/* RESET to INIT on port 1 with remote @access; dies on failure */
void lv_qp_init(struct ibv_qp *qp, int access);

/*
 * Fill @attr for RTR towards @peer (its QPN and PSN, its GID over local
 * GID index @gidx, path MTU @mtu): what RC and UC both need there.
 */
void lv_rtr_path(struct ibv_qp_attr *attr, int gidx, enum ibv_mtu mtu,
		 const struct lv_info *peer);

/*
 * INIT -> RTR towards @peer (lv_rtr_path()), responder depth 1, RNR
 * timer 12.  Dies on failure.
 */
void lv_rc_rtr(struct ibv_qp *qp, int gidx, enum ibv_mtu mtu,
	       const struct lv_info *peer);

/*
 * RTR -> RTS with send PSN @psn, timeout 14, retry and RNR retry counts
 * 7, requester depth 1.  Dies on failure.
 */
void lv_rc_rts(struct ibv_qp *qp, uint32_t psn);

/*
 * Take @qp through INIT (with remote @access) and RTR to RTS towards
 * @peer, over GID index @gidx and path MTU @mtu: lv_qp_init(),
 * lv_rc_rtr(), lv_rc_rts().  Dies on failure.
 */
void lv_rc_connect(struct ibv_qp *qp, int gidx, enum ibv_mtu mtu, int access,
		   const struct lv_info *mine, const struct lv_info *peer);

#endif /* LABVERBS_H */
