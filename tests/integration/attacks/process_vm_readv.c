/* Attack: read another process's memory with process_vm_readv() (e.g. a
 * concurrent run's input and answer, or the judge's), tried on every pid
 * for up to 1 s so that runs of other tests overlap. The address is a
 * guess: EFAULT (bad address) means the permission check passed.
 * Success: the call was allowed (bytes read, or EFAULT) for a process that
 * is neither this one nor its child (nor a pid namespace's init parent):
 * exit 42. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/uio.h>
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
    char buf[64];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        for (long pid = 1; pid <= max; pid++) {
            if (pid == self) continue;
            if (pid == 1 && getppid() == 1) continue;
            errno = 0;
            ssize_t n = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
            if (n >= 0 || errno == EFAULT) {
                fprintf(stderr, "process_vm_readv allowed on pid %ld\n", pid);
                return 42;
            }
        }
        usleep(20000);
    } while (ms_since(&start) < 1000);
    puts("-1");
    return 0;
}
