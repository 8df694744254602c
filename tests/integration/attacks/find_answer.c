/* Attack: cheat without solving. Search the file system (breadth first
 * from /, at most 2 s) for a file whose contents equal this test's
 * stdin, then print the `.ans` file beside it.
 * Success: such a file was found (its answer was printed, if any): exit 42.
 * Failure: nothing found in time: prints -1, exits 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char input[1 << 16];
static size_t input_len;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int same_contents(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) return 0;
    static char buf[1 << 16];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof buf && (n = read(fd, buf + got, sizeof buf - got)) > 0) got += n;
    close(fd);
    return got == input_len && memcmp(buf, input, input_len) == 0;
}

/* A FIFO queue of directories to visit (paths on the heap). */
static char **queue;
static size_t qhead, qtail, qcap;
static void push(const char *p) {
    if (qtail == qcap) {
        qcap = qcap ? qcap * 2 : 4096;
        queue = realloc(queue, qcap * sizeof *queue);
        if (!queue) exit(3);
    }
    queue[qtail++] = strdup(p);
}

static int skipped(const char *path, const char *name) {
    static const char *const roots[] = {"/proc", "/sys", "/dev", "/run", "/boot", "/snap", 0};
    for (int i = 0; roots[i]; i++)
        if (strcmp(path, roots[i]) == 0) return 1;
    return strcmp(name, ".git") == 0 || strcmp(name, "node_modules") == 0 ||
           strcmp(name, "target") == 0 || strcmp(name, "__pycache__") == 0;
}

int main(void) {
    size_t n;
    while ((n = fread(input + input_len, 1, sizeof input - input_len, stdin)) > 0) input_len += n;
    double deadline = now() + 2.0;
    push("/");
    while (qhead < qtail && now() < deadline && clock() < 3 * CLOCKS_PER_SEC / 2) {
        char *dir = queue[qhead++];
        DIR *d = opendir(dir);
        if (!d) { free(dir); continue; }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
            if (e->d_type == DT_DIR) {
                if (!skipped(path, e->d_name)) push(path);
            } else if (e->d_type == DT_REG) {
                struct stat st;
                if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    (size_t)st.st_size == input_len && same_contents(path)) {
                    /* Found the test's input: print the answer beside it. */
                    char ans[8300];
                    strcpy(ans, path);
                    char *dot = strrchr(ans, '.');
                    if (dot && strchr(dot, '/') == NULL) strcpy(dot, ".ans"); else strcat(ans, ".ans");
                    FILE *f = fopen(ans, "r");
                    if (f) {
                        int c;
                        while ((c = fgetc(f)) != EOF) putchar(c);
                        fclose(f);
                    }
                    fprintf(stderr, "found the input at %s\n", path);
                    return 42;
                }
            }
        }
        closedir(d);
        free(dir);
    }
    puts("-1");
    return 0;
}
