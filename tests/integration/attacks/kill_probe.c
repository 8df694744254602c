/* Attack: signal other processes. Probe every pid with kill(pid, 0) (no
 * /proc needed), for up to 1 s so that runs of other tests overlap.
 * Success: kill(pid, 0) returned 0 for a process that is neither this one
 * nor its child (nor a pid namespace's init parent): it could be sent any
 * signal, e.g. a concurrent run: exit 42. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long ms_since(struct timespec *s) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - s->tv_sec) * 1000 + (t.tv_nsec - s->tv_nsec) / 1000000;
}

int main(void) {
    pid_t self = getpid();
    long max = 4194304;
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
    if (f) { if (fscanf(f, "%ld", &max) != 1) max = 4194304; fclose(f); }
    if (max > 4194304) max = 4194304;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        for (long pid = 1; pid <= max; pid++) {
            if (pid == self) continue;
            if (pid == 1 && getppid() == 1) continue;
            if (kill((pid_t)pid, 0) == 0) {
                fprintf(stderr, "kill(%ld, 0) succeeded\n", pid);
                return 42;
            }
        }
        usleep(20000);
    } while (ms_since(&start) < 1000);
    puts("-1");
    return 0;
}
