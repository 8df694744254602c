/* Attack: read the judge's executable, which embeds the bundled package
 * with every test and answer. Its path is found from /proc/<parent>/exe,
 * /proc/<parent>/cmdline (argv[0]), any process whose command line names
 * mayan-judge, or a guess at the install path (@JUDGE_PATH@).
 * Success: an ELF file of the judge was opened and read: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int readable_elf(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    char magic[4] = {0};
    int ok = read(fd, magic, 4) == 4 && memcmp(magic, "\177ELF", 4) == 0;
    close(fd);
    if (ok) fprintf(stderr, "read the judge's executable at %s\n", path);
    return ok;
}

/* argv[0] of pid if its command line names mayan-judge. */
static int try_cmdline(pid_t pid) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    if (!strstr(buf, "mayan-judge")) return 0;
    return readable_elf(buf);
}

int main(void) {
    pid_t parent = getppid(), self = getpid();
    char path[64];
    if (parent > 1) {
        snprintf(path, sizeof path, "/proc/%d/exe", parent);
        if (readable_elf(path) || try_cmdline(parent)) return 42;
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        pid_t pid = atoi(e->d_name);
        if (pid > 0 && pid != self && try_cmdline(pid)) return 42;
    }
    const char *guesses[] = {"@JUDGE_PATH@", "/usr/local/bin/mayan-judge", "/usr/bin/mayan-judge",
                             "/root/.cargo/bin/mayan-judge"};
    for (int i = 0; i < 4; i++)
        if (readable_elf(guesses[i])) return 42;
    puts("-1");
    return 0;
}
