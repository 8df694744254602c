/* Attack: reach the host's network services: connect to a TCP port the
 * test listens on, on the host's loopback (127.0.0.1:@PORT@), e.g. a
 * database, the contest system, a cloud metadata proxy.
 * Success: the connection was made (exit 42); the test also checks that
 * its listener accepted nothing. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(@PORT@);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
        write(s, "mj\n", 3);
        close(s);
        return 42;
    }
    puts("-1");
    return 0;
}
