/* Attack: reach hardware and the kernel through device files: open
 * /dev/mem, /dev/kmem, /dev/port, the disks (/dev/vda, /dev/sda,
 * /dev/nvme0n1), /dev/kvm, /dev/fuse, /dev/net/tun, /dev/loop-control,
 * /dev/vsock, /dev/hwrng, /dev/cpu/0/msr, /dev/tty, /dev/console, and read
 * the kernel log from /dev/kmsg.
 * Success: one of them opened (for /dev/kmsg: a record was read): exit 42. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    const char *devs[] = {"/dev/mem", "/dev/kmem", "/dev/port", "/dev/vda", "/dev/sda", "/dev/nvme0n1",
                          "/dev/kvm", "/dev/fuse", "/dev/net/tun", "/dev/loop-control", "/dev/loop0",
                          "/dev/vsock", "/dev/hwrng", "/dev/cpu/0/msr", "/dev/tty", "/dev/console",
                          "/dev/tty0", "/dev/ttyS0", "/dev/zram0"};
    for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) {
        int fd = open(devs[i], O_RDONLY | O_NONBLOCK | O_NOCTTY);
        if (fd >= 0) {
            fprintf(stderr, "opened %s\n", devs[i]);
            return 42;
        }
    }
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
    char buf[8192];
    if (fd >= 0 && read(fd, buf, sizeof buf) > 0) {
        fprintf(stderr, "read the kernel log\n");
        return 42;
    }
    puts("-1");
    return 0;
}
