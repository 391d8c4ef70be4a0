/* A libnvvm.so.4 that dies or hangs as it is loaded, before any of its functions could be called:
   its constructor aborts, segfaults, _exit(0)s or sleeps for ever (HOSTILE_ACTION, 1-4). What a
   broken or hostile toolkit on --cuda-path or CUDA_PATH does to whoever maps it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void hostile(void) {
#if HOSTILE_ACTION == 1
    fputs("hostile libnvvm: aborting as it loads\n", stderr);
    abort();
#elif HOSTILE_ACTION == 2
    fputs("hostile libnvvm: segfaulting as it loads\n", stderr);
    raise(SIGSEGV);
#elif HOSTILE_ACTION == 3
    _exit(0);
#else
    for (;;) pause();
#endif
}

/* The name a libNVVM is checked for, should anything get that far. */
void nvvmVersion(int* major, int* minor) {
    *major = 0;
    *minor = 0;
}
