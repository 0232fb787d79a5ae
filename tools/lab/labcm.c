// SPDX-License-Identifier: GPL-2.0
/* labcm: see labcm.h */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "labcm.h"
#include "labverbs.h"

int lv_cm_getopt(int argc, char **argv, const char *opts,
		 struct lv_cm_args *a)
{
	char all[64];
	int c;

	snprintf(all, sizeof(all), "sa:p:%s", opts);
	while ((c = getopt(argc, argv, all)) != -1) {
		if (c == 's')
			a->server = 1;
		else if (c == 'a')
			a->addr = optarg;
		else if (c == 'p')
			a->port = optarg;
		else
			return c;
	}
	return -1;
}

int lv_cm_role(int argc, char **argv, struct lv_cm_args *a)
{
	if (a->server)
		return optind == argc && a->addr ? 1 : -1;
	if (optind != argc - 1)
		return -1;
	a->addr = argv[optind];
	return 0;
}

struct rdma_addrinfo *lv_cm_resolve(const char *addr, const char *port,
				    int passive)
{
	struct rdma_addrinfo hints = {
		.ai_flags = passive ? RAI_PASSIVE : 0,
		.ai_port_space = RDMA_PS_TCP,
	};
	struct rdma_addrinfo *res;

	if (rdma_getaddrinfo(addr, port, &hints, &res))
		lv_die("rdma_getaddrinfo");
	return res;
}

struct rdma_cm_id *lv_cm_client(const char *host, const char *port,
				struct ibv_qp_init_attr *attr)
{
	struct rdma_addrinfo *res = lv_cm_resolve(host, port, 0);
	struct rdma_cm_id *id;

	if (rdma_create_ep(&id, res, NULL, attr))
		lv_die("rdma_create_ep");
	rdma_freeaddrinfo(res);
	return id;
}

struct rdma_cm_id *lv_cm_listen(const char *addr, const char *port,
				int backlog)
{
	struct rdma_addrinfo *res = lv_cm_resolve(addr, port, 1);
	struct rdma_cm_id *id;

	if (rdma_create_ep(&id, res, NULL, NULL))
		lv_die("rdma_create_ep");
	rdma_freeaddrinfo(res);
	if (rdma_listen(id, backlog))
		lv_die("rdma_listen");
	return id;
}

struct rdma_cm_id *lv_cm_request(struct rdma_cm_id *listen_id,
				 struct ibv_qp_init_attr *attr)
{
	struct rdma_cm_id *id;

	if (rdma_get_request(listen_id, &id))
		lv_die("rdma_get_request");
	if (rdma_create_qp(id, NULL, attr))
		lv_die("rdma_create_qp");
	return id;
}
