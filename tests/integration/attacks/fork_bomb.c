/* Attack: a fork bomb (every process named @TOKEN@fb with prctl). The
 * first process leaves after 1.5 s, so the run ends while its children
 * still fork.
 * Success is seen from outside: the judge does not finish within the
 * test's bound, or a process named @TOKEN@fb survives the run (checked by
 * the test). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    prctl(PR_SET_NAME, "@TOKEN@fb");
    pid_t first = getpid();
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        fork();
        if (getpid() == first) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - start.tv_sec) * 1000 + (t.tv_nsec - start.tv_nsec) / 1000000 > 1500) exit(0);
        }
    }
}
