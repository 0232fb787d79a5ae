// SPDX-License-Identifier: GPL-2.0
/*
 * res_limits: what one unprivileged process can make a softrdma device
 * keep, run by scenarios/res-limits.sh:
 *
 *   res_limits -d DEV ctx N      open DEV up to N times: refused after
 *                                as many as the driver's limit (512),
 *                                and a context opens again once one is
 *                                closed
 *   res_limits -d DEV pd N       PDs on one context up to N: refused with
 *                                ENOMEM at max_pd (a few of them may be
 *                                the kernel's), then again once one is
 *                                freed
 *   res_limits -d DEV charge F   a CQ of max_cqe entries raises the
 *                                memory cgroup counter F (memory.current
 *                                of the cgroup this process runs in) by
 *                                at least 16 bytes per entry: its ring is
 *                                charged to its creator
 *
 * Each check prints an "ok - " or "not ok - " line (lv_check()); the last
 * line is "res_limits: N failed".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

#define KERNEL_PDS_MAX	16	/* PDs kernel consumers may hold on a device */

static struct ibv_device *find(const char *name)
{
	struct ibv_device *dev;

	dev = lv_find_device(ibv_get_device_list(NULL), name);
	if (!dev) {
		fprintf(stderr, "no device %s\n", name);
		exit(2);
	}
	return dev;
}

static void contexts(const char *name, long n)
{
	struct ibv_device *dev = find(name);
	struct ibv_context **ctx;
	long i, got;
	int err = 0;

	ctx = calloc(n, sizeof(*ctx));
	if (!ctx)
		lv_die("calloc");
	for (got = 0; got < n; got++) {
		ctx[got] = ibv_open_device(dev);
		if (!ctx[got]) {
			err = errno;
			break;
		}
	}
	printf("# %ld contexts opened, then errno %d (%s)\n", got, err,
	       err ? strerror(err) : "none");
	/* the providers' clean-up may overwrite errno: not checked here */
	lv_check(got < n, "ctx: refused before %ld contexts (at %ld)", n, got);
	lv_check(got == 512, "ctx: exactly 512 opened (%ld)", got);
	if (got) {
		ibv_close_device(ctx[--got]);
		ctx[got] = ibv_open_device(dev);
		lv_check(ctx[got] != NULL,
			 "ctx: one opens again after one is closed");
		if (ctx[got])
			got++;
	}
	for (i = 0; i < got; i++)
		ibv_close_device(ctx[i]);
	free(ctx);
}

static void pds(const char *name, long n)
{
	struct ibv_context *ctx = lv_open_device(name);
	struct ibv_device_attr attr;
	struct ibv_pd **pd;
	long i, got;
	int err = 0;

	if (ibv_query_device(ctx, &attr))
		lv_die("ibv_query_device");
	pd = calloc(n, sizeof(*pd));
	if (!pd)
		lv_die("calloc");
	for (got = 0; got < n; got++) {
		pd[got] = ibv_alloc_pd(ctx);
		if (!pd[got]) {
			err = errno;
			break;
		}
	}
	printf("# max_pd %d: %ld PDs allocated, then errno %d (%s)\n",
	       attr.max_pd, got, err, err ? strerror(err) : "none");
	lv_check(got < n, "pd: refused before %ld PDs (at %ld)", n, got);
	lv_check(err == ENOMEM, "pd: refused with ENOMEM (errno %d)", err);
	lv_check(got <= attr.max_pd && got >= attr.max_pd - KERNEL_PDS_MAX,
		 "pd: refused at max_pd %d less the kernel's (at %ld)",
		 attr.max_pd, got);
	if (got) {
		ibv_dealloc_pd(pd[--got]);
		pd[got] = ibv_alloc_pd(ctx);
		lv_check(pd[got] != NULL, "pd: one allocates again after one is freed");
		if (pd[got])
			got++;
	}
	for (i = 0; i < got; i++)
		if (ibv_dealloc_pd(pd[i]))
			lv_die("ibv_dealloc_pd");
	free(pd);
	ibv_close_device(ctx);
}

static long long charged(const char *file)
{
	long long v = -1;
	FILE *f = fopen(file, "r");

	if (!f || fscanf(f, "%lld", &v) != 1)
		lv_die(file);
	fclose(f);
	return v;
}

static void charge(const char *name, const char *file)
{
	struct ibv_context *ctx = lv_open_device(name);
	struct ibv_device_attr attr;
	long long before, after, want;
	struct ibv_cq *cq;

	if (ibv_query_device(ctx, &attr))
		lv_die("ibv_query_device");
	want = (long long)attr.max_cqe * 16;
	before = charged(file);
	cq = ibv_create_cq(ctx, attr.max_cqe, NULL, NULL, 0);
	if (!cq)
		lv_die("ibv_create_cq");
	after = charged(file);
	printf("# a CQ of %d entries: %s %lld -> %lld\n", attr.max_cqe, file,
	       before, after);
	lv_check(after - before >= want,
		 "charge: a CQ of max_cqe %d charged >= %lld bytes (%lld)",
		 attr.max_cqe, want, after - before);
	if (ibv_destroy_cq(cq))
		lv_die("ibv_destroy_cq");
	ibv_close_device(ctx);
}

int main(int argc, char **argv)
{
	if (argc != 5 || strcmp(argv[1], "-d")) {
		fprintf(stderr, "usage: res_limits -d DEV ctx|pd N | charge FILE\n");
		return 2;
	}
	if (!strcmp(argv[3], "ctx"))
		contexts(argv[2], atol(argv[4]));
	else if (!strcmp(argv[3], "pd"))
		pds(argv[2], atol(argv[4]));
	else if (!strcmp(argv[3], "charge"))
		charge(argv[2], argv[4]);
	else
		return 2;
	printf("res_limits: %d failed\n", lv_failures);
	return lv_failures ? 1 : 0;
}
