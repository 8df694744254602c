/* Attack: reach into another process through /proc: open /proc/PID/fd/0
 * (e.g. another run's test input), list /proc/PID/cwd/ (another run's work
 * folder), read /proc/PID/maps. Tried on every pid for up to 1 s, so
 * that runs of other tests overlap.
 * Success: one of these opened for a process that is neither this one nor
 * its child (nor a pid namespace's init parent): exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
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

static int probe(pid_t pid) {
    char path[128];
    snprintf(path, sizeof path, "/proc/%d/fd/0", pid);
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd >= 0) {
        close(fd);
        fprintf(stderr, "opened %s\n", path);
        return 1;
    }
    snprintf(path, sizeof path, "/proc/%d/cwd/", pid);
    DIR *d = opendir(path);
    if (d) {
        closedir(d);
        fprintf(stderr, "listed %s\n", path);
        return 1;
    }
    return 0;
}

int main(void) {
    pid_t self = getpid();
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        for (pid_t pid = 1; pid <= 65536; pid++) {
            if (pid == self) continue;
            if (pid == 1 && getppid() == 1) continue;
            char path[64];
            snprintf(path, sizeof path, "/proc/%d", pid);
            if (access(path, F_OK) != 0) continue;
            if (probe(pid)) return 42;
        }
        usleep(20000);
    } while (ms_since(&start) < 1000);
    puts("-1");
    return 0;
}
