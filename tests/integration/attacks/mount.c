/* Attack: mount file systems: mount a tmpfs (and a proc) over a folder of
 * the work folder, directly, then as "root" of a new user + mount
 * namespace (unshare(CLONE_NEWUSER | CLONE_NEWNS), uid map written), the
 * usual way to reach kernel file system code from an unprivileged user.
 * Success: a mount() succeeded: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY);
    if (fd >= 0) { write(fd, text, strlen(text)); close(fd); }
}

static int try_mount(void) {
    return mount("none", "mnt", "tmpfs", 0, "size=1m") == 0 ||
           mount("none", "mnt", "proc", 0, 0) == 0;
}

int main(void) {
    mkdir("mnt", 0700);
    if (try_mount()) { umount("mnt"); return 42; }
    pid_t p = fork();
    if (p == 0) {
        uid_t uid = getuid();
        gid_t gid = getgid();
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) _exit(0);
        char map[64];
        write_file("/proc/self/setgroups", "deny");
        snprintf(map, sizeof map, "0 %d 1", (int)uid);
        write_file("/proc/self/uid_map", map);
        snprintf(map, sizeof map, "0 %d 1", (int)gid);
        write_file("/proc/self/gid_map", map);
        _exit(try_mount() ? 42 : 0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 42) return 42;
    puts("-1");
    return 0;
}
