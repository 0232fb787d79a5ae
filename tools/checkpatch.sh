#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's scripts/checkpatch.pl --strict over softrdma's C files
# (or the files given).  checkpatch comes from Debian's linux-source-6.1,
# unpacked once under /var/tmp.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=/var/tmp/softrdma-checkpatch
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "checkpatch: no linux-source-6.1; run make deps" >&2; exit 1; }

stamp="$(stat -c '%s %Y' "$tarball")"
if [ ! -f "$cache/stamp" ] || [ "$(cat "$cache/stamp")" != "$stamp" ]; then
	rm -rf "$cache"
	mkdir -p "$cache"
	tar -C "$cache" -xf "$tarball" --wildcards \
		'linux-source-6.1/scripts/checkpatch.pl' \
		'linux-source-6.1/scripts/spelling.txt' \
		'linux-source-6.1/scripts/const_structs.checkpatch'
	echo "$stamp" >"$cache/stamp"
fi

cd "$top"
if [ $# -eq 0 ]; then
	set -- $(git ls-files -co --exclude-standard 'drivers/*.[ch]' 'include/*.h' \
		'tools/lab/kevents/*.c')
fi
# several trees may be checked at once: each run has its own output file
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
# compat.h is the one file that tests kernel versions, by design: the
# two rules against LINUX_VERSION_CODE are for code inside the kernel
compat=()
files=()
for f in "$@"; do
	case $f in
	*/softrdma/compat.h) compat+=("$f") ;;
	*) files+=("$f") ;;
	esac
done
check() {
	"$cache/linux-source-6.1/scripts/checkpatch.pl" --strict --no-tree \
		--terse --ignore FILE_PATH_CHANGES"${1:+,$1}" -f "${@:2}"
}
if [ ${#files[@]} -gt 0 ]; then
	check "" "${files[@]}" >"$out" || status=$?
fi
if [ ${#compat[@]} -gt 0 ]; then
	check LINUX_VERSION_CODE,CONSTANT_COMPARISON "${compat[@]}" >>"$out" ||
		status=$?
fi
grep -a -v 'total: 0 errors, 0 warnings, 0 checks' "$out" || true
[ $status -eq 0 ] && echo "checkpatch: clean ($# files)"
exit $status
