/* Attack: see other processes. Scan /proc (for up to 1 s, so that runs
 * of other tests overlap) for a process that is neither this one nor its
 * own child (nor, in a pid namespace, its init parent, pid 1): the judge,
 * another run, anything of the host.
 * Success: such a process is visible: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pid_t parent_of(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    int ppid;
    if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1) return -1;
    return ppid;
}

/* A visible process that is not ours; 0 if none. */
static pid_t find_other(void) {
    pid_t self = getpid();
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    pid_t found = 0;
    while (!found && (e = readdir(d))) {
        pid_t pid = atoi(e->d_name);
        if (pid <= 0 || pid == self) continue;
        if (pid == 1 && getppid() == 1) continue; /* a pid namespace's init, our parent */
        if (parent_of(pid) == self) continue;
        found = pid;
    }
    closedir(d);
    return found;
}

int main(void) {
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        pid_t other = find_other();
        if (other) {
            fprintf(stderr, "another process is visible: pid %d\n", other);
            return 42;
        }
        usleep(20000);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - start.tv_sec) * 1000 + (t.tv_nsec - start.tv_nsec) / 1000000 < 1000);
    puts("-1");
    return 0;
}
