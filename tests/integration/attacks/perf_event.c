/* Attack: open performance counters (kernel attack surface, and timing side
 * channels): perf_event_open() of a software clock counter on itself, user
 * space only (allowed by perf_event_paranoid <= 2).
 * Success: it returned a file descriptor: exit 42. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    if (syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) >= 0) return 42;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    if (syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) >= 0) return 42;
    puts("-1");
    return 0;
}
