/* Attack: join another process's namespaces (the host's network, mounts,
 * pids): open /proc/1/ns/{net,mnt,pid,ipc,uts,user,cgroup} and those of the
 * parent (the judge), then setns() into them (in a child process).
 * Success: a setns() succeeded: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    const char *kinds[] = {"net", "mnt", "pid", "ipc", "uts", "user", "cgroup"};
    pid_t targets[] = {1, getppid()};
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 7; k++) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/ns/%s", targets[t], kinds[k]);
            int fd = open(path, O_RDONLY);
            if (fd < 0) continue;
            pid_t p = fork();
            if (p == 0) _exit(setns(fd, 0) == 0 ? 42 : 0);
            int st = 0;
            waitpid(p, &st, 0);
            close(fd);
            if (WIFEXITED(st) && WEXITSTATUS(st) == 42) {
                fprintf(stderr, "setns(%s) succeeded\n", path);
                return 42;
            }
        }
    puts("-1");
    return 0;
}
