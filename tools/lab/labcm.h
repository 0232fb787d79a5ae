/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labcm: what the lab's RDMA CM test programs (hostile_user, iw_hijack,
 * iw_reuse, qp_events) share on top of labverbs: their command line and
 * the synchronous (rdma_create_ep()) ways to a listener or to a
 * connection.  Built into those programs only, the ones linked with
 * librdmacm (tools/lab/lab).
 */
#ifndef LABCM_H
#define LABCM_H

#include <rdma/rdma_cma.h>

/*
 * The options every RDMA CM program takes:
 *   PROG [OPTIONS] -s -a ADDR [-p PORT]     the listener, on ADDR
 *   PROG [OPTIONS] [-p PORT] SERVER         the client of SERVER
 * (lab_pair appends SERVER on the client's command line).
 */
struct lv_cm_args {
	int server;		/* -s */
	const char *addr;	/* -a ADDR, or the client's SERVER */
	const char *port;	/* -p PORT */
};

/*
 * getopt() for an RDMA CM program: -s, -a ADDR and -p PORT go into @a
 * (set up by the caller, with its default port); the program's own
 * options, @opts in getopt()'s form, are returned as getopt() returns
 * them, optarg set; -1 at the end.
 */
int lv_cm_getopt(int argc, char **argv, const char *opts,
		 struct lv_cm_args *a);

/*
 * After lv_cm_getopt(): 1 for the listener (-s with -a ADDR), 0 for the
 * client (a trailing SERVER, which becomes @a->addr), -1 for any other
 * command line.
 */
int lv_cm_role(int argc, char **argv, struct lv_cm_args *a);

/*
 * @addr:@port resolved for the RDMA CM's TCP port space, for a listener
 * if @passive; dies on failure.  rdma_freeaddrinfo() frees it.
 */
struct rdma_addrinfo *lv_cm_resolve(const char *addr, const char *port,
				    int passive);

/*
 * A synchronous CM ID with @host:@port's address and route resolved, and
 * a QP of @attr on it if @attr is not NULL; ready for rdma_connect().
 * Dies on failure.
 */
struct rdma_cm_id *lv_cm_client(const char *host, const char *port,
				struct ibv_qp_init_attr *attr);

/* A synchronous CM ID listening on @addr:@port, @backlog deep, or die. */
struct rdma_cm_id *lv_cm_listen(const char *addr, const char *port,
				int backlog);

/*
 * The next connection request on @listen_id, with a QP of @attr; ready
 * for rdma_accept().  Dies on failure.
 */
struct rdma_cm_id *lv_cm_request(struct rdma_cm_id *listen_id,
				 struct ibv_qp_init_attr *attr);

#endif /* LABCM_H */
