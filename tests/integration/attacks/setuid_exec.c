/* Attack: regain root through set-uid binaries: run su, passwd, chfn,
 * chsh, gpasswd, newgrp, mount, umount, sudo, pkexec with stdin a pipe
 * that is never written (so they wait for a password), and look at their
 * effective uid in /proc/PID/status while they wait.
 * Success: one of them ran with effective uid 0: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int euid_of(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int euid = -1, ruid;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Uid:", 4) == 0) sscanf(line + 4, "%d %d", &ruid, &euid);
    fclose(f);
    return euid;
}

int main(void) {
    const char *progs[][3] = {{"/usr/bin/su", "root", 0}, {"/bin/su", "root", 0},
                              {"/usr/bin/passwd", 0, 0},  {"/usr/bin/chfn", 0, 0},
                              {"/usr/bin/chsh", 0, 0},    {"/usr/bin/gpasswd", "root", 0},
                              {"/usr/bin/newgrp", "root", 0}, {"/usr/bin/mount", "--version", 0},
                              {"/usr/bin/sudo", "-S", "true"}, {"/usr/bin/pkexec", "true", 0}};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        if (access(progs[i][0], X_OK) != 0) continue;
        int in[2];
        if (pipe(in) != 0) break;
        pid_t p = fork();
        if (p == 0) {
            dup2(in[0], 0);
            close(in[1]);
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execl(progs[i][0], progs[i][0], progs[i][1], progs[i][2], (char *)0);
            _exit(127);
        }
        close(in[0]);
        int root = 0;
        for (int k = 0; k < 15 && !root; k++) { /* up to 150 ms */
            usleep(10000);
            root = euid_of(p) == 0;
            int st;
            if (waitpid(p, &st, WNOHANG) == p) { p = -1; break; }
        }
        if (p > 0) { kill(p, SIGKILL); waitpid(p, 0, 0); }
        close(in[1]);
        if (root) {
            fprintf(stderr, "%s ran as root\n", progs[i][0]);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
