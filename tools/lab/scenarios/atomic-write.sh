# SPDX-License-Identifier: GPL-2.0
#
# atomic-write: IBA 1.5 ATOMIC WRITE through librxe (ibv_wr_atomic_write),
# on kernels whose RDMA core carries it (6.12):
#   lab run --kernel 6.12 --stack sroce,sroce atomic-write
#   lab run --kernel 6.12 --stack sroce,rxe atomic-write  (rxe's requests)
#   lab run --kernel 6.12 --stack rxe,sroce atomic-write  (rxe's memory)
# guest0 owns the memory, guest1 posts: tools/lab/atomic_write.c (built
# on the host by tools/lab/lab) checks the completions and their opcode,
# that an RDMA READ after ATOMIC WRITEs sees them, every byte of the
# target on the server, and the remote access errors of an ATOMIC WRITE
# into a read-only MR, past an MR's end and with a wrong R_Key.  On a
# softrdma end it also checks the capabilities (ATOMIC_WRITE and
# FLUSH_GLOBAL advertised, FLUSH_PERSISTENT not) and the FLUSH MR rights
# registration takes.  rdma-core 44 cannot post a FLUSH: KUnit covers it.

AW_BIN=${ATOMIC_WRITE_BIN:-/var/tmp/softrdma-lab/atomic_write}
port=18900

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid"

caps=()
[ "$LAB_STACK" = sroce ] && caps=(-c)
if [ -x "$AW_BIN" ]; then
	lab_pair atomic_write 90 lab_run "$AW_BIN" -d "$LAB_IBDEV" -g "$gid" \
		"${caps[@]}"
else
	lab_check "atomic_write built on the host ($AW_BIN)" false
fi

if [ "$LAB_STACK" = sroce ]; then
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
else
	lab_barrier unload
fi
exit 0
