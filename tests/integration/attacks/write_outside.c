/* Attack: write outside the work folder (and outside the sandbox's own
 * scratch space /tmp and /dev/shm; /var/tmp and /run/lock are covered by
 * state_between_tests.c): try to create a file in the work folder's
 * parent, /, /etc, /usr/local, /var, /opt, /work, the repository and its
 * test folder, then in every folder found writable by a bounded walk of /.
 * Success: a file was created in such a place (it is removed at once, and
 * named on stderr): exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char cwd[PATH_MAX];

static int excluded(const char *dir) {
    const char *scratch[] = {"/tmp", "/dev/shm", "/var/tmp", "/run/lock", "/proc", "/sys", "/dev", 0};
    for (int i = 0; scratch[i]; i++) {
        size_t n = strlen(scratch[i]);
        if (strncmp(dir, scratch[i], n) == 0 && (dir[n] == 0 || dir[n] == '/')) return 1;
    }
    size_t n = strlen(cwd);
    return strncmp(dir, cwd, n) == 0 && (dir[n] == 0 || dir[n] == '/');
}

static int try_create(const char *dir) {
    if (excluded(dir)) return 0;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/mj-out-@TOKEN@", strcmp(dir, "/") ? dir : "");
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd < 0) return 0;
    close(fd);
    unlink(path);
    fprintf(stderr, "created %s\n", path);
    return 1;
}

int main(void) {
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/nonexistent");
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", cwd);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) *slash = 0;
    const char *fixed[] = {parent, "/", "/etc", "/usr/local", "/usr/local/bin", "/var", "/var/cache",
                           "/var/lib", "/var/log", "/var/mail", "/var/crash", "/opt", "/srv", "/root",
                           "/home", "/work", "@REPO_DIR@", "@TESTDATA_DIR@", "@TESTDATA_DIR@/secret"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (try_create(fixed[i])) return 42;
    /* Bounded walk of / for any other writable folder. */
    static char *queue[200000];
    size_t head = 0, tail = 0;
    queue[tail++] = strdup("/");
    clock_t stop = clock() + CLOCKS_PER_SEC / 2;
    while (head < tail && clock() < stop) {
        char *dir = queue[head++];
        if (!excluded(dir) && access(dir, W_OK | X_OK) == 0 && try_create(dir)) return 42;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (e->d_type == DT_DIR && e->d_name[0] != '.' && tail < 200000) {
                char path[PATH_MAX];
                snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
                if (!excluded(path) && strcmp(e->d_name, "target") && strcmp(e->d_name, "proc"))
                    queue[tail++] = strdup(path);
            }
        if (d) closedir(d);
    }
    puts("-1");
    return 0;
}
