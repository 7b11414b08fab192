#if os(Linux)
internal import CSystem
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs another program and collects what it prints: every C call of the package that starts
/// or waits for a process, wrapped once (`posix_spawn`, `pipe`, `poll`, `waitpid`).
package enum POSIXProcess {
  /// How a program ran: its exit status (-1 when a signal ended it) and its standard output.
  package struct Finished {
    /// The exit status, 0 to 255; -1 when a signal ended the program.
    package let status: Int32
    /// What it printed: at most `outputBytesMax` bytes, or one more when it printed more.
    package let output: [UInt8]
  }

  /// Runs `arguments[0]`, found on `PATH` as `env` finds it, with the rest as its arguments:
  /// `input` on its standard input, its standard error discarded. Input and output go through
  /// one `poll` loop, so a program that prints before it has read everything never blocks.
  /// At most `outputBytesMax` of output are kept; past that the program is stopped and the
  /// output handed back is that long plus one byte, for the caller to name the limit.
  package static func run(_ arguments: [String], input: [UInt8] = [], outputBytesMax: Int) -> Result<Finished, Errno> {
    precondition(!arguments.isEmpty, "a program to run")
    // The child gets its two ends as its standard input and output, and no process gets any
    // of the four as another descriptor: an inherited write end keeps a pipe from ever ending.
    var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
    guard csystem_pipe_closed_on_exec(&toChild) == 0 else { return .failure(Errno(code: errno)) }
    guard csystem_pipe_closed_on_exec(&fromChild) == 0 else {
      let code = errno
      closeAll(toChild)
      return .failure(Errno(code: code))
    }
    let started = spawn(["/usr/bin/env"] + arguments, stdin: toChild[0], stdout: fromChild[1])
    _ = Glibc.close(toChild[0]); _ = Glibc.close(fromChild[1])
    guard case let .success(pid) = started else {
      _ = Glibc.close(toChild[1]); _ = Glibc.close(fromChild[0])
      if case let .failure(error) = started { return .failure(error) }
      return .failure(Errno(code: EINVAL))
    }
    let output = exchange(input, to: toChild[1], from: fromChild[0], pid: pid, outputBytesMax: outputBytesMax)
    return .success(Finished(status: wait(for: pid), output: output))
  }

  /// Starts `argv[0]` with `stdin` and `stdout` as its standard input and output,
  /// `/dev/null` as its standard error, no signal blocked and `SIGPIPE` handled as by default,
  /// whatever the calling thread blocks or ignores (`posix_spawn`).
  private static func spawn(_ argv: [String], stdin: Int32, stdout: Int32) -> Result<pid_t, Errno> {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), pipeSignal = sigset_t()
    sigemptyset(&none)
    sigemptyset(&pipeSignal); sigaddset(&pipeSignal, SIGPIPE)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &pipeSignal)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let cArguments = argv.map { strdup($0) }
    defer { cArguments.forEach { free($0) } }
    var pid = pid_t()
    let status = (cArguments + [nil]).withUnsafeBufferPointer { argvPointer in
      posix_spawn(&pid, argv[0], &actions, &attributes, argvPointer.baseAddress!, environ)
    }
    return status == 0 ? .success(pid) : .failure(Errno(code: status))
  }

  /// Writes `input` to `writeEnd` while reading `readEnd` until the program closes it; both
  /// ends are closed on return. A program that stops reading early ends the writing, not the
  /// process: SIGPIPE is held back on this thread while writing and a pending one is taken.
  private static func exchange(_ input: [UInt8], to writeEnd: Int32, from readEnd: Int32, pid: pid_t, outputBytesMax: Int) -> [UInt8] {
    var pipeSignal = sigset_t(), previousMask = sigset_t()
    sigemptyset(&pipeSignal); sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
    defer {
      var timeout = timespec()
      while sigtimedwait(&pipeSignal, nil, &timeout) == SIGPIPE {}
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
    var writeFD = writeEnd, written = 0
    if input.isEmpty { _ = Glibc.close(writeFD); writeFD = -1 } else { _ = fcntl(writeFD, F_SETFL, O_NONBLOCK) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)]
      guard poll(&fds, nfds_t(writeFD >= 0 ? 2 : 1), -1) >= 0 || errno == EINTR else { break }
      if writeFD >= 0, fds[1].revents != 0 {
        let n = input.withUnsafeBytes { Glibc.write(writeFD, $0.baseAddress! + written, input.count - written) }
        if n > 0 { written += n }
        if written == input.count || (n < 0 && errno != EAGAIN && errno != EINTR) { _ = Glibc.close(writeFD); writeFD = -1 }
      }
      guard fds[0].revents != 0 else { continue }
      let n = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress!, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      output.append(contentsOf: chunk[0..<min(n, outputBytesMax + 1 - output.count)])
      if output.count > outputBytesMax { kill(pid, SIGKILL); break }
    }
    if writeFD >= 0 { _ = Glibc.close(writeFD) }
    _ = Glibc.close(readEnd)
    return output
  }

  /// The exit status of `pid` once it has ended (`waitpid`); -1 when a signal ended it.
  private static func wait(for pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return -1 }
    }
    // WIFEXITED and WEXITSTATUS, which Swift does not import: the low 7 bits hold the signal.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
  }

  private static func closeAll(_ fds: [Int32]) {
    for fd in fds where fd >= 0 { _ = Glibc.close(fd) }
  }
}
