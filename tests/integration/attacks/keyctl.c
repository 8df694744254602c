/* Attack: use the kernel keyring (a common kernel attack surface, and
 * shared state between processes of a uid): add_key() a user key, and
 * keyctl(KEYCTL_JOIN_SESSION_KEYRING) a named keyring.
 * Success: either call succeeded: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#define KEY_SPEC_PROCESS_KEYRING -2
#define KEYCTL_JOIN_SESSION_KEYRING 1
int main(void) {
    long k = syscall(SYS_add_key, "user", "mj-@TOKEN@", "x", 1, KEY_SPEC_PROCESS_KEYRING);
    if (k >= 0) { fprintf(stderr, "add_key succeeded\n"); return 42; }
    long r = syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, "mj-@TOKEN@");
    if (r >= 0) { fprintf(stderr, "keyctl succeeded\n"); return 42; }
    puts("-1");
    return 0;
}
