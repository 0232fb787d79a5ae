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
 * A block cut short by an exception or interrupt still counts whole: an
 * error of a few instructions per interrupt.  The counter is a plain
 * add, exact with one vCPU per guest (the lab's default).
 *
 * Debian 12's QEMU 7.2 loads plugins but ships no qemu-plugin.h; the
 * few calls used here are declared below as plugin API version 1 has
 * them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* QEMU 7.2 translates under its translation lock: no race on the list */
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
	kinsn_blocks = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
}

static void kinsn_exit(qemu_plugin_id_t id, void *userdata)
{
	const struct kinsn_block *b;
	FILE *f;

	(void)id;
	(void)userdata;
	f = fopen(kinsn_out, "w");
	if (!f) {
		perror(kinsn_out);
		return;
	}
	for (b = kinsn_blocks; b; b = b->next)
		if (b->execs)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)b->addr,
				(unsigned long long)b->insns,
				(unsigned long long)b->execs);
	fclose(f);
}

KINSN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				     const qemu_info_t *info, int argc,
				     char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4)) {
			fprintf(stderr, "kinsn: unknown argument %s\n", argv[i]);
			return -1;
		}
		snprintf(kinsn_out, sizeof(kinsn_out), "%s", argv[i] + 4);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, kinsn_translate);
	qemu_plugin_register_atexit_cb(id, kinsn_exit, NULL);
	return 0;
}
