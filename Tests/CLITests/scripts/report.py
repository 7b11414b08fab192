"""The ending the check scripts share: the problems, one a line (exit 1), or the `ok` line."""
import sys


def finish(problems, ok_line):
    for p in problems[:50]:
        print(p)
    if problems:
        sys.exit(1)
    print(ok_line)
