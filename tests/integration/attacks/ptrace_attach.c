/* Attack: debug another process. ptrace(PTRACE_ATTACH) every pid (no /proc
 * needed) for up to 1 s, so that runs of other tests overlap; a tracer
 * can read and write the tracee's memory and registers.
 * Success: an attach to a process that is neither this one nor its child
 * (nor a pid namespace's init parent) succeeded (it is detached again at
 * once): exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long ms_since(struct timespec *s) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - s->tv_sec) * 1000 + (t.tv_nsec - s->tv_nsec) / 1000000;
}

int main(void) {
    pid_t self = getpid();
    long max = 32768;
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
    if (f) { if (fscanf(f, "%ld", &max) != 1) max = 32768; fclose(f); }
    if (max > 4194304) max = 4194304;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        for (long pid = 1; pid <= max; pid++) {
            if (pid == self) continue;
            if (pid == 1 && getppid() == 1) continue;
            if (ptrace(PTRACE_ATTACH, (pid_t)pid, 0, 0) == 0) {
                int st;
                waitpid((pid_t)pid, &st, __WALL);
                ptrace(PTRACE_DETACH, (pid_t)pid, 0, 0);
                fprintf(stderr, "attached to pid %ld\n", pid);
                return 42;
            }
        }
        usleep(20000);
    } while (ms_since(&start) < 1000);
    puts("-1");
    return 0;
}
