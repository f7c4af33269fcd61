// Pure::main: the process entry point of a Pure application. It reads the
// configuration from the environment, starts the ranks and calls the
// application's pure_main on each; the exit status is the job's. The work
// is libpure's (pure_run_main, job/run.cpp): this file and thread_start.cpp
// use nothing of the C++ runtime, so a C program links them with cc.

extern "C" int pure_main(int argc, char** argv);
extern "C" int pure_run_main(int argc, char** argv, int (*entry)(int, char**));

// job/thread_start.cpp: the threads a rank starts share its globals. Nothing
// calls it by name (libgomp and libstdc++ reach its pthread_create through
// the dynamic linker), so the read in main is what links it.
extern "C" const char pure_thread_start_wrappers;

int main(int argc, char** argv) {
  (void)*static_cast<const volatile char*>(&pure_thread_start_wrappers);
  return pure_run_main(argc, argv, pure_main);
}
