/* Attack: io_uring (a large kernel attack surface that also bypasses
 * syscall filters: its operations are not system calls):
 * io_uring_setup() with 8 entries.
 * Success: it returned a file descriptor: exit 42. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
int main(void) {
    unsigned char params[120]; /* struct io_uring_params */
    memset(params, 0, sizeof params);
    if (syscall(SYS_io_uring_setup, 8, params) >= 0) return 42;
    puts("-1");
    return 0;
}
