/* Attack: read secrets from the judge's environment passed through to the
 * program (the test sets MJ_SECRET_ENV=@TOKEN@-env for the judge), and
 * anything besides PATH that names the judge's paths (HOME, the cache,
 * cargo / rustup folders).
 * Success: the token, or a variable pointing into the judge's setup, is in
 * the program's environment: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
extern char **environ;
int main(void) {
    for (char **e = environ; *e; e++)
        if (strstr(*e, "@TOKEN@") || strncmp(*e, "MAYAN_JUDGE", 11) == 0 || strncmp(*e, "CARGO", 5) == 0 ||
            strncmp(*e, "RUSTUP", 6) == 0 || strstr(*e, "/root")) {
            fprintf(stderr, "environment leaks %s\n", *e);
            return 42;
        }
    puts("-1");
    return 0;
}
