/* Attack: signal the judge (to stop it with SIGSTOP, or kill it): probe
 * with kill(pid, 0) the parent (getppid()) and every process whose command
 * line mentions mayan-judge (found by scanning /proc). Nothing is sent.
 * Success: the judge could be signalled: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    pid_t parent = getppid(), self = getpid();
    if (parent > 1 && kill(parent, 0) == 0) {
        fprintf(stderr, "may signal the parent %d\n", parent);
        return 42;
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        pid_t pid = atoi(e->d_name);
        if (pid <= 0 || pid == self) continue;
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) continue;
        for (ssize_t i = 0; i < n; i++) if (!buf[i]) buf[i] = ' ';
        buf[n] = 0;
        if (strstr(buf, "mayan-judge") && kill(pid, 0) == 0) {
            fprintf(stderr, "may signal the judge %d\n", pid);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
