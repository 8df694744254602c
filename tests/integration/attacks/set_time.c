/* Attack: change the system clock (to confuse the judge's wall-time
 * measurements and every log on the host): clock_settime(CLOCK_REALTIME)
 * to the current time (so a success does little harm), and adjtimex().
 * Success: the clock was set or adjusted: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>
int main(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (clock_settime(CLOCK_REALTIME, &now) == 0) return 42;
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    tx.modes = ADJ_OFFSET_SINGLESHOT;
    tx.offset = 0;
    if (adjtimex(&tx) != -1) return 42;
    puts("-1");
    return 0;
}
