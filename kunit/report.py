# SPDX-License-Identifier: GPL-2.0-only
#
# Turn the results of one kunit.py run into kunit/run's report: one
# "ok - kunit: <suite>.<case>" / "not ok - kunit: <suite>.<case>" line per
# test case, '# ' diagnostics, and "kunit: N passed, N failed[, N skipped]"
# as the last line.  Exit status 1 iff anything failed or nothing passed.
#
# usage: report.py RESULTS.json KERNEL.log KUNIT_PY_EXIT_STATUS KUNIT.log
#
# Statuses come from kunit.py's own KTAP parser (its --json output).  The
# raw kernel console is read for failure messages and for kernel splats
# (KASAN, lockdep, WARN, BUG, ...), which fail the case they happened in
# even when its KUnit expectations passed.
import json, re, sys

json_path, klog_path, krc, log_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

with open(json_path) as f:
	root = json.load(f)

def leaves(group):
	out = [c["status"] for c in group.get("test_cases", [])]
	for g in group.get("sub_groups", []):
		out += leaves(g)
	return out

def aggregate(statuses):
	if not statuses:
		return "ERROR"
	if any(s not in ("PASS", "SKIP") for s in statuses):
		return "FAIL"
	if all(s == "SKIP" for s in statuses):
		return "SKIP"
	return "PASS"

# (suite, case, status); parameterised cases are folded into one line.
results = []
def add(suite, case, status):
	if case == "":
		# kunit.py's placeholder for a case that never reported: the
		# kernel died in it.  One line per suite is enough.
		if (suite, "", "ERROR") in results:
			return
		status = "ERROR"
	results.append((suite, case, status))
for suite in root.get("sub_groups", []):
	for case in suite.get("test_cases", []):
		add(suite["name"], case["name"], case["status"])
	for case in suite.get("sub_groups", []):
		add(suite["name"], case["name"], aggregate(leaves(case)))
	if not suite.get("test_cases") and not suite.get("sub_groups"):
		add(suite["name"], None, "ERROR")
for suite in root.get("test_cases", []):	# a suite without any case
	if suite["status"] != "PASS":
		add(suite["name"], None, suite["status"])

# Raw console: per-case output (for failure messages) and kernel splats
# (KASAN, lockdep, WARN, BUG, ...), each charged to the case during which it
# was printed, i.e. the next case result line of its suite.
SPLAT = re.compile(
	r"BUG:|WARNING:|Oops|general protection fault|Kernel panic|"
	r"UBSAN:|possible circular locking|possible recursive locking|"
	r"inconsistent lock state|sleeping function called from invalid|"
	r"scheduling while atomic|ODEBUG:|list_(add|del) corruption|"
	r"refcount_t:|suspicious RCU usage|soft lockup|hard LOCKUP|"
	r"INFO: task .* blocked|stack-protector|stack guard page|"
	r"lock held when returning to user|lock\(s\) held")
RESULT = re.compile(r"^( *)(not ok|ok) \d+ (?:- )?([^ #]+)")
SUBTEST = re.compile(r"^( *)# Subtest: (\S+)")

caselog = {}	# (suite, case) -> lines printed while it ran
splats = {}	# (suite, case or None) -> splat lines
lines = []
try:
	with open(klog_path, errors="replace") as f:
		lines = [l.rstrip("\n") for l in f]
except OSError:
	pass
start = 0
for i, l in enumerate(lines):
	if re.search(r"K?TAP version \d+", l):
		start = i
		break
suite = None
pending = []		# lines since the last result line
pending_splat = []	# splat excerpts since the last case result
splat_left = 0
for l in lines[start:]:
	s = re.sub(r"^\[ *\d+\.\d+\] ", "", l)
	m = SUBTEST.match(s)
	if m and len(m.group(1)) <= 4:		# a suite starts
		suite = m.group(2)
		pending = []
		continue
	m = RESULT.match(s)
	if m:
		depth = len(m.group(1))
		if depth == 0:			# suite result
			if pending_splat:
				splats.setdefault((m.group(3), None), []).extend(pending_splat)
				pending_splat = []
			suite = None
		elif depth <= 4 and suite:	# case result
			caselog[(suite, m.group(3))] = pending
			if pending_splat:
				splats.setdefault((suite, m.group(3)), []).extend(pending_splat)
				pending_splat = []
			pending = []
		else:				# parameter result
			pending.append(s)
		splat_left = 0
		continue
	if SPLAT.search(s):
		if splat_left == 0:
			pending_splat.append("----")
		splat_left = 40
	if splat_left:
		pending_splat.append(s)
		splat_left -= 1
	pending.append(s)
if pending_splat:
	# The console ended inside a case (a crash): charge the suite's
	# crash placeholder, else the run as a whole.
	key = (suite, "") if suite else ("(after the last test)", None)
	splats.setdefault(key, []).extend(pending_splat)
	if suite:
		caselog[key] = pending

def comment(text_lines, limit=60):
	for t in text_lines[:limit]:
		print("#   " + t)
	if len(text_lines) > limit:
		print("#   ... (%d more lines, see %s)" % (len(text_lines) - limit, klog_path))

npass = nfail = nskip = 0
seen = set()
for suite, case, status in results:
	name = suite if case is None else "%s.%s" % (suite, case or "(crashed)")
	sp = splats.get((suite, case), [])
	seen.add((suite, case))
	if status == "PASS" and not sp:
		print("ok - kunit: " + name)
		npass += 1
	elif status == "SKIP" and not sp:
		print("ok - kunit: %s # SKIP" % name)
		nskip += 1
	else:
		print("not ok - kunit: " + name)
		nfail += 1
		if case is None:
			print("# suite %s ran no test case (status %s)" % (suite, status))
		elif status != "PASS" and status != "SKIP":
			print("# %s: %s; its output:" % (name, "crashed" if status == "ERROR" else "failed"))
			# its output already holds any splat
			comment(caselog.get((suite, case), []), 120 if sp else 60)
			sp = []
		if sp:
			print("# %s: kernel reported problems while it ran:" % name)
			comment(sp, 120)

for (suite, case), sp in splats.items():
	if (suite, case) in seen:
		continue
	name = suite if case is None else "%s.%s" % (suite, case)
	print("not ok - kunit: %s (kernel log)" % name)
	nfail += 1
	comment(sp, 120)

if krc != 0 and nfail == 0:
	# kunit.py saw something wrong that no test case line shows: a crash
	# or timeout that cut the output short.
	print("not ok - kunit: run (kunit.py exit status %d: crash, timeout or truncated output)" % krc)
	nfail += 1
	print("# last lines of the kernel console (%s):" % klog_path)
	comment(lines[-40:], 40)
	print("# see also %s" % log_path)

if npass == 0 and nfail == 0:
	print("# no KUnit test case %s (filter? Kconfig? see %s)" % ("passed" if nskip else "ran", log_path))
	nfail = 1

summary = "kunit: %d passed, %d failed" % (npass, nfail)
if nskip:
	summary += ", %d skipped" % nskip
print(summary)
sys.exit(1 if nfail else 0)
