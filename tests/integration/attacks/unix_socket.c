/* Attack: talk to a concurrent run. A UNIX socket at a fixed path in /tmp
 * (and one in the abstract namespace): the first run binds and listens for
 * up to 1 s, the runs of other tests (graded at the same time) connect.
 * Success: a connection was made between two runs (connect succeeded, or
 * the listener accepted one): exit 42. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static socklen_t address(struct sockaddr_un *a, int abstract) {
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (abstract) {
        strcpy(a->sun_path + 1, "mj-sock-@TOKEN@");
        return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a->sun_path + 1);
    }
    strcpy(a->sun_path, "/tmp/mj-sock-@TOKEN@");
    return sizeof *a;
}

static int try_connect(int abstract) {
    struct sockaddr_un a;
    socklen_t len = address(&a, abstract);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) return 0;
    int ok = connect(s, (struct sockaddr *)&a, len) == 0;
    close(s);
    return ok;
}

static int listener(int abstract) {
    struct sockaddr_un a;
    socklen_t len = address(&a, abstract);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s < 0) return -1;
    if (bind(s, (struct sockaddr *)&a, len) != 0 || listen(s, 16) != 0) {
        close(s);
        return -1;
    }
    return s;
}

int main(void) {
    for (int abstract = 0; abstract < 2; abstract++)
        if (try_connect(abstract)) {
            fprintf(stderr, "connected to another run (%s)\n", abstract ? "abstract" : "/tmp");
            return 42;
        }
    int ls[2] = {listener(0), listener(1)};
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        for (int i = 0; i < 2; i++) {
            if (ls[i] < 0) {
                if (try_connect(i)) return 42; /* someone else listens: connect */
                continue;
            }
            int c = accept(ls[i], 0, 0);
            if (c >= 0) {
                fprintf(stderr, "accepted a connection from another run\n");
                return 42;
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - start.tv_sec) * 1000 + (t.tv_nsec - start.tv_nsec) / 1000000 > 1000) break;
        usleep(10000);
    }
    if (ls[0] >= 0) unlink("/tmp/mj-sock-@TOKEN@");
    puts("-1");
    return 0;
}
