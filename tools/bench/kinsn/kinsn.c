// SPDX-License-Identifier: GPL-2.0
/*
 * kinsn: a QEMU TCG plugin that counts the instructions a guest executes
 * in kernel mode, by the start address of each translated block.  With
 * the guest's /proc/kallsyms the counts become instructions per kernel
 * function (tools/bench/kinsn/kinsn-report), a measure of a code path's
 * cost that no host load moves, unlike the clock.
 *
 *	qemu-system-x86_64 -plugin libkinsn.so,out=FILE ...
 *
 * At exit it writes one line per block that ran: "ADDR INSNS EXECS"
 * (hexadecimal start address, instructions in the block, executions).
 *
 * With snap=FILE it also writes the counts so far whenever FILE appears
 * (the guest creates it through a shared directory): FILE holds a name,
 * the counts go to OUT.NAME, then FILE is removed.  A thread looks for
 * FILE every 10 ms; the guest waits longer than that, idle, so that the
 * snapshot falls into its wait.  Two snapshots around a run count that
 * run alone, without the boot.
 * A block cut short by an exception or interrupt still counts whole: an
 * error of a few instructions per interrupt.  The counter is a plain
 * add, exact with one vCPU per guest (the lab's default).
 *
 * Debian 12's QEMU 7.2 loads plugins but ships no qemu-plugin.h; the
 * few calls used here are declared below as plugin API version 1 has
 * them.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*kinsn_tb_trans_cb)(qemu_plugin_id_t id,
				  struct qemu_plugin_tb *tb);
typedef void (*kinsn_udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   kinsn_tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, kinsn_udata_cb cb,
				    void *userdata);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);

#define KINSN_EXPORT __attribute__((visibility("default")))

KINSN_EXPORT int qemu_plugin_version = 1;

/* x86-64: the kernel half of the address space */
#define KINSN_KERNEL_START 0xffff800000000000ULL

struct kinsn_block {
	uint64_t addr;
	uint64_t insns;
	uint64_t execs;		/* the inline add's target */
	struct kinsn_block *next;
};

static struct kinsn_block *kinsn_blocks;
static char kinsn_out[4096] = "kinsn.out";
static char kinsn_snap[4096];

/*
 * QEMU 7.2 translates under its translation lock: one writer.  The
 * snapshot thread walks the list meanwhile: a block is published whole.
 */
static void kinsn_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t addr = qemu_plugin_tb_vaddr(tb);
	struct kinsn_block *b;

	(void)id;
	if (addr < KINSN_KERNEL_START)
		return;
	b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->addr = addr;
	b->insns = qemu_plugin_tb_n_insns(tb);
	b->next = kinsn_blocks;
	__atomic_store_n(&kinsn_blocks, b, __ATOMIC_RELEASE);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
}

/* the counts so far into PATH; a count read while the vCPU adds is
 * an aligned 64-bit load: the value before or after the add
 */
static void kinsn_dump(const char *path)
{
	const struct kinsn_block *b;
	uint64_t execs;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	for (b = __atomic_load_n(&kinsn_blocks, __ATOMIC_ACQUIRE); b;
	     b = b->next) {
		execs = __atomic_load_n(&b->execs, __ATOMIC_RELAXED);
		if (execs)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)b->addr,
				(unsigned long long)b->insns,
				(unsigned long long)execs);
	}
	fclose(f);
}

static void *kinsn_snap_thread(void *arg)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	char name[256], path[sizeof(kinsn_out) + sizeof(name) + 2];
	size_t i;
	FILE *f;

	(void)arg;
	for (;;) {
		nanosleep(&tick, NULL);
		f = fopen(kinsn_snap, "r");
		if (!f)
			continue;
		if (!fgets(name, sizeof(name), f))
			name[0] = 0;
		fclose(f);
		name[strcspn(name, "\n")] = 0;
		/* a plain name: letters, digits, '-', '_' */
		for (i = 0; name[i]; i++)
			if (!strchr("abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_",
				    name[i]))
				break;
		if (i && !name[i]) {
			snprintf(path, sizeof(path), "%s.%s", kinsn_out, name);
			kinsn_dump(path);
		} else {
			fprintf(stderr, "kinsn: bad snapshot name in %s\n",
				kinsn_snap);
		}
		unlink(kinsn_snap);
	}
	return NULL;
}

static void kinsn_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	kinsn_dump(kinsn_out);
}

KINSN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				     const qemu_info_t *info, int argc,
				     char **argv)
{
	pthread_t thread;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			snprintf(kinsn_out, sizeof(kinsn_out), "%s", argv[i] + 4);
		} else if (!strncmp(argv[i], "snap=", 5)) {
			snprintf(kinsn_snap, sizeof(kinsn_snap), "%s",
				 argv[i] + 5);
		} else {
			fprintf(stderr, "kinsn: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (kinsn_snap[0]) {
		unlink(kinsn_snap);
		if (pthread_create(&thread, NULL, kinsn_snap_thread, NULL)) {
			fprintf(stderr, "kinsn: no snapshot thread\n");
			return -1;
		}
		pthread_detach(thread);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, kinsn_translate);
	qemu_plugin_register_atexit_cb(id, kinsn_exit, NULL);
	return 0;
}
