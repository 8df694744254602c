/* Attack: reach the judge's compile cache (@CACHE_DIR@, which holds every
 * graded submission's program, e.g. other contestants' solutions): list
 * it, read a cached program, or write into it (to replace a program that
 * the judge will run for someone else).
 * Success: the folder could be listed, read or written: exit 42. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    DIR *d = opendir("@CACHE_DIR@");
    if (d) {
        struct dirent *e;
        int entries = 0;
        while ((e = readdir(d))) entries += e->d_name[0] != '.';
        closedir(d);
        fprintf(stderr, "listed the cache (%d entries)\n", entries);
        return 42;
    }
    if (access("@CACHE_DIR@", W_OK) == 0) {
        fprintf(stderr, "the cache is writable\n");
        return 42;
    }
    puts("-1");
    return 0;
}
