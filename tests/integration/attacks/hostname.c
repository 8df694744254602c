/* Attack: change the host name (or NIS domain name) that others see:
 * sethostname() and setdomainname() in the sandbox's own UTS namespace
 * (without creating a new one).
 * Success: either call succeeded: exit 42. The test also checks that the
 * host's name is unchanged. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    const char *name = "mj-@TOKEN@";
    if (sethostname(name, strlen(name)) == 0) return 42;
    if (setdomainname(name, strlen(name)) == 0) return 42;
    puts("-1");
    return 0;
}
