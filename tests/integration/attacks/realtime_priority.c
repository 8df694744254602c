/* Attack: starve the judge and other runs of CPU: switch to a real-time
 * scheduling policy (SCHED_FIFO, SCHED_RR) or a negative nice value.
 * Success: either took effect: exit 42. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
int main(void) {
    struct sched_param p = {.sched_priority = 1};
    if (sched_setscheduler(0, SCHED_FIFO, &p) == 0) return 42;
    if (sched_setscheduler(0, SCHED_RR, &p) == 0) return 42;
    if (setpriority(PRIO_PROCESS, 0, -5) == 0) return 42;
    puts("-1");
    return 0;
}
