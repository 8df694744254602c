/* Attack: fill the host's disk and memory through /tmp and /dev/shm:
 * write files mj-fill-@TOKEN@-* of 8 MiB (under the file size limit) until
 * a write fails, 512 MiB are written to a folder, or 2 s per folder have
 * passed. A sandbox's scratch space is a tmpfs capped well below that.
 * Success: 512 MiB went into one folder without an error: exit 42. The
 * test also checks that no mj-fill-@TOKEN@-* file is left on the host. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)
#define FILE_MIB 8
#define GOAL_MIB 512

static long ms_since(struct timespec *s) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - s->tv_sec) * 1000 + (t.tv_nsec - s->tv_nsec) / 1000000;
}

int main(void) {
    static char buf[CHUNK];
    memset(buf, 'x', sizeof buf);
    const char *dirs[] = {"/tmp", "/dev/shm"};
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int d = 0; d < 2; d++) {
        long mib = 0;
        int failed = 0;
        for (int i = 0; !failed && mib < GOAL_MIB && ms_since(&start) < 2000 * (d + 1); i++) {
            char path[256];
            snprintf(path, sizeof path, "%s/mj-fill-@TOKEN@-%d-%d", dirs[d], (int)getpid(), i);
            int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
            if (fd < 0) break;
            for (int k = 0; k < FILE_MIB; k++) {
                if (write(fd, buf, CHUNK) != CHUNK) { failed = 1; break; }
                mib++;
            }
            close(fd);
        }
        fprintf(stderr, "%s: %ld MiB written\n", dirs[d], mib);
        if (mib >= GOAL_MIB) return 42;
    }
    puts("-1");
    return 0;
}
