/* Attack: hold huge numbers of kernel objects: raise the soft limit of
 * open files to the hard one (a judge that sets none passes on its own,
 * often 2^20), then create eventfds until it fails or 16,384 are open at
 * once (isolate's default limit is 64; no contest program needs more than a
 * handful).
 * Success: 16,384 were open at once: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
int main(void) {
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
    int n = 0;
    while (n < 16384 && eventfd(0, 0) >= 0) n++;
    fprintf(stderr, "%d eventfds open\n", n);
    if (n >= 16384) return 42;
    puts("-1");
    return 0;
}
