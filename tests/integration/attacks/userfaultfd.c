/* Attack: userfaultfd (used to win kernel race conditions in exploits):
 * the userfaultfd() system call (user-mode faults only, which needs no
 * privilege) and the /dev/userfaultfd device.
 * Success: a userfaultfd was obtained: exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
int main(void) {
    if (syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY) >= 0) return 42;
    if (syscall(SYS_userfaultfd, O_CLOEXEC) >= 0) return 42;
    if (open("/dev/userfaultfd", O_RDWR) >= 0) return 42;
    puts("-1");
    return 0;
}
