# SPDX-License-Identifier: GPL-2.0-only
#
# softrdma: build the module out of tree against Debian's 6.1 headers, run
# the lab, run the tests.  `make help` lists the targets.

DRIVER_DIR := drivers/infiniband/sw/softrdma
TOP := $(CURDIR)

# The kernel to build against: the running one's build tree if it has one,
# else the newest installed Debian 6.1 headers.  KERNEL=6.12 takes the
# newest Debian 6.12 headers instead; KDIR= overrides both.
KERNEL ?=
KDIR ?= $(shell tools/kdir.sh $(KERNEL))
# The release modules install under (Debian's kernel.release file holds the
# upstream version, so read the UTS release the headers were built for).
KVER = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)

KBUILD := $(MAKE) -C $(KDIR) M=$(TOP)/$(DRIVER_DIR) CONFIG_RDMA_SOFTRDMA=m

.PHONY: all modules clean install deps run test test-full test-debug kunit lab-shell \
	checkpatch check-mainline deb help

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers; run 'make deps'" >&2; exit 1; }
	$(KBUILD) W=1 modules

clean:
	@if [ -n "$(KDIR)" ]; then $(KBUILD) clean; fi

# INSTALL_MOD_PATH= and DESTDIR= stage the install under another root.
install: modules
	$(KBUILD) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	install -D -m 0644 tools/softrdma-modprobe.conf \
		$(DESTDIR)/etc/modprobe.d/softrdma.conf

deps:
	tools/deps.sh

# softrdma-dkms_<VERSION>_all.deb: the module's source for DKMS, the
# modprobe.d rule and the docs (tools/deb.sh)
deb: deps
	tools/deb.sh

run: deps
	$(MAKE) modules
	tools/run.sh

test: deps
	$(MAKE) modules
	tools/test.sh

test-full: deps
	$(MAKE) modules
	tools/test.sh --full

# make test's softrdma-only lab parts on a KASAN and lockdep kernel built
# here (tools/lab/debug-kernel.sh: about 22 minutes the first time, then
# cached; the parts about three hours)
test-debug: deps
	tools/test.sh --debug-kernel

kunit: deps
	kunit/run

lab-shell: deps
	$(MAKE) modules
	tools/lab/lab shell --stack sroce

checkpatch:
	tools/checkpatch.sh

# compile against Debian's newest kernel source (tools/mainline-check.sh)
check-mainline: deps
	tools/mainline-check.sh

help:
	@echo "make            build softrdma.ko against $(KDIR)"
	@echo "make KERNEL=6.12  the same against Debian's 6.12 headers"
	@echo "make install    install it (extra/), depmod, keep rdma_rxe/siw away"
	@echo "make deb        softrdma-dkms_$$(cat VERSION)_all.deb: DKMS builds it for each kernel"
	@echo "make run        deps, build, two guests, rdma link add, results"
	@echo "make test       KUnit and the lab scenarios; ends 'softrdma: N passed, N failed'"
	@echo "make test-full  the same with the full perftest matrices"
	@echo "make test-debug softrdma-only lab parts on a KASAN + lockdep kernel (~3 h)"
	@echo "make kunit      KUnit only"
	@echo "make lab-shell  a shell in guest 0 of a two-guest sroce lab"
	@echo "make checkpatch scripts/checkpatch.pl --strict over the driver"
	@echo "make check-mainline  compile against Debian's newest kernel source"
