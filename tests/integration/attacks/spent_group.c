/* Attack: leave the counters of its cgroup high for whatever run comes
 * next. A launcher's runner keeps a run's cgroup for its next run
 * (`RunCgroup::recycled`): this program burns 0.6 s of CPU, then touches
 * memory past the limit and is killed for it (MLE; or TLE, where an
 * emulated CPU makes touching the memory slow), so the group it leaves
 * has counted that CPU time, a limit hit, an OOM kill and a peak at the
 * limit, or more time and a lower peak. The test grades an innocent
 * accepted submission right after it on one slot, its runs in those
 * groups, and checks that it is accepted on every test with its own time
 * and memory. Its success is visible only from outside: it never exits
 * 42. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void) {
    volatile unsigned long spin = 0;
    while (clock() < 6 * CLOCKS_PER_SEC / 10) spin++;
    for (;;) {
        char *p = malloc(1 << 20);
        if (!p) break;
        memset(p, 1, 1 << 20);
    }
    puts("-1");
    return 0;
}
