#!/usr/bin/env python3
"""Prints the functions of BINARY that ran, once each, in the order the callgrind outputs (made
with --dump-instr=yes) list them (by object and function within one output, not by time):

    callgrind-symbols.py BINARY OUT...

By instruction address, looked up in BINARY's own symbol table: callgrind's function names miss
some functions (it files their instructions under a neighbour's name), addresses miss none.
"""
import bisect
import re
import subprocess
import sys

binary, outputs = sys.argv[1], sys.argv[2:]
symbols = []
for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3 and fields[1] in "tTwW":
        symbols.append((int(fields[0], 16), fields[2]))
symbols.sort()
addresses = [address for address, _ in symbols]

seen = {}
for output in outputs:
    objects, in_binary, last, after_call = {}, False, 0, False
    for line in open(output):
        # "ob=(id) path" names an object the first time ("cob=" too), later "ob=(id)" alone.
        match = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if match:
            if match.group(3):
                objects[match.group(2)] = match.group(3)
            if not match.group(1):
                in_binary = objects.get(match.group(2)) == binary
            continue
        if line.startswith("calls="):
            after_call = True  # "calls=<count> <callee position>": the callee's, not this function's
            continue
        first = line[:1]
        if not (first.isdigit() or first in "+-*"):
            continue
        # A cost line: "<instruction> <line> <cost>", the instruction absolute (0x...), relative to
        # the previous cost line (+n, -n), or the same (*). Addresses are the binary's own. The line
        # after a "calls=" (the call's own cost) is relative to that base too, but is not one.
        position = line.split()[0]
        address = last if position == "*" else last + int(position) if position[0] in "+-" else int(position, 16)
        if not after_call:
            last = address
        after_call = False
        if in_binary:
            index = bisect.bisect_right(addresses, address) - 1
            if index >= 0:
                seen.setdefault(symbols[index][1], None)
print("\n".join(seen))
