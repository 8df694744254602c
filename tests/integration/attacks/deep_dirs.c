/* Attack: break the judge's cleanup. Leave a chain of up to 20,000 nested
 * folders in the work folder (a recursive delete overflows the judge's
 * stack); it stops after 4 s (on a slow disk that is a few thousand
 * levels), then prints -1 and exits 0.
 * Success is seen from outside: the judge crashes (e.g. exit 134, SIGABRT)
 * or prints no verdicts / writes no report; or the chain is left on the
 * host (checked by the test). */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    if (mkdir("mj-deep-@TOKEN@", 0700) != 0 || chdir("mj-deep-@TOKEN@") != 0) {
        puts("-1");
        return 0;
    }
    int depth = 0;
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (depth % 64 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - start.tv_sec >= 4) break;
        }
        if (depth >= 20000 || mkdir("d", 0700) != 0 || chdir("d") != 0) break;
        depth++;
    }
    fprintf(stderr, "depth %d\n", depth);
    puts("-1");
    return 0;
}
