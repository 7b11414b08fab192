// CSystem: the Linux calls Swift's Glibc module leaves out (they are declared only for
// _GNU_SOURCE). Only EventStore imports this module (`internal import`), and only
// EventStore/POSIXFile.swift and EventStore/POSIXProcess.swift call it.
#ifndef LIFESIM_CSYSTEM_SHIM_H
#define LIFESIM_CSYSTEM_SHIM_H

#ifdef __linux__
#include <sys/types.h>
#include <fcntl.h>

// glibc's declaration (<fcntl.h> with _GNU_SOURCE), repeated here.
extern int sync_file_range(int fd, off_t offset, off_t nbytes, unsigned int flags);

/// Starts writing `count` bytes of `fd` from `offset` to the disk without waiting for them
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`, 2); -1 with errno on failure.
static inline int csystem_start_writeback(int fd, long long offset, long long count) {
  return sync_file_range(fd, (off_t)offset, (off_t)count, 2);
}

// glibc's declaration (<unistd.h> with _GNU_SOURCE), repeated here.
extern int pipe2(int fds[2], int flags);

/// A pipe whose two ends close on `exec` from the start (`pipe2` with `O_CLOEXEC`):
/// a process started by another thread in between never inherits them. -1 with errno on failure.
static inline int csystem_pipe_closed_on_exec(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}
#endif

#endif
