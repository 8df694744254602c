/* Attack: read the name of the cgroup the run is in. A launcher's runner
 * keeps its last run's cgroup for the next, or makes another, named
 * `mayan-judge-<judge's pid>-<runner's pid * 1000 + groups made>`; a run
 * that leaves memory behind (a System V segment) gets its group replaced,
 * so it moves a count every later run of that runner could read from
 * /proc/self/cgroup, a bit per run, and the name gives away the host's
 * pids. Each run is put in a cgroup namespace of its own once it is in
 * its group, where every line of /proc/self/cgroup (and the init's,
 * /proc/1/cgroup) reads `/`. Success: a line naming any other path, exit
 * 42. */
#include <stdio.h>
#include <string.h>

static int names_a_group(const char *file) {
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    char line[4096];
    int named = 0;
    while (fgets(line, sizeof line, f)) {
        /* id:controllers:path */
        char *path = strchr(line, ':');
        if (path) path = strchr(path + 1, ':');
        if (!path) continue;
        path++;
        path[strcspn(path, "\n")] = 0;
        if (strcmp(path, "/") != 0) {
            fprintf(stderr, "%s names the group %s\n", file, path);
            named = 1;
        }
    }
    fclose(f);
    return named;
}

int main(void) {
    int named = names_a_group("/proc/self/cgroup") | names_a_group("/proc/1/cgroup");
    if (named) return 42;
    puts("-1");
    return 0;
}
