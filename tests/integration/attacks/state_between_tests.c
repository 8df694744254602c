/* Attack: keep state between tests (or between concurrent runs) in the
 * shared temporary folders /tmp, /var/tmp, /dev/shm and /run/lock. Each run
 * creates the marker `<dir>/mj-state-@TOKEN@` with O_EXCL; if it already
 * exists, an earlier (or concurrent) run of this submission left it.
 * Success: a marker from another run was found: exit 42. The test also
 * checks after grading that no marker is left on the host. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    const char *dirs[] = {"/tmp", "/var/tmp", "/dev/shm", "/run/lock"};
    int seen = 0;
    for (int i = 0; i < 4; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/mj-state-@TOKEN@", dirs[i]);
        int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0666);
        if (fd >= 0) {
            write(fd, "x", 1);
            close(fd);
        } else if (errno == EEXIST) {
            fprintf(stderr, "state from another run found in %s\n", path);
            seen = 1;
        }
    }
    if (seen) return 42;
    puts("-1");
    return 0;
}
