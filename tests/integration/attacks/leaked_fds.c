/* Attack: use descriptors the judge leaked to the program (its test
 * files, pipes, the compile cache, sockets): look at descriptors 3..4095.
 * Success: one of them is open: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    for (int fd = 3; fd < 4096; fd++)
        if (fcntl(fd, F_GETFD) != -1) {
            char path[64], target[512] = "";
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            readlink(path, target, sizeof target - 1);
            fprintf(stderr, "fd %d is open: %s\n", fd, target);
            return 42;
        }
    puts("-1");
    return 0;
}
