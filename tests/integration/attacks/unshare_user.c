/* Attack: get capabilities in a new user namespace. unshare(CLONE_NEWUSER)
 * makes the program root of its own namespace, the first step of most
 * sandbox escapes and kernel exploits (tried in a child process).
 * Success: unshare(CLONE_NEWUSER) succeeded: exit 42. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    pid_t p = fork();
    if (p == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 42 : 0);
    int st = 0;
    waitpid(p, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 42) return 42;
    puts("-1");
    return 0;
}
