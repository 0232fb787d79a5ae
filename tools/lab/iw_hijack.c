// SPDX-License-Identifier: GPL-2.0
/*
 * iw_hijack: may one process attach another's iWARP QP to a connection of
 * its own?  The RDMA CM passes the driver whatever QP number a caller of
 * rdma_connect() names (struct rdma_conn_param.qp_num, used when the CM ID
 * has no QP), and the rdma_cm device is open to every local user.
 *
 *   iw_hijack -s -a ADDR -p PORT     the listener (the peer guest)
 *   iw_hijack -p PORT SERVER         the victim and the thief
 *
 * The listener accepts each connection with a QP of its own; it tells the
 * two clients apart by their private data, echoes the victim's one SEND
 * and exits once it has.
 *
 * The client forks, before either side opens anything: the child, the
 * victim, creates a CM ID, resolves SERVER and its route and creates its
 * QP (in INIT, waiting for its own connection), and hands its number to
 * the parent, the thief.  The thief, with a CM ID and no QP, calls
 * rdma_connect() naming the victim's QP: this must fail (the driver
 * refuses a QP of another process) and the victim's QP must stay in INIT.
 * Then the control: the victim connects with its own QP and the same
 * parameters, and one SEND goes there and back.
 *
 * Prints "ok - ..." / "not ok - ..." lines (both processes); exit status
 * 0 iff all held.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "labcm.h"
#include "labverbs.h"

#define PD_VICTIM "victim"
#define PD_THIEF "thief"
#define MSG "the victim's own connection"

static void on_alarm(int sig)
{
	static const char msg[] = "not ok - timed out (no answer in 90 s)\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(1);
}

static struct ibv_qp_init_attr qp_attr(void)
{
	return (struct ibv_qp_init_attr){
		.cap = {
			.max_send_wr = 2,
			.max_recv_wr = 2,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_all = 1,
		.qp_type = IBV_QPT_RC,
	};
}

/* what both clients ask of a connection: only the QP differs */
static struct rdma_conn_param conn_param(const char *who, uint32_t qpn)
{
	return (struct rdma_conn_param){
		.private_data = who,
		.private_data_len = strlen(who) + 1,
		.responder_resources = 1,
		.initiator_depth = 1,
		.qp_num = qpn,
	};
}

static void put_word(int fd, uint32_t v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		lv_die("pipe write");
}

static uint32_t get_word(int fd)
{
	uint32_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		lv_die("pipe read");
	return v;
}

/* the victim: @to the thief, @from the thief */
static int victim(const char *host, const char *port, int to, int from)
{
	struct ibv_qp_init_attr attr = qp_attr();
	static char out[64] = MSG, in[64];
	struct rdma_conn_param param;
	struct ibv_mr *out_mr, *in_mr;
	struct rdma_cm_id *id;
	struct ibv_wc wc;
	int s;

	id = lv_cm_client(host, port, &attr);
	s = lv_qp_state(id->qp);
	lv_check(s == IBV_QPS_INIT, "victim: QP %u in INIT after rdma_create_qp (%s)",
		 id->qp->qp_num, lv_qp_state_str(s));
	put_word(to, id->qp->qp_num);

	/* the thief tried */
	get_word(from);
	s = lv_qp_state(id->qp);
	lv_check(s == IBV_QPS_INIT,
		 "victim: QP %u still in INIT after the thief's connect (%s)",
		 id->qp->qp_num, lv_qp_state_str(s));
	put_word(to, 0);
	/* the thief is gone */
	get_word(from);

	/* the control: the same parameters, the victim's own QP */
	out_mr = rdma_reg_msgs(id, out, sizeof(out));
	in_mr = rdma_reg_msgs(id, in, sizeof(in));
	if (!out_mr || !in_mr)
		lv_die("rdma_reg_msgs");
	if (rdma_post_recv(id, NULL, in, sizeof(in), in_mr))
		lv_die("rdma_post_recv");
	param = conn_param(PD_VICTIM, 0);
	if (rdma_connect(id, &param)) {
		lv_check(0, "victim: rdma_connect() with its own QP: %s",
			 strerror(errno));
		return 1;
	}
	s = lv_qp_state(id->qp);
	lv_check(s == IBV_QPS_RTS,
		 "victim: connected with its own QP, which is in RTS (%s)",
		 lv_qp_state_str(s));
	if (rdma_post_send(id, NULL, out, sizeof(out), out_mr, IBV_SEND_SIGNALED))
		lv_die("rdma_post_send");
	if (rdma_get_send_comp(id, &wc) <= 0 || wc.status != IBV_WC_SUCCESS)
		lv_check(0, "victim: SEND completion");
	else if (rdma_get_recv_comp(id, &wc) <= 0 || wc.status != IBV_WC_SUCCESS)
		lv_check(0, "victim: receive completion");
	else
		lv_check(!memcmp(in, MSG, sizeof(MSG)),
			 "victim: its SEND came back through the listener");
	rdma_disconnect(id);
	rdma_dereg_mr(in_mr);
	rdma_dereg_mr(out_mr);
	rdma_destroy_ep(id);
	return lv_failures != 0;
}

