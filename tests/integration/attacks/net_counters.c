/* Attack: carry a value from one run to a later one through the kernel's
 * statistics of a network namespace (/proc/net/snmp, /proc/net/netstat),
 * which no program can reset. Every UDP datagram sent to 127.0.0.1 on the
 * loopback, which is down, fails with ENETUNREACH and adds one to
 * `Ip: OutNoRoutes`; a program judged on a hidden test could write a
 * digest of its board there, for a later program to read. Each run first
 * reads the counter: any value an earlier run (this submission's, or the
 * copy graded after it: another contestant) left is a success, exit 42.
 * Then it raises the counter by 20,000 for the runs after it, and checks
 * it could: if not, it exits 3 (the attack proved nothing, and the test
 * says so). It never answers the puzzle. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* `Ip: OutNoRoutes` of this process's network namespace, -1 if unread. */
static long out_no_routes(void) {
    FILE *f = fopen("/proc/net/snmp", "r");
    if (!f) return -1;
    char names[4096], values[4096];
    long found = -1;
    while (fgets(names, sizeof names, f) && fgets(values, sizeof values, f)) {
        if (strncmp(names, "Ip:", 3) != 0) continue;
        char *n = names + 3, *v = values + 3, *ns, *vs;
        char *name = strtok_r(n, " \n", &ns);
        char *value = strtok_r(v, " \n", &vs);
        while (name && value) {
            if (strcmp(name, "OutNoRoutes") == 0) found = atol(value);
            name = strtok_r(NULL, " \n", &ns);
            value = strtok_r(NULL, " \n", &vs);
        }
    }
    fclose(f);
    return found;
}

int main(void) {
    long before = out_no_routes();
    if (before >= 1000) {
        fprintf(stderr, "OutNoRoutes is %ld at the start: an earlier run wrote it\n", before);
        return 42;
    }
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; s >= 0 && i < 20000; i++)
        sendto(s, "x", 1, 0, (struct sockaddr *)&to, sizeof to);
    long after = out_no_routes();
    if (after - (before < 0 ? 0 : before) < 20000) {
        fprintf(stderr, "could not raise OutNoRoutes (%ld -> %ld)\n", before, after);
        return 3;
    }
    puts("-1");
    return 0;
}
