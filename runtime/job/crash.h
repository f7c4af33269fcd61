// Crash reports: a rank that faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or
// aborts (SIGABRT: assert, abort()) takes the whole process down, as a
// process under mpirun takes its job down -- but first a line says which
// rank it was and where:
//
//   pure: rank 3 (process 1): SIGSEGV (invalid memory access) at address 0x0
//   pure: rank 3 (process 1): stack overflow (SIGSEGV at 0x7f..., just below the rank's stack)
//
// followed by a short backtrace of the faulting stack. Then the signal is
// raised again with its default action, so the process ends with the
// signal's status (and a core dump where the system makes one), and mpirun
// ends the other processes.
//
// The handler runs on an alternate signal stack (a rank that overflowed its
// stack has none left), installed for every thread that runs ranks or
// helpers, and uses only async-signal-safe calls: write(2), the thread's
// static thread-local state, and backtrace, which crash.cpp calls once
// beforehand so that it never loads anything inside the handler.
#pragma once

namespace pure::crash {

// Installs the handlers (once per process; later calls do nothing).
// `process` is this process's number in the job, for the reports.
void install(int process);

// The calling thread's part: gives it an alternate signal stack and
// records its own stack's bounds. `rank` is its world rank, or -1 for a
// thread that runs no rank (a helper).
void enter_thread(int rank);
// Undoes enter_thread (the thread is about to end).
void leave_thread();

// What the process writes when a thread crashes, after the report: its
// trace and statistics (job/observers.h), which are not async-signal-safe
// to write. The handler runs `last_words` in a child it forks (a copy of
// the process as it was, with only the crashing thread), and waits for it
// at most a few seconds before ending the process with the signal: a
// child stuck on a lock another thread held at the crash cannot hang the
// job. Null (the default) writes nothing.
void set_last_words(void (*last_words)());

// Across processes, what the handler calls after the last words, with the
// status the process ends with: it tells the other processes, so that they
// write their parts of the trace and statistics before the launcher ends
// them (Process: its watchdog thread sends the notice, net/abort_notice.h).
// It must be async-signal-safe and return within a few seconds. Null (the
// default) tells nobody.
void set_farewell(void (*farewell)(int status));

// The job is ending with exit status `code`, its cause reported: a
// std::terminate from now on is a rank that the abort unwound out of a
// noexcept destructor, and the process ends with `code` (after its last
// words) instead of libstdc++'s report, SIGABRT and 134.
void set_ending(int code);

}  // namespace pure::crash
