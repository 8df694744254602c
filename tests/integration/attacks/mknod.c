/* Attack: create device nodes: mknod a character device for /dev/mem
 * (1:1) and /dev/null (1:3) in the work folder, directly and inside a new
 * user namespace, to reach hardware or kernel memory through it.
 * Success: a mknod of a device succeeded: exit 42. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
static int try_mknod(void) {
    if (mknod("mem", S_IFCHR | 0666, makedev(1, 1)) == 0) return 1;
    if (mknod("null", S_IFCHR | 0666, makedev(1, 3)) == 0) return 1;
    if (mknod("disk", S_IFBLK | 0666, makedev(8, 0)) == 0) return 1;
    return 0;
}
int main(void) {
    if (try_mknod()) return 42;
    pid_t p = fork();
    if (p == 0) _exit(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 && try_mknod() ? 42 : 0);
    int st = 0;
    waitpid(p, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 42) return 42;
    puts("-1");
    return 0;
}
