/* Attack: leave state in the root a runner prepares once and every run it
 * carries out copies (src/judge/sandbox/isolation.rs, prepared roots). The
 * root's own folders (/, /dev, /.hidden) must stay read-only, and each run's
 * /box, /tmp, /dev/shm and /proc must be its own, mounted once and empty of
 * other runs' files. The run creates markers where it can and looks for an
 * earlier run's. Success (exit 42): a file created in /, /dev or /.hidden; a
 * marker of an earlier run found in /box; a file already in /tmp or /dev/shm
 * when it starts; or a mount point listed twice in its mount table (an
 * earlier run's mount left under its own). Outside a private root (its work
 * folder is not /box) there is nothing to check. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int created(const char *path) {
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0666);
    if (fd >= 0) {
        close(fd);
        return 1;
    }
    return errno == EEXIST;
}

static int has_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            fprintf(stderr, "%s/%s was there before this run\n", dir, e->d_name);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

static int mounted_twice(void) {
    const char *points[] = {"/box", "/tmp", "/dev/shm", "/proc", "/dev", "/"};
    int count[6] = {0};
    char line[4096];
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        /* id parent major:minor root mount-point ... */
        char point[4096];
        if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1) continue;
        for (int i = 0; i < 6; i++)
            if (!strcmp(point, points[i])) count[i]++;
    }
    fclose(f);
    for (int i = 0; i < 6; i++)
        if (count[i] > 1) {
            fprintf(stderr, "%s is mounted %d times\n", points[i], count[i]);
            return 1;
        }
    return 0;
}

int main(void) {
    char cwd[256];
    if (!getcwd(cwd, sizeof cwd) || strcmp(cwd, "/box")) {
        puts("-1");
        return 0;
    }
    int won = 0;
    if (has_entries("/tmp") || has_entries("/dev/shm")) won = 1;
    const char *shared[] = {"/mj-root-@TOKEN@", "/dev/mj-dev-@TOKEN@", "/.hidden/mj-@TOKEN@"};
    for (int i = 0; i < 3; i++)
        if (created(shared[i])) {
            fprintf(stderr, "created %s\n", shared[i]);
            won = 1;
        }
    int fd = open("/box/mj-box-@TOKEN@", O_CREAT | O_EXCL | O_WRONLY, 0666);
    if (fd < 0 && errno == EEXIST) {
        fprintf(stderr, "an earlier run's marker is in /box\n");
        won = 1;
    }
    if (fd >= 0) close(fd);
    if (mounted_twice()) won = 1;
    if (won) return 42;
    puts("-1");
    return 0;
}
