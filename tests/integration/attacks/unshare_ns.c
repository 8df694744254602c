/* Attack: leave the sandbox's namespaces. unshare(CLONE_NEWNS),
 * unshare(CLONE_NEWPID), unshare(CLONE_NEWNET), and each of them together
 * with CLONE_NEWUSER (no privilege needed for that on most kernels), each
 * tried in a child process; also clone() with namespace flags.
 * Success: any of them succeeded: exit 42. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int child_fn(void *arg) { (void)arg; return 0; }

int main(void) {
    int flags[] = {CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC,
                   CLONE_NEWUSER | CLONE_NEWNS, CLONE_NEWUSER | CLONE_NEWPID,
                   CLONE_NEWUSER | CLONE_NEWNET};
    int n = sizeof flags / sizeof flags[0];
    int won = 0;
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p == 0) _exit(unshare(flags[i]) == 0 ? 42 : 0);
        int st = 0;
        waitpid(p, &st, 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 42) {
            fprintf(stderr, "unshare(%#x) succeeded\n", flags[i]);
            won = 1;
        }
        /* The same through clone(). */
        char *stack = malloc(1 << 16);
        pid_t c = stack ? clone(child_fn, stack + (1 << 16), flags[i] | SIGCHLD, 0) : -1;
        if (c > 0) {
            waitpid(c, &st, 0);
            fprintf(stderr, "clone(%#x) succeeded\n", flags[i]);
            won = 1;
        }
        free(stack);
    }
    if (won) return 42;
    puts("-1");
    return 0;
}
