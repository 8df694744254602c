/* Attack: lift the sandbox's resource limits: raise the hard limit of
 * CPU time, file size, address space, processes, open files, stack, data,
 * locked memory, core size; and raise nice / real-time priority limits.
 * Success: a hard limit was raised above its value: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
int main(void) {
    int res[] = {RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_AS, RLIMIT_NPROC, RLIMIT_NOFILE, RLIMIT_STACK,
                 RLIMIT_DATA, RLIMIT_MEMLOCK, RLIMIT_CORE, RLIMIT_NICE, RLIMIT_RTPRIO, RLIMIT_MSGQUEUE};
    const char *names[] = {"CPU", "FSIZE", "AS", "NPROC", "NOFILE", "STACK", "DATA", "MEMLOCK", "CORE",
                           "NICE", "RTPRIO", "MSGQUEUE"};
    for (int i = 0; i < 12; i++) {
        struct rlimit r;
        if (getrlimit(res[i], &r) != 0 || r.rlim_max == RLIM_INFINITY) continue;
        struct rlimit up = {r.rlim_max + 1, r.rlim_max + 1};
        if (res[i] == RLIMIT_NOFILE) up.rlim_cur = up.rlim_max = r.rlim_max + 1024;
        if (setrlimit(res[i], &up) == 0) {
            fprintf(stderr, "raised the hard limit of RLIMIT_%s\n", names[i]);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