/* the thief: @to the victim, @from the victim */
static int thief(const char *host, const char *port, int to, int from)
{
	struct rdma_conn_param param;
	struct rdma_cm_id *id;
	uint32_t qpn;
	int err, e;

	qpn = get_word(from);
	id = lv_cm_client(host, port, NULL);
	param = conn_param(PD_THIEF, qpn);
	err = rdma_connect(id, &param);
	e = errno;
	lv_check(err != 0,
		 "thief: rdma_connect() naming the victim's QP %u, with no QP of its own, fails (%s)",
		 qpn, err ? strerror(e) : "connected");
	put_word(to, 0);
	/* the victim looked at its QP */
	get_word(from);
	if (!err)
		rdma_disconnect(id);
	rdma_destroy_ep(id);
	put_word(to, 0);
	return lv_failures != 0;
}

static int run_client(const char *host, const char *port)
{
	int v2t[2], t2v[2], status, rc;
	pid_t pid;

	if (pipe(v2t) || pipe(t2v))
		lv_die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		lv_die("fork");
	if (!pid) {
		close(v2t[0]);
		close(t2v[1]);
		alarm(90);
		exit(victim(host, port, v2t[1], t2v[0]));
	}
	close(v2t[1]);
	close(t2v[0]);
	rc = thief(host, port, t2v[1], v2t[0]);
	if (waitpid(pid, &status, 0) != pid)
		lv_die("waitpid");
	lv_check(WIFEXITED(status) && !WEXITSTATUS(status),
		 "victim process exited 0 (status 0x%x)", status);
	return rc || lv_failures;
}

/* the listener: each connection gets a QP; the victim's SEND is echoed */
static int run_server(const char *addr, const char *port)
{
	struct ibv_qp_init_attr attr = qp_attr();
	struct rdma_cm_id *listen_id, *id;
	static char buf[64];
	struct ibv_mr *mr;
	struct ibv_wc wc;
	const char *pd;
	int is_victim;

	listen_id = lv_cm_listen(addr, port, 4);
	for (;;) {
		if (rdma_get_request(listen_id, &id))
			lv_die("rdma_get_request");
		pd = id->event->param.conn.private_data;
		is_victim = pd && id->event->param.conn.private_data_len >=
				  sizeof(PD_VICTIM) &&
			    !memcmp(pd, PD_VICTIM, sizeof(PD_VICTIM));
		printf("# a connection request from the %s\n",
		       is_victim ? "victim" : "thief (or another)");
		fflush(stdout);
		if (rdma_create_qp(id, NULL, &attr))
			lv_die("rdma_create_qp");
		mr = rdma_reg_msgs(id, buf, sizeof(buf));
		if (!mr)
			lv_die("rdma_reg_msgs");
		if (rdma_post_recv(id, NULL, buf, sizeof(buf), mr))
			lv_die("rdma_post_recv");
		if (rdma_accept(id, NULL)) {
			printf("# rdma_accept: %s\n", strerror(errno));
			fflush(stdout);
			continue;
		}
		printf("# accepted the %s\n", is_victim ? "victim" : "thief");
		fflush(stdout);
		/* a hijacked connection is left as it is */
		if (!is_victim)
			continue;
		if (rdma_get_recv_comp(id, &wc) <= 0 ||
		    wc.status != IBV_WC_SUCCESS)
			lv_die("the victim's SEND");
		if (rdma_post_send(id, NULL, buf, sizeof(buf), mr,
				   IBV_SEND_SIGNALED) ||
		    rdma_get_send_comp(id, &wc) <= 0 ||
		    wc.status != IBV_WC_SUCCESS)
			lv_die("the echo");
		printf("# echoed the victim's SEND\n");
		fflush(stdout);
		rdma_disconnect(id);
		rdma_dereg_mr(mr);
		rdma_destroy_ep(id);
		break;
	}
	rdma_destroy_ep(listen_id);
	return 0;
}

int main(int argc, char **argv)
{
	struct lv_cm_args a = { .port = "7490" };
	int role = -1;

	signal(SIGALRM, on_alarm);
	if (lv_cm_getopt(argc, argv, "", &a) == -1)
		role = lv_cm_role(argc, argv, &a);
	if (role < 0) {
		fprintf(stderr, "usage: iw_hijack [-p PORT] (-s -a ADDR | SERVER)\n");
		return 2;
	}
	if (role)
		return run_server(a.addr, a.port);
	alarm(90);
	return run_client(a.addr, a.port);
}
