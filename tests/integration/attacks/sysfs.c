/* Attack: read the host's /sys: network interfaces (/sys/class/net), the
 * cgroup tree with other runs' limits and usage (/sys/fs/cgroup), block
 * devices, DMI / firmware data.
 * Success: one of these folders could be listed (non-empty): exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
int main(void) {
    const char *dirs[] = {"/sys/class/net", "/sys/fs/cgroup", "/sys/block", "/sys/class/dmi/id",
                          "/sys/kernel", "/sys/devices", "/sys"};
    for (int i = 0; i < 7; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        int entries = 0;
        while ((e = readdir(d))) entries += e->d_name[0] != '.';
        closedir(d);
        if (entries > 0) {
            fprintf(stderr, "listed %s\n", dirs[i]);
            return 42;
        }
    }
    puts("-1");
    return 0;
}
