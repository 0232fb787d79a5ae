// SPDX-License-Identifier: GPL-2.0-only
/*
 * softrdma speaks the rxe and siw user ABIs, so its devices carry the
 * driver ids RDMA_DRIVER_RXE and RDMA_DRIVER_SIW.  The stock rdma_rxe and
 * siw modules look devices up by those ids from their netdev notifiers and
 * cast what they find to their own structures, and on unload unregister
 * every device with their id.  Either of them beside softrdma corrupts
 * memory.  So softrdma refuses to load while one of them is loaded, and
 * vetoes their loading while it is loaded.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "guard.h"

static const char * const rivals[] = {
	"rdma_rxe",
	"siw",
};

/**
 * softrdma_guard_is_rival() - is this a module softrdma cannot live beside?
 * @module_name: name of a kernel module, as in /sys/module
 */
VISIBLE_IF_KUNIT bool softrdma_guard_is_rival(const char *module_name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rivals); i++)
		if (!strcmp(module_name, rivals[i]))
			return true;
	return false;
}

#if IS_ENABLED(CONFIG_MODULES)
static int guard_module_event(struct notifier_block *nb, unsigned long event,
			      void *data)
{
	struct module *mod = data;

	if (event != MODULE_STATE_COMING || !softrdma_guard_is_rival(mod->name))
		return NOTIFY_DONE;

	pr_err("softrdma: refusing to let %s load: it cannot share the rxe/siw driver ids with softrdma (rmmod softrdma first)\n",
	       mod->name);
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block guard_module_nb = {
	.notifier_call = guard_module_event,
};

/*
 * /sys/module lists every loaded module; its kset is the parent of our own
 * module's kobject.  Built into the kernel we can name it directly.
 */
static struct kset *loaded_modules(void)
{
#ifdef MODULE
	return THIS_MODULE->mkobj.kobj.kset;
#else
	return module_kset;
#endif
}

static const char *loaded_rival(void)
{
	struct kset *modules = loaded_modules();
	struct kobject *kobj;
	unsigned int i;

	if (!modules)
		return NULL;

	for (i = 0; i < ARRAY_SIZE(rivals); i++) {
		kobj = kset_find_obj(modules, rivals[i]);
		if (kobj) {
			kobject_put(kobj);
			return rivals[i];
		}
	}
	return NULL;
}

/**
 * softrdma_guard_init() - veto rival modules from now on, fail if one is here
 *
 * The notifier goes in first, so that a rival either is already listed in
 * /sys/module or meets the veto when it comes.
 *
 * Return: 0, or -EBUSY if rdma_rxe or siw is loaded.
 */
int softrdma_guard_init(void)
{
	const char *rival;
	int err;

	err = register_module_notifier(&guard_module_nb);
	if (err)
		return err;

	rival = loaded_rival();
	if (rival) {
		pr_err("softrdma: refusing to load: %s is loaded and uses the same RDMA driver id (rmmod %s first)\n",
		       rival, rival);
		unregister_module_notifier(&guard_module_nb);
		return -EBUSY;
	}
	return 0;
}

void softrdma_guard_exit(void)
{
	unregister_module_notifier(&guard_module_nb);
}
#else
/* Without modules a rival could only be built in, which Kconfig forbids. */
int softrdma_guard_init(void)
{
	return 0;
}

void softrdma_guard_exit(void)
{
}
#endif
