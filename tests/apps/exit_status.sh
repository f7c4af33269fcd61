#!/usr/bin/env bash
# Runs a command and exits with its status, reporting a death by signal N as
# 128 + N, as a shell does (a process killed by a signal has no exit code of
# its own for ctest's scripts to compare).
"$@"
exit $?
